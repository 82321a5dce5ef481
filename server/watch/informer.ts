import 'server-only';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Watch } from '@kubernetes/client-node';
import { ListWatch } from '@kubernetes/client-node';
import type { PackedResourceVersion } from '@/lib/k8s/resource-version';
import { packResourceVersion, resourceVersionText } from '@/lib/k8s/resource-version';
import type { KubeObject } from '@/lib/k8s/types';
import type { KubeClient } from '../clusters/kube-client';
import { KubeApiError } from '../clusters/kube-client';
import { LineWatch } from './line-watch';
import type { WatchedResource } from './resources';
import { resourcePath } from './resources';
import { StreamWatch } from './stream-watch';

export interface InformerHandlers {
  onAdd(object: KubeObject): void;
  onUpdate(object: KubeObject): void;
  onDelete(object: KubeObject): void;
  /**
   * A full list completed and the informer's cache holds it: `objects` is the cluster's truth as of
   * now (anything of this resource missing from it is gone).
   */
  onSynced(objects: KubeObject[]): void;
  /**
   * A page of the list as it arrives, before the rest of the list is fetched: the objects ListWatch would announce
   * (`onAdd`, `onUpdate`) only once every page is in. Lets the index map a cluster's autoscalers while its next pages,
   * and other clusters' lists, are still on their way. For a `keysOnly` resource those later announcements are not
   * made: the pages were (`byPage`).
   */
  onListed?(objects: KubeObject[]): void;
  onError(error: InformerError): void;
  /** The API server answered: a request (a list page, a watch that opened) or a watch event. */
  onAnswered?(kind: 'request' | 'event'): void;
}

export interface InformerError {
  /** HTTP status, or 0 for a network failure. */
  statusCode: number;
  message: string;
  /** Whether the failed request was the list (a watch failure after a good list is routine). */
  duringList: boolean;
  /**
   * The server could not be reached at all: connection refused, DNS, TLS, or an aggregated proxy that
   * cannot reach its backend (Karmada's member proxy answers 503 "error trying to reach service").
   * A stream cut or a 5xx is an answer, not this.
   */
  refused: boolean;
  /**
   * A watch stream that had opened ended without a status (a load balancer's cut, a reset): routine,
   * the informer resumes at once. Not an error of the cluster.
   */
  cut: boolean;
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether a failure says the server is not there (refused, DNS, TLS) rather than that it answered badly. */
export function isRefusal(err: unknown, statusCode: number, message: string): boolean {
  if (statusCode === 503 && /error trying to reach service/.test(message)) return true;
  if (statusCode !== 0) return false;
  const reason = (err as { reason?: unknown }).reason;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const code =
    typeof reason === 'string'
      ? reason
      : typeof cause?.code === 'string'
        ? cause.code
        : typeof (err as { code?: unknown }).code === 'string'
          ? (err as { code: string }).code
          : '';
  return unreachableCodes.has(code) || /^(CERT_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)_)/.test(code);
}

/**
 * The whole object a key stands for while it is being handed over (`ObjectKey`): beside the keys, not a field of
 * each, which every cached key would keep (8 bytes each of a large fleet's HPAs and Events) long after.
 */
const carried = new WeakMap<ObjectKey, KubeObject>();

/**
 * What ListWatch's cache holds of an object of a `keysOnly` resource: its key and resourceVersion, all it reads (to
 * tell an update from an add, to find what a relist no longer has, to resume the watch). ListWatch reports an object
 * synchronously from the call that hands it over (a watch event, a list's items), so the whole object rides along
 * (`carried`) for that call only and is handed to the informer's handlers; the cache never keeps it.
 */
class ObjectKey {
  readonly name: string;
  readonly namespace: string | undefined;
  /** Kept as a number when it is one (`packResourceVersion`): no string of its own for each HPA and Event. */
  private readonly version: PackedResourceVersion;

  constructor(object: KubeObject) {
    const { name, namespace, resourceVersion } = object.metadata;
    this.name = name;
    this.namespace = namespace;
    this.version = packResourceVersion(resourceVersion);
    carried.set(this, object);
  }

  get resourceVersion(): string | undefined {
    return resourceVersionText(this.version);
  }

