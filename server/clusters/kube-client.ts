import 'server-only';
import type { KubeConfig } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';
import { AppError } from '../http/app-error';

/** A Kubernetes API failure: `statusCode` 0 for a network failure (refused, reset, timeout). */
export class KubeApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

export interface KubeGetOptions {
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  timeoutMs?: number;
  accept?: string;
}

/**
 * Raw JSON reads against one cluster. Only GET exists here: Autoscope is read-only by construction.
 * Objects stay as the API serves them (timestamps as strings), which is what the `lib/` mappers take;
 * client-node's typed models would turn them into Dates.
 */
export class KubeClient {
  constructor(
    readonly cluster: string,
    readonly kubeConfig: KubeConfig,
  ) {}

  get server(): string {
    return this.kubeConfig.getCurrentCluster()?.server ?? '';
  }

  async get<T>(path: string, options: KubeGetOptions = {}): Promise<T> {
    const url = new URL(this.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const ctx = new RequestContext(url.toString(), HttpMethod.GET);
    await this.kubeConfig.applySecurityAuthentication(ctx);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(url, {
        method: 'GET',
        headers: { ...ctx.getHeaders(), accept: options.accept ?? 'application/json', 'user-agent': 'autoscope/0.1 (read-only)' },
        dispatcher: ctx.getDispatcher(),
        signal,
      });
    } catch (err) {
      throw new KubeApiError(0, networkReason(err), `cannot reach ${this.cluster}: ${networkMessage(err)}`, path);
    }
    const text = await res.text();
    if (!res.ok) {
      let reason = res.statusText;
      let message = text.slice(0, 300);
      try {
        const status = JSON.parse(text) as { reason?: string; message?: string };
        reason = status.reason ?? reason;
        message = status.message ?? message;
      } catch {
        // not a Status object (a proxy's HTML page, say): keep the text
      }
      throw new KubeApiError(res.status, reason, message, path);
    }
    return JSON.parse(text) as T;
  }
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; name?: string } } | undefined)?.cause;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'Timeout';
  return cause?.code ?? cause?.name ?? 'NetworkError';
}

function networkMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (err instanceof Error && err.name === 'TimeoutError') return 'request timed out';
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ECONNRESET') return 'connection reset';
  if (cause?.code === 'ENOTFOUND') return 'host not found';
  return cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Translates a Kubernetes failure once, for every caller: client-node's REST errors carry `code`,
 * its watch errors `statusCode`, ours `statusCode`. 403 is forbidden, not "unknown".
 */
export function toAppError(err: unknown, cluster: string): AppError {
  if (err instanceof AppError) return err;
  const e = err as { statusCode?: number; code?: number | string; message?: string; body?: unknown } | undefined;
  const status = typeof e?.statusCode === 'number' ? e.statusCode : typeof e?.code === 'number' ? e.code : 0;
  const message =
    err instanceof KubeApiError ? err.message : (statusMessage(e?.body) ?? (err instanceof Error ? err.message : String(err)));
  if (status === 401)
    return new AppError('unauthenticated', `cluster ${cluster} rejected Autoscope's credentials: ${message}`, { cluster });
  if (status === 403) return new AppError('forbidden', message, { cluster });
  if (status === 404) return new AppError('not_found', message, { cluster });
  if (status === 0 || status === 502 || status === 503 || status === 504) return new AppError('cluster_unreachable', message, { cluster });
  return new AppError('upstream_error', `cluster ${cluster} answered ${status}: ${message}`, { cluster });
}

function statusMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message;
    } catch {
      return undefined;
    }
  }
  return (body as { message?: string } | undefined)?.message;
}
