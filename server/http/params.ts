import 'server-only';
import type { AutoscalerPath } from '@/lib/api';
import { AutoscalerPathSchema } from '@/lib/api';
import { AppError } from './app-error';

export type AutoscalerRouteContext = { params: Promise<{ cluster: string; kind: string; namespace: string; name: string }> };

/** The four path segments of an autoscaler route, validated (a cluster name travels URL-encoded as one segment). */
export async function autoscalerPath(context: AutoscalerRouteContext): Promise<AutoscalerPath> {
  const raw = await context.params;
  let cluster = raw.cluster;
  try {
    // Next hands over segments decoded once; a name that still holds an escape was encoded twice by a client.
    if (/%[0-9A-Fa-f]{2}/.test(cluster)) cluster = decodeURIComponent(cluster);
  } catch {
    throw new AppError('bad_request', 'invalid cluster: bad URL encoding', { issues: [{ path: 'cluster', message: 'bad URL encoding' }] });
  }
  return AutoscalerPathSchema.parse({ ...raw, cluster });
}

export function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

const maxBodyBytes = 256 * 1024;

/** A JSON body of at most 256 KB; anything else is a 4xx with the JSON error body. */
export async function readJsonBody(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > maxBodyBytes) throw new AppError('payload_too_large', `request body is ${declared} bytes; the limit is ${maxBodyBytes}`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBodyBytes) throw new AppError('payload_too_large', `request body exceeds ${maxBodyBytes} bytes`);
  if (!text.trim()) throw new AppError('bad_request', 'a JSON body is required');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('bad_request', `body is not valid JSON: ${err instanceof Error ? err.message : 'parse error'}`);
  }
}