  /** As JSON, what it stands for: the object's name, namespace and resourceVersion. */
  toJSON(): { name: string; namespace: string | undefined; resourceVersion: string | undefined } {
    return { name: this.name, namespace: this.namespace, resourceVersion: this.resourceVersion };
  }

  /** ListWatch has reported it: from now on it is only the key. */
  handedOver(): void {
    carried.delete(this);
  }

  /**
   * What ListWatch and the index read of a key (name, namespace, resourceVersion): the key itself, so that a cached key
   * is one object, not two (a metadata object of its own was ~32 bytes more for each of a large fleet's HPAs and Events).
   */
  get metadata(): { name: string; namespace?: string; resourceVersion?: string } {
    return this;
  }
}

/** The object ListWatch reports: the whole one while its key is being handed over, else the key (a relist's delete). */
function reported(o: KubernetesObject): KubeObject {
  return o instanceof ObjectKey ? (carried.get(o) ?? (o as unknown as KubeObject)) : slimObject(o);
}

/** One watch request as the informer hands it to ListWatch. */
interface CurrentWatch {
  abandoned: boolean;
  /** Known once the response is in. */
  controller: AbortController | null;
}

/** What ListWatch needs of client-node's `Watch`; tests pass a fake that serves scripted streams. */
export type WatchLike = Pick<Watch, 'watch'>;

/** What the informer drives: client-node's `ListWatch`, or for an `uncached` resource `StreamWatch`. */
interface Lister {
  start(): Promise<void>;
  stop(): Promise<void>;
  list(): ReadonlyArray<KubernetesObject>;
  on(verb: 'add' | 'update' | 'delete', cb: (object: KubernetesObject) => void): void;
  on(verb: 'error', cb: (err: unknown) => void): void;
}

export interface InformerOptions {
  /** Defaults to `LineWatch` on the cluster's KubeConfig (client-node's `Watch`, with lines parsed where `defer` says). */
  watch?: WatchLike;
  /** Restart delay after the n-th consecutive failure (1-based); defaults to `restartDelay`. */
  delay?: (attempt: number) => number;
  /**
   * Called with each object as it arrives — every item of a list page, every watch event's object — before the
   * informer caches it or reports it (the index shares its strings here: `FleetIndex.shareStrings`).
   */
  arrived?: (object: KubeObject) => void;
  /** A watch that delivered nothing (not even a bookmark) for this long is ended and resumed; `watchIdleMs` by default. */
  watchIdleMs?: number;
  /**
   * Where the default watch parses and hands on each line of its stream, in arrival order (the runtime's ingest queue:
   * `LineWatch`), and a list page is parsed and handed over (`childrenFirst`: what that work pushes is to run right
   * after it, `IngestQueue.push`); at once without it.
   */
  defer?: (work: () => void, childrenFirst?: boolean) => void;
}

/** A list page that was to be handed over after a `stop` or a newer `start`: the list it belongs to ends with this. */
class ListOvertaken extends Error {
  constructor() {
    super('list overtaken by a stop or a newer start');
  }
}

/** What the informer reads of a list's metadata. */
interface ListMetadata {
  resourceVersion?: string;
  continue?: string;
}

/**
 * The watches ask for bookmarks (`allowWatchBookmarks`, as client-go's reflector does): kube-apiserver's watch cache
 * sends one to each such watch about every minute, carrying the current resourceVersion, so a quiet resource's watch
 * hears from its server and resumes from a recent version. A watch silent for 90 s is then broken, not quiet: it is
 * ended and resumed. (client-node's `Watch` ends a stream after 30 s without data by default, so without bookmarks
 * every quiet resource's watch reconnected — a new TLS connection — every 30 s.) A server without a watch cache sends
 * no bookmarks; its quiet watches reconnect every 90 s. A cluster cut off altogether is noticed by the watcher's
 * liveness probe (`ClusterWatcher`), not by this limit. The same limit bounds the wait for a watch's response headers.
 */
export const watchIdleMs = 90_000;

/** kubectl's copy of what was last applied: a JSON string of the whole object, unique to each object. */
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Drops what Autoscope never reads from the object the informer caches (the cache holds this very object):
 * `managedFields`, a third of an HPA's size, and kubectl's last-applied-configuration annotation, 360–800 bytes of
 * JSON on every object created with `kubectl apply` (each of the fixtures from real clusters has one) that no string
 * can share. Every other annotation stays (the MachineSet rules read theirs).
 *
 * How matters to V8: deleting a property other than the last one added turns the object into a hash table. The API
 * server writes `managedFields` last in the metadata, so deleting it is free; the annotations are a map written in
 * key order, so the last-applied one is usually in the middle, and the annotations are made anew without it (an
 * empty object when it was the only one) rather than deleted from.
 */
