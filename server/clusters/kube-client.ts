import 'server-only';
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';
import { Agent, fetch, ProxyAgent } from 'undici';
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
 * How long an idle kept connection stays open. undici closes one after 4 s unless the server names its own limit in a
 * `Keep-Alive` header, which kube-apiserver (Go's net/http) never sends; it closes idle connections after 90 s
 * (`secure_serving.go`, `IdleTimeout`). With undici's 4 s every liveness probe of a quiet cluster (one each ~12 s,
 * `ClusterWatcher`) would open a new TLS connection; 60 s stays under the server's 90 s, so the server never closes a
 * connection the client is about to use.
 */
export const keepIdleMs = 60_000;

/**
 * Raw JSON reads against one cluster. Only GET exists here: Autoscope is read-only by construction.
 * Objects stay as the API serves them (timestamps as strings), which is what the `lib/` mappers take;
 * client-node's typed models would turn them into Dates.
 */
export class KubeClient {
  /** The connection pool this client's requests share, and the TLS material it was made for. */
  private kept: { tls: TlsMaterial; dispatcher: Dispatcher | undefined } | null = null;

  constructor(
    readonly cluster: string,
    readonly kubeConfig: KubeConfig,
  ) {}

  get server(): string {
    return this.kubeConfig.getCurrentCluster()?.server ?? '';
  }

  /**
   * Headers (credentials as of now: a refreshed token, an exec plugin's) and the dispatcher for one request.
   * client-node's `applySecurityAuthentication` makes a new undici Agent for every request, so every list page opened
   * a new connection and a TLS handshake (~1.2 s of CPU in a 100,000-HPA sync, and two round trips each against a
   * remote API server). Here the Agent is kept, and made again only when the TLS material changes (a rotated client
   * certificate, a new CA); through a SOCKS proxy, which only client-node knows how to dial, each request still
   * gets its own.
   */
  private async prepare(url: string): Promise<{ headers: Record<string, string>; dispatcher: Dispatcher | undefined }> {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (cluster?.proxyUrl?.startsWith('socks')) {
      const ctx = new RequestContext(url, HttpMethod.GET);
      await this.kubeConfig.applySecurityAuthentication(ctx);
      return { headers: ctx.getHeaders(), dispatcher: ctx.getDispatcher() };
    }
    const opts: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (typeof opts.auth === 'string') headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    const tls = tlsMaterial(opts);
    if (!this.kept || !sameTls(this.kept.tls, tls)) {
      const previous = this.kept;
      this.kept = { tls, dispatcher: this.dispatcherFor(tls) };
      // Requests in flight on the old pool finish on it; it closes after them.
      void previous?.dispatcher?.close().catch(() => undefined);
    }
    return { headers, dispatcher: this.kept.dispatcher };
  }

  /**
   * The dispatcher client-node would make for this material (from its public `createDispatcherOptions`), made once,
   * keeping idle connections for `keepIdleMs`; none when there is nothing to configure (undici's global one).
   */
  private dispatcherFor(tls: TlsMaterial): Dispatcher | undefined {
    const agentOptions: https.AgentOptions = { ca: tls.ca, cert: tls.cert, key: tls.key, pfx: tls.pfx, passphrase: tls.passphrase };
    if (tls.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = tls.rejectUnauthorized;
    if (tls.servername !== undefined) agentOptions.servername = tls.servername;
    const options = this.kubeConfig.createDispatcherOptions(this.kubeConfig.getCurrentCluster(), agentOptions);
    if (options.type === 'proxy') return new ProxyAgent({ uri: options.uri, requestTls: options.requestTls, connect: options.connect });
    if (options.type === 'agent') return new Agent({ connect: options.connect, keepAliveTimeout: keepIdleMs });
    return undefined;
  }

  async get<T>(path: string, options: KubeGetOptions = {}): Promise<T> {
    return JSON.parse(await this.getText(path, options)) as T;
  }

  /**
   * The body of a successful GET as text, not parsed: the informer parses a list page in the ingest queue, right
   * before its objects are applied (`ResourceInformer.listPages`). A failure throws as `get`'s does.
   */
  async getText(path: string, options: KubeGetOptions = {}): Promise<string> {
    const url = new URL(this.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const { headers, dispatcher } = await this.prepare(url.toString());
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(url, {
        method: 'GET',
        headers: { ...headers, accept: options.accept ?? 'application/json', 'user-agent': 'autoscope/0.1 (read-only)' },
        dispatcher,
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
    return text;
  }
}

/** What a connection to the API server is made with: a change means a new pool. */
interface TlsMaterial {
  ca: https.AgentOptions['ca'];
  cert: https.AgentOptions['cert'];
  key: https.AgentOptions['key'];
  pfx: https.AgentOptions['pfx'];
  passphrase: string | undefined;
  rejectUnauthorized: boolean | undefined;
  servername: string | undefined;
}

function tlsMaterial(opts: https.RequestOptions): TlsMaterial {
  return {
    ca: opts.ca,
    cert: opts.cert,
    key: opts.key,
    pfx: opts.pfx,
    passphrase: opts.passphrase,
    rejectUnauthorized: opts.rejectUnauthorized,
    servername: opts.servername,
  };
}

/** Buffers and strings (or lists of them, as TLS options allow) compared by content. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}

function sameTls(a: TlsMaterial, b: TlsMaterial): boolean {
  return (Object.keys(a) as (keyof TlsMaterial)[]).every((k) => sameValue(a[k], b[k]));
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
