import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce, securityHeaders } from '@/lib/http/security-headers';
import path from 'node:path';
import { errorText, log } from '../log';
import { acceptsGzip, compressFrom } from './accept-encoding';
import { listAutoscalersPrepared, triagePrepared } from './fleet-reads';
import { PreparedBytes } from './prepared-bytes';
import { preparedBody } from './row-json';
import type { AssetAnswer } from './static-assets';
import { staticAssets } from './static-assets';

/**
 * The server's fast path for the two reads an open list or triage page repeats. Next's request pipeline (its
 * router, proxy.ts, the app route's wrapper) costs 1–3 ms of CPU a request before any of Autoscope's code
 * runs; with twenty people on the dashboard those milliseconds queue on the one event loop, and a trivial
 * route's p99 was 57 ms–1 s at 100,000 autoscalers (docs/performance.md). Here the server (scripts/serve.mjs)
 * hands such a request straight to the same handler the app route exports, and adds what proxy.ts would:
 * the security headers. What the handler decides (access, validation, the JSON error body, the metric) is
 * the same code either way.
 *
 * Taken: `GET` of exactly `/api/v1/autoscalers` or `/api/v1/triage` (any query), and the build's static assets
 * (`/_next/static/…`, static-assets.ts). Everything else — another method, a trailing slash, an encoded path,
 * every page — goes to Next unchanged, which answers it as before.
 */
type RouteHandler = (req: NextRequest, context: { params: Promise<Record<string, never>> }) => Promise<Response>;

const routes = new Map<string, RouteHandler>([
  ['/api/v1/autoscalers', listAutoscalersPrepared],
  ['/api/v1/triage', triagePrepared],
]);

/** What `scripts/serve.mjs` calls for each request: true when the fast path answers it. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const globalKey = Symbol.for('autoscope.fastPath');
type Holder = { [globalKey]?: FastPath };

/** The build's static assets, from the directory Next serves them from (the checkout's or the image's `.next/static`). */
let assets: AssetAnswer | null = null;

/** Offers the fast path to the server (called once the backend has started; `next dev` has no such server). */
export function installFastPath(): void {
  assets = staticAssets(path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'static'));
  (globalThis as Holder)[globalKey] = answerFast;
}

export function answerFast(req: IncomingMessage, res: ServerResponse): boolean {
  if (assets?.(req, res)) return true;
  if (req.method !== 'GET' || !req.url) return false;
  const query = req.url.indexOf('?');
  const route = routes.get(query < 0 ? req.url : req.url.slice(0, query));
  if (!route) return false;
  let request: NextRequest;
  try {
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
    // The host only makes the URL absolute; nothing here trusts it.
    request = new NextRequest(new URL(req.url, `http://${headers.get('host') || 'localhost'}`), { method: 'GET', headers });
  } catch {
    // A header or host the web APIs refuse: Next's own parsing answers it.
    return false;
  }
  void respond(route, request, req, res);
  return true;
}

async function respond(route: RouteHandler, request: NextRequest, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const response = await route(request, { params: Promise.resolve({}) });
    // A page's or triage's bytes as they were prepared (row-json.ts); any other answer (an error) read from its stream.
    // A shared answer's gzip is made once, for every request it goes to (prepared-bytes.ts).
    const prepared = preparedBody(response) ?? new PreparedBytes(Buffer.from(await response.arrayBuffer()));
    let body: Buffer | null = null;
    const headers: Record<string, string | string[]> = Object.fromEntries(securityHeaders(contentSecurityPolicy(newNonce(), process.env)));
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    if (prepared.length >= compressFrom) {
      headers.vary = 'Accept-Encoding';
      if (acceptsGzip(req.headers['accept-encoding'])) {
        body = await prepared.gzip();
        headers['content-encoding'] = 'gzip';
      }
    }
    body ??= prepared.bytes();
    headers['content-length'] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
  } catch (err) {
    // The handler turns every failure into its JSON answer; this is the writing of it failing.
    log.error('fast path failed', { path: request.nextUrl.pathname, error: errorText(err) });
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: { code: 'internal', message: 'internal error' } }));
    } else {
      res.destroy();
    }
  }
}