export function slimObject(o: KubernetesObject | KubeObject): KubeObject {
  const object = o as unknown as KubeObject;
  const metadata = object.metadata;
  delete metadata.managedFields;
  const annotations = metadata.annotations;
  if (annotations && lastApplied in annotations) {
    const { [lastApplied]: _applied, ...rest } = annotations;
    metadata.annotations = rest;
  }
  return object;
}

const baseDelayMs = 1_000;
/**
 * 15 s at most (18 s with jitter): a cluster back from an outage is noticed by the next restart, and must
 * be shown as back within 30 s of its return.
 */
const maxDelayMs = 15_000;

/** Capped exponential backoff with ±20% jitter, so fifty clusters that fail together do not retry together. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(capped * (0.8 + 0.4 * random()));
}

/**
 * The informer's restart delay: at once after a first failure (a cut stream or one 5xx is routine and the
 * next request most likely answers), then the jittered backoff.
 */
export function restartDelay(attempt: number, random: () => number = Math.random): number {
  return attempt <= 1 ? 0 : backoffDelay(attempt - 1, random);
}

/**
 * One list+watch for one (cluster, resource), on client-node's `ListWatch`. That informer relists on 410
 * and re-watches after a clean close, but after any other error it emits `error` and stops. Restarting
 * is ours, and it restarts the *same* ListWatch: its cache and its last resourceVersion survive, so the
 * watch resumes where it stopped and the server replays what happened meanwhile (client-go's reflector
 * does the same); only a 410 Gone, or a failed list, makes it list again. A fresh ListWatch would start
 * with an empty cache and lose every change made while the stream was down.
 */
export class ResourceInformer {
  private readonly listWatch: Lister;
  /** The same, when the resource is `uncached`: it counts what the cluster holds itself (`size`). */
  private readonly stream: StreamWatch | null;
  /** Objects in ListWatch's cache (`size`). */
  private cached = 0;
  /** A list returned and ListWatch is applying it to its cache: the sync is announced once it holds it. */
  private listPending = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private running = false;
  /** Bumped by every `start` and `stop`: a list begun before is handed over no further (`handOver`). */
  private startedAt = 0;
  /** Whether the watch request that just ended had opened (200) before it ended. */
  private streamWasOpen = false;
  /** The cache has held a complete list once (ListWatch keeps it across restarts, failed relists included). */
  private hasListed = false;
  /** The keys of the last list (a `keysOnly` resource), carrying their objects until ListWatch has applied the list. */
  private listedKeys: ObjectKey[] = [];

  get listedOnce(): boolean {
    return this.hasListed;
  }
  /** Completed lists (the first, then every relist: a 410 Gone, a failed list) and restarts after an error; the metrics read them. */
  lists = 0;
  restarts = 0;
  /** Watch requests made: the first, then every resumption (a cut, the idle limit, the server's timeout). */
  watches = 0;
  /** Watches ended and made again by `resumeWatch`. */
  resumes = 0;
  /** Watch events received (bookmarks included), counted as they arrive. */
  events = 0;
  private current: CurrentWatch | null = null;
  synced = false;
  lastSyncAt: string | null = null;
  lastError: InformerError | null = null;

