import type { z } from 'zod';
import type { ErrorCode, FieldIssue } from '@/lib/api';
import { ErrorBodySchema } from '@/lib/api';

/** A failed API call: the server's error body, or a network failure (`status` 0). `issues` name the bad fields of a 400. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'network',
    readonly status: number,
    message: string,
    readonly cluster?: string,
    readonly issues?: readonly FieldIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isClientError(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500;
}

/**
 * Worth asking again soon: not a wrong input (4xx), and not a cluster the server already knows it cannot
 * reach (its state and the partial-failure banner say so; the stream reports when it is back).
 */
export function isRetryable(err: unknown): boolean {
  return !isClientError(err) && !(err instanceof ApiError && err.code === 'cluster_unreachable');
}

/**
 * GET (or POST with a JSON body) and parse the answer with the route's own schema from `lib/api`, so a
 * drift between server and page fails loudly here rather than as `undefined` in a component.
 */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  init: { signal?: AbortSignal; method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      signal: init.signal,
      headers:
        init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError('network', 0, 'Autoscope is not reachable. Is the server running?');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(json);
    if (parsed.success)
      throw new ApiError(
        parsed.data.error.code,
        res.status,
        parsed.data.error.message,
        parsed.data.error.cluster,
        parsed.data.error.issues,
      );
    throw new ApiError('internal', res.status, `the server answered ${res.status}`);
  }
  return schema.parse(json);
}
