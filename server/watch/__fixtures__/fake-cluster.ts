import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
import type { KubeClient } from '../../clusters/kube-client';
import { KubeApiError } from '../../clusters/kube-client';
import type { WatchLike } from '../informer';

type Callback = (phase: string, object: unknown, raw?: unknown) => void;

interface Stream {
  path: string;
  resourceVersion: string;
  callback: Callback;
  done: (err: unknown) => void;
  open: boolean;
}

/**
 * A scripted Kubernetes API for unit tests of the watch layer: one object store per path with a
 * resourceVersion counter and an event log (so a watch resumes from a resourceVersion and replays, or
 * gets 410 Gone once the log is compacted), lists and watches that can be made to fail with a status or
 * a network error. It stands in for `KubeClient.get` (and `getText`) and client-node's `Watch`; client-node's real
 * `ListWatch` runs on top of it.
 */
export class FakeCluster {
  private rv = 100;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly log = new Map<string, { rv: number; type: string; object: KubeObject }[]>();
  private readonly compactedBefore = new Map<string, number>();
  readonly streams: Stream[] = [];
  /** Requests in order, `list <path>` or `watch <path> rv=<n>`. */
  readonly requests: string[] = [];
  /** The next list requests fail with these (0 = connection refused), one per request. */
  listFailures: number[] = [];
  /** The next watch requests fail with these, one per request. */
  watchFailures: number[] = [];
  /** Every request fails with connection refused while down. */
  down = false;
  /** Every list and watch is answered with this status while set (an API server that only fails). */
  failEvery: number | null = null;
  /** Lists answer at most this many items a page, with a `continue` token (as `limit` asks); unset, all at once. */
  pageSize: number | null = null;

  private store(path: string): Map<string, KubeObject> {
    let m = this.objects.get(path);
    if (!m) {
      m = new Map();
      this.objects.set(path, m);
      this.log.set(path, []);
    }
    return m;
  }

  private emit(path: string, type: string, object: KubeObject): void {
    this.log.get(path)?.push({ rv: this.rv, type, object });
    for (const s of this.streams) if (s.open && s.path === path) s.callback(type, structuredClone(object));
  }

  /** Creates or replaces an object (a status change is a replace) and tells open watches. */
  put(path: string, object: KubeObject): void {
    const m = this.store(path);
    const key = `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    const existed = m.has(key);
    this.rv += 1;
    const stored = { ...structuredClone(object), metadata: { ...object.metadata, resourceVersion: String(this.rv) } };
    m.set(key, stored);
    this.emit(path, existed ? 'MODIFIED' : 'ADDED', stored);
  }

  remove(path: string, namespace: string, name: string): void {
    const m = this.store(path);
    const key = `${namespace}/${name}`;
    const gone = m.get(key);
    if (!gone) return;
    m.delete(key);
    this.rv += 1;
    this.emit(path, 'DELETED', { ...gone, metadata: { ...gone.metadata, resourceVersion: String(this.rv) } });
  }

  /** Forgets the event log: a watch from a resourceVersion older than the current one gets 410 Gone. */
  compact(path: string): void {
    this.compactedBefore.set(path, this.rv);
    this.log.set(path, []);
  }

  /** Ends open watch streams: abruptly (a load balancer's cut) or cleanly. */
  cut(path?: string, abrupt = true): void {
    for (const s of this.streams) {
      if (!s.open || (path && s.path !== path)) continue;
      s.open = false;
      s.done(abrupt ? Object.assign(new Error('terminated'), { name: 'TypeError' }) : null);
    }
  }

  readonly client = {
    cluster: 'fake',
    kubeConfig: {},
    server: 'https://fake.invalid',
    get: async <T>(path: string, options?: { query?: Record<string, string | number | undefined> }): Promise<T> => {
      await Promise.resolve();
      if (path === '/version' || path === '/apis') {
        if (this.down) throw new KubeApiError(0, 'ECONNREFUSED', 'cannot reach fake: connection refused', path);
        return (path === '/version' ? { gitVersion: 'v1.33.2' } : { groups: [{ name: 'autoscaling', versions: [{ version: 'v2' }] }] }) as T;
      }
      this.requests.push(`list ${path}`);
      const failure = this.down ? 0 : (this.failEvery ?? this.listFailures.shift());
      if (failure !== undefined) throw failure === 0 ? new KubeApiError(0, 'ECONNREFUSED', 'cannot reach fake: connection refused', path) : new KubeApiError(failure, 'InternalError', `simulated ${failure}`, path);
      const all = [...this.store(path).values()];
      if (this.pageSize === null) return { items: all.map((o) => structuredClone(o)), metadata: { resourceVersion: String(this.rv) } } as T;
      // Pages of one snapshot, as kube-apiserver serves them (the continue token carries the offset here).
      const from = Number(options?.query?.continue ?? 0);
      const items = all.slice(from, from + this.pageSize).map((o) => structuredClone(o));
      const next = from + this.pageSize < all.length ? String(from + this.pageSize) : undefined;
      return { items, metadata: { resourceVersion: String(this.rv), ...(next ? { continue: next } : {}) } } as T;
    },
    getText: async (path: string, options?: { query?: Record<string, string | number | undefined> }): Promise<string> =>
      JSON.stringify(await this.client.get(path, options)),
  } as unknown as KubeClient;

  readonly watch: WatchLike = {
    watch: async (path, query, callback, done) => {
      await Promise.resolve();
      const controller = new AbortController();
      const resourceVersion = String(query.resourceVersion ?? '');
      this.requests.push(`watch ${path} rv=${resourceVersion}`);
      const failure = this.down ? 0 : (this.failEvery ?? this.watchFailures.shift());
      if (failure !== undefined) {
        done(failure === 0 ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) : Object.assign(new Error('Internal Server Error'), { statusCode: failure }));
        return controller;
      }
      const from = Number(resourceVersion);
      if (from < (this.compactedBefore.get(path) ?? 0)) {
        // A 410 answered on the stream, as kube-apiserver does: an ERROR event, then the end.
        callback('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' });
        done(null);
        return controller;
      }
      const stream: Stream = { path, resourceVersion, callback, done, open: true };
      this.streams.push(stream);
      controller.signal.addEventListener('abort', () => {
        stream.open = false;
      });
      for (const e of this.log.get(path) ?? []) if (e.rv > from) callback(e.type, structuredClone(e.object));
      return controller;
    },
  };
}

/** Lets queued promises and zero-delay timers run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}