  constructor(
    private readonly client: KubeClient,
    readonly resource: WatchedResource,
    readonly version: string,
    private readonly handlers: InformerHandlers,
    private readonly options: InformerOptions = {},
  ) {
    // The tests of quiet watches (test/integration/watch-liveness.test.ts) check that a watch ends at its limit, not before.
    const lineWatch = options.watch
      ? null
      : new LineWatch(client.kubeConfig, {
          idleMs: options.watchIdleMs ?? watchIdleMs,
          ...(options.defer ? { defer: options.defer } : {}),
        });
    // upstream: kubernetes-client/javascript src/cache.ts doneHandler — after `await this.listFn()` the
    // cache is replaced (deletes, adds, updates) and only then is the watch opened. The watch call is
    // therefore the first moment the cache holds the list.
    const signalling: WatchLike = {
      watch: (path, query, callback, done) => {
        this.cacheHoldsList();
        this.watches += 1;
        let ended = false;
        let opened = false;
        // One watch request; `resumeWatch` abandons it, after which nothing of it reaches ListWatch.
        const current: CurrentWatch = { abandoned: false, controller: null };
        this.current = current;
        const deliver = (phase: string, object: unknown, raw: unknown): void => {
          if (current.abandoned) return;
          if (!lineWatch) this.answered('event');
          if (phase === 'BOOKMARK' || phase === 'ERROR') return void callback(phase, object, raw);
          const cached = this.arrived(object as KubernetesObject);
          callback(phase, cached ?? object, raw);
          // ListWatch has reported it: its cache keeps the key only.
          if (cached instanceof ObjectKey) cached.handedOver();
        };
        const end = (err: unknown): void => {
          if (current.abandoned) return;
          ended = true;
          this.streamWasOpen = opened;
          done(err);
        };
        const watchQuery = { ...query, allowWatchBookmarks: true };
        // LineWatch parses a line later, in the ingest queue; the cluster answered when the line arrived, which is when
        // it counts (an event taken as an answer after a failure reported meanwhile would undo that failure).
        const request = lineWatch
          ? lineWatch.watch(path, watchQuery, deliver, end, () => {
              if (!current.abandoned) this.answered('event');
            })
          : (options.watch as WatchLike).watch(path, watchQuery, deliver, end);
        // client-node's Watch resolves once the response is in: ended already means it failed.
        return request.then((controller) => {
          current.controller = controller;
          if (current.abandoned) {
            // A request abandoned while it waited for its response: ended now, and ListWatch, which has a newer
            // request, must not take this one for its current (it would stop that one instead on `stop`).
            controller.abort();
            return new Promise<AbortController>(() => undefined);
          }
          if (!ended) {
            opened = true;
            this.answered('request');
          }
          return controller;
        });
      },
    };
    this.stream = resource.uncached ? new StreamWatch(this.path, signalling, (page) => this.listPages(page), resource.fieldSelector) : null;
    const lw: Lister =
      this.stream ??
      new ListWatch<KubernetesObject>(this.path, signalling as Watch, () => this.list(), false, undefined, resource.fieldSelector);
    // ListWatch calls `add` exactly when a key enters its cache and `delete` when one leaves it (a watch's DELETED, a
    // relist without it): counted first, so a handler that throws cannot skew the count.
    lw.on('add', (o) => {
      this.cached += 1;
      if (!this.announcedByPage(o)) this.handlers.onAdd(reported(o));
    });
    lw.on('update', (o) => {
      if (!this.announcedByPage(o)) this.handlers.onUpdate(reported(o));
    });
    lw.on('delete', (o) => {
      this.cached -= 1;
      this.handlers.onDelete(reported(o));
    });
    lw.on('error', (err) => this.failed(err));
    this.listWatch = lw;
  }

  get path(): string {
    return resourcePath(this.resource, this.version);
  }

  start(): void {
    this.running = true;
    this.startedAt += 1;
    this.run();
  }

  stop(): void {
    this.running = false;
    this.startedAt += 1;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // What the stream delivered and a deferring watch (`LineWatch`) still holds is dropped, not applied after the stop
    // (a cluster handed to another replica must not have an older version of an object land after the new owner's).
    if (this.current) this.current.abandoned = true;
    void this.listWatch.stop();
  }

  /**
   * Ends the current watch request and watches again at once from the cache's resourceVersion (the server replays
   * what happened since; no list). For a watch a network partition broke: its connection may never deliver nor fail,
   * and would otherwise wait out its idle limit. Nothing of the abandoned request reaches ListWatch afterwards.
   */
  resumeWatch(): void {
    if (!this.running || !this.hasListed || this.retryTimer !== null) return;
    const current = this.current;
    if (current) {
      current.abandoned = true;
      current.controller?.abort();
    }
    this.resumes += 1;
    void this.listWatch.stop();
    this.run();
  }

  /**
   * The informer's cache: every object of the last list plus the watch's changes since. For a `keysOnly` resource, each
   * object's key (metadata with namespace, name and resourceVersion only); for an `uncached` one, nothing.
   */
  objects(): KubeObject[] {
    return this.listWatch.list() as unknown as KubeObject[];
  }

