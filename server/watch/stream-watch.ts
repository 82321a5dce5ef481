import 'server-only';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { WatchLike } from './informer';

/**
 * Lists the resource, handing each page's objects to `page` as the page arrives; resolves to the list's
 * resourceVersion (the point the watch then starts from).
 */
export type PagedList = (page: (objects: KubernetesObject[]) => void) => Promise<string>;

type ObjectCallback = (object: KubernetesObject) => void;
type ErrorCallback = (err: unknown) => void;

/** client-node's ListWatch: a clean close right after another waits 1 s, doubling up to 30 s; any event resets it. */
const baseReconnectDelayMs = 1_000;
const maxReconnectDelayMs = 30_000;

/**
 * A list, then a watch from the list's resourceVersion, for a resource whose objects are only handed on as they come
 * and never looked up again: no cache. Autoscope files an HPA's or a FederatedHPA's Events into history as they arrive
 * (by uid, so filing one twice changes nothing) and reads nothing of them later, so client-node's `ListWatch`, whose
 * cache held a key for each Event for the hour an Event lives (~150 bytes each, a growing part of a large fleet's heap:
 * docs/performance.md, 2026-11-30), is more than they need. client-go does the same with a reflector over a store that
 * keeps nothing.
 *
 * The loop is ListWatch's (client-node 2.0.1, `src/cache.ts`, `doneHandler` and `watchHandler`): a 410 Gone (on the
 * stream or as the watch's end) lists again; a client-side timeout watches again at once; a clean close watches
 * again from the last resourceVersion, after a delay that doubles while closes come without events; any other error
 * is reported (`error`) and the loop stops until `start()` (the informer's restart), which resumes the watch where it
 * was. What a cache made possible and this cannot do:
 * - A relist announces every listed object as an `add`, also those already announced (ListWatch compares each with
 *   its cached version and announces only what changed), and announces no `delete` for what the list no longer has.
 * - A watch's `ADDED` is an `add` and its `MODIFIED` an `update`, as the server says (ListWatch decides by its cache).
 * What it does that ListWatch does not: each page's objects are announced as the page arrives, not once the whole list
 * is in, so a page's parsed objects die young; and a list or watch that a `stop()` or a newer `start()` overtook hands
 * nothing over afterwards (ListWatch applied a list that was under way when it was stopped, then watched).
 */
export class StreamWatch {
  private resourceVersion = '';
  /**
   * Bumped by every `start` and `stop`: what a list or watch of an earlier run delivers afterwards is dropped, and a
   * stopped loop, whose run no step carries, goes no further.
   */
  private run = 0;
  private reconnectDelayMs = 0;
  private hasConnected = false;
  private request: AbortController | undefined;
  private readonly callbacks = {
    add: [] as ObjectCallback[],
    update: [] as ObjectCallback[],
    delete: [] as ObjectCallback[],
    error: [] as ErrorCallback[],
  };
  private counted = 0;

  constructor(
    private readonly path: string,
    private readonly watch: WatchLike,
    private readonly listFn: PagedList,
    private readonly fieldSelector?: string,
  ) {}

  /**
   * How many objects the cluster holds as far as the stream tells: those of the last complete list, plus the watch's
   * `ADDED`, minus its `DELETED`.
   */
  get size(): number {
    return this.counted;
  }

  on(verb: 'add' | 'update' | 'delete', cb: ObjectCallback): void;
  on(verb: 'error', cb: ErrorCallback): void;
  on(verb: 'add' | 'update' | 'delete' | 'error', cb: ObjectCallback & ErrorCallback): void {
    this.callbacks[verb].push(cb);
  }

  /** Nothing is kept. */
  list(): KubernetesObject[] {
    return [];
  }

  async start(): Promise<void> {
    this.reconnectDelayMs = 0;
    this.hasConnected = false;
    this.run += 1;
    await this.done(this.run, null);
  }

  stop(): Promise<void> {
    this.run += 1;
    this.abort();
    return Promise.resolve();
  }

  private abort(): void {
    this.request?.abort();
    this.request = undefined;
  }

  private emit(verb: 'add' | 'update' | 'delete', object: KubernetesObject): void {
    for (const cb of this.callbacks[verb]) cb(object);
  }

  private failed(err: unknown): void {
    for (const cb of this.callbacks.error) cb(err);
  }

  /** The loop's step: at the start (`err` null) and whenever a watch request ends. */
  private async done(run: number, err: unknown): Promise<void> {
    if (run !== this.run) return;
    this.abort();
    const e = err as { statusCode?: unknown; code?: unknown; name?: unknown } | null;
    if (e && (e.statusCode === 410 || e.code === 410)) this.resourceVersion = '';
    else if (e && e.name === 'TimeoutError') this.reconnectDelayMs = 0;
    else if (e) return this.failed(err);
    if (!this.resourceVersion) {
      let listed = 0;
      let version: string;
      try {
        version = await this.listFn((objects) => {
          if (run !== this.run) return;
          listed += objects.length;
          for (const object of objects) this.emit('add', object);
        });
      } catch (listError) {
        if (run === this.run) this.failed(listError);
        return;
      }
      if (run !== this.run) return;
      this.counted = listed;
      this.resourceVersion = version;
    }
    const query: Record<string, string> = { resourceVersion: this.resourceVersion };
    if (this.fieldSelector !== undefined) query.fieldSelector = this.fieldSelector;
    if (this.reconnectDelayMs > 0 && this.hasConnected) {
      await new Promise((resolve) => setTimeout(resolve, this.reconnectDelayMs));
      if (run !== this.run) return;
    }
    if (this.hasConnected)
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs > 0 ? this.reconnectDelayMs * 2 : baseReconnectDelayMs, maxReconnectDelayMs);
    this.hasConnected = true;
    let request: AbortController;
    try {
      request = await this.watch.watch(
        this.path,
        query,
        (phase, object) => this.event(run, phase, object as KubernetesObject & { code?: unknown }),
        (watchError) => void this.done(run, watchError),
      );
    } catch (watchError) {
      // A request that could not be made (its credentials, say): reported like a failed watch, from whichever call
      // this step runs in (ListWatch's own loop let it escape from the watch's end as an unhandled rejection).
      if (run === this.run) this.failed(watchError);
      return;
    }
    if (run === this.run) this.request = request;
    else request.abort();
  }

  private event(run: number, phase: string, object: KubernetesObject & { code?: unknown }): void {
    if (run !== this.run) return;
    switch (phase) {
      case 'ERROR':
        // The watch ends after it (`done`): a 410 makes that a relist.
        if (object.code === 410) this.resourceVersion = '';
        return;
      case 'ADDED':
        this.counted += 1;
        this.emit('add', object);
        break;
      case 'MODIFIED':
        this.emit('update', object);
        break;
      case 'DELETED':
        this.counted = Math.max(0, this.counted - 1);
        this.emit('delete', object);
        break;
      default:
        // BOOKMARK: only its resourceVersion.
        break;
    }
    this.reconnectDelayMs = 0;
    this.resourceVersion = object.metadata?.resourceVersion || '';
  }
}