  /**
   * How many objects the cache holds, without `objects()`'s copy of them all (ListWatch has no size of its own): the
   * metrics read it at every scrape, where copying 100,000 keys held the event loop for milliseconds. For an `uncached`
   * resource, how many the cluster holds as far as the list and the watch since have told (`StreamWatch.size`).
   */
  get size(): number {
    return this.stream ? this.stream.size : this.cached;
  }

  private run(): void {
    if (!this.running) return;
    this.listWatch.start().catch((err: unknown) => this.failed(err));
  }

  /**
   * An object as it arrives, with what Autoscope never reads dropped, handed to `options.arrived`; returned is what
   * ListWatch is to cache of it: the object, or for a `keysOnly` resource its key (carrying the object until ListWatch
   * has reported it). Null for what is not an object.
   */
  private arrived(object: KubernetesObject | null | undefined): KubeObject | ObjectKey | null {
    if (!object || typeof object !== 'object' || !object.metadata) return null;
    const slim = slimObject(object);
    // The whole object, before its key is made: the key then holds the strings the hook shared.
    this.options.arrived?.(slim);
    return this.resource.keysOnly ? new ObjectKey(slim) : slim;
  }

  /** The API answered: a watch that resumed clears a watch failure, and the next failure restarts at once. */
  private answered(kind: 'request' | 'event'): void {
    if (kind === 'event') this.events += 1;
    this.attempt = 0;
    // A watch that resumed over a cache holding a complete list (after a cut, a 5xx, even a 403 that was
    // lifted) is current again; a failed list is cured only by a list.
    if (this.lastError && !this.lastError.duringList && this.hasListed) {
      this.lastError = null;
      this.synced = true;
    }
    this.handlers.onAnswered?.(kind);
  }

  /**
   * Whether a list's objects are handed over page by page (`onListed`) and only there: a `keysOnly` resource whose
   * handlers take pages. Its keys then carry nothing once their page is handed over, and ListWatch's announcement of
   * them as it applies the list (an add, or an update over a key a relist replaces) is not passed on — the page
   * already was. Carried until ListWatch applied the list, each object lived as long as its cluster's whole list took
   * to fetch and apply: at 100,000 HPAs, most of the cold start's parsed objects outlived the young generation's
   * collections and died in the old space, which the major collections then marked and swept, and the runtime's queue
   * applied each object twice (docs/performance.md, 2026-11-29, sixth session).
   */
  private get byPage(): boolean {
    return this.resource.keysOnly === true && this.handlers.onListed !== undefined;
  }

  /** A key of a list handed over page by page, as ListWatch announces it while applying the list (`byPage`). */
  private announcedByPage(o: KubernetesObject): boolean {
    return this.byPage && o instanceof ObjectKey && !carried.has(o);
  }

  private cacheHoldsList(): void {
    for (const key of this.listedKeys) key.handedOver();
    this.listedKeys = [];
    if (!this.listPending) return;
    this.listPending = false;
    this.handlers.onSynced(this.objects());
  }

  /** ListWatch's list: every page's items (or their keys) in one array, as it caches them. */
  private async list(): Promise<{ apiVersion: string; kind: string; items: KubernetesObject[]; metadata: { resourceVersion?: string } }> {
    const items: KubernetesObject[] = [];
    const keys: ObjectKey[] = [];
    const byPage = this.byPage;
    const resourceVersion = await this.listPages((page) => {
      for (const cached of page) {
        items.push(cached);
        // A key carries its object until ListWatch has applied the list (`cacheHoldsList`), unless the page handed it
        // over (`onListed`).
        if (cached instanceof ObjectKey) {
          if (byPage) cached.handedOver();
          else keys.push(cached);
        }
      }
    });
    this.listedKeys = keys;
    return { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion } };
  }

  /**
   * Lists in pages of 500, each page's objects handed to `page` as the informer caches them (`arrived`: slimmed, or
   * their keys) once `onListed` has had the page; resolves to the list's resourceVersion. Objects stay raw JSON, like
   * the watch's. A page is parsed and handed over where `defer` says (`handOver`), and the next one asked for after.
   */
  private async listPages(page: (objects: KubernetesObject[]) => void): Promise<string> {
    let resourceVersion: string | undefined;
    let token: string | undefined;
    // A stop, or a newer start, while the list is under way: its pages are no longer handed over (`handOver`).
    const startedAt = this.startedAt;
    try {
      do {
        const text = await this.client.getText(this.path, {
          query: { limit: 500, continue: token, fieldSelector: this.resource.fieldSelector },
          timeoutMs: 60_000,
        });
        this.answered('request');
        const metadata = await this.handOver(text, page, startedAt);
        resourceVersion ??= metadata?.resourceVersion;
        token = metadata?.continue || undefined;
      } while (token);
    } catch (err) {
      throw Object.assign(err instanceof Error ? err : new Error(String(err)), { duringList: true });
    }
    this.synced = true;
    this.lists += 1;
    this.hasListed = true;
    this.attempt = 0;
    this.lastError = null;
    this.lastSyncAt = new Date().toISOString();
    this.listPending = true;
    return resourceVersion ?? '';
  }

  /**
   * A list page's text parsed and its objects handed over (`onListed`, then `page`), in the ingest queue when there is
   * one (`defer`), with what that pushes applied next (`childrenFirst`): the page's parsed objects live from their
   * parsing to their mapping, a slice or a few. Parsed as they arrived and queued for mapping, a cold start's pages
   * waited behind up to fifty thousand objects of other pages (the index maps ~10,000 a second), long enough to be
   * promoted to V8's old space: 630 MB promoted in a 100,000-HPA sync, for ~200 MB that stays. Resolves to the page's
   * metadata (its continue token); a body that is not JSON rejects, and so does a page of a list that a stop or a newer
   * start overtook (`startedAt`: as the list began), which hands nothing over.
   */
  private handOver(text: string, page: (objects: KubernetesObject[]) => void, startedAt: number): Promise<ListMetadata | undefined> {
    const handOver = (): ListMetadata | undefined => {
      // Stopped (or started again) while the page waited: dropped, as a deferring watch's lines are (`stop`).
      if (startedAt !== this.startedAt) throw new ListOvertaken();
      const answer = JSON.parse(text) as { items?: KubernetesObject[]; metadata?: ListMetadata };
      const objects: KubernetesObject[] = [];
      for (const item of answer.items ?? []) objects.push((this.arrived(item) ?? item) as KubernetesObject);
      if (answer.items?.length) this.handlers.onListed?.(answer.items as unknown as KubeObject[]);
      page(objects);
      return answer.metadata;
    };
    const defer = this.options.defer;
    if (!defer) return Promise.resolve().then(handOver);
    return new Promise((resolve, reject) =>
      defer(() => {
        try {
          resolve(handOver());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }, true),
    );
  }

  /**
   * A failed list means the cluster (or this resource) cannot be read: the state says so. A broken
   * watch after a good list is routine (load balancers cut long streams): the informer resumes the
   * watch, serving its cache meanwhile, and reports the failure with `duringList: false`.
   */
  private failed(err: unknown): void {
    // A list a stop overtook is not a failure of the cluster; a newer start lists on its own.
    if (!this.running || err instanceof ListOvertaken) return;
    const statusCode =
      err instanceof KubeApiError
        ? err.statusCode
        : typeof (err as { statusCode?: unknown } | null)?.statusCode === 'number'
          ? (err as { statusCode: number }).statusCode
          : 0;
    const message =
      err instanceof KubeApiError
        ? err.message
        : err instanceof Error
          ? statusCode
            ? `${statusCode} ${err.message}`
            : `watch failed: ${err.message}`
          : String(err);
    const duringList = (err as { duringList?: unknown } | null)?.duringList === true;
    this.listPending = false;
    if (duringList || statusCode === 403 || statusCode === 401) this.synced = false;
    const refused = err !== null && typeof err === 'object' && isRefusal(err, statusCode, message);
    const cut = !duringList && statusCode === 0 && !refused && this.streamWasOpen;
    this.streamWasOpen = false;
    this.lastError = { statusCode, message, duringList, refused, cut };
    void this.listWatch.stop();
    this.attempt += 1;
    this.restarts += 1;
    this.handlers.onError(this.lastError);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // Never restart from inside ListWatch's error callback: it has not finished unwinding.
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        this.run();
      },
      (this.options.delay ?? restartDelay)(this.attempt),
    );
  }
}
