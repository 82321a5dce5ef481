import { randomUUID } from 'node:crypto';
import type { KubeObject } from '@/lib/k8s/types';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  rv: number;
  resource: string;
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchSubscriber {
  resource: string;
  namespace?: string;
  onEvent: (event: StoredEvent) => void;
}

interface StoreOptions {
  /**
   * The most watch events kept per resource for resuming (default 102,400, the watch cache's upper bound); a
   * watch from an older resourceVersion gets 410 Gone. Tests set it low to provoke a 410.
   */
  retainedEvents?: number;
  /** How long events are kept at least, in wall-clock ms (default 75 s, the watch cache's fresh duration). */
  freshMs?: number;
  now?: () => Date;
}

/**
 * The past events of one resource that a watch can resume from, as kube-apiserver's watch cache keeps them:
 * one window per resource type (a busy resource such as Events does not push HPA events out), holding at
 * least the last 75 s (`DefaultEventFreshDuration`) and at least 100 events (`DefaultLowerBoundCapacity`),
 * never more than 102,400 (`DefaultUpperBoundCapacity`), after k8s.io/apiserver
 * pkg/storage/cacher/watch_cache.go and cacher.go (Kubernetes v1.34). The real cache resizes its ring in
 * powers of two to get there; this keeps exactly that bound, which is what a client can observe.
 */
interface EventWindow {
  events: StoredEvent[];
  recordedAt: number[];
  start: number;
  /** Events after this resourceVersion are all kept: a watch from it or later can resume. */
  resumableFrom: number;
}

const lowerBoundCapacity = 100;
const upperBoundCapacity = 100 * 1024;
const defaultFreshMs = 75_000;

/**
 * One cluster's object storage, as etcd + the watch cache are to kube-apiserver: one monotonic
 * resourceVersion for the whole cluster, objects keyed by resource and namespace/name, and a bounded
 * window of past events per resource to resume watches from. Stored objects are never mutated: a write
 * stores a new object, so a snapshot handed to a watcher stays valid.
 */
export class ObjectStore {
  private rv: number;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly windows = new Map<string, EventWindow>();
  private readonly retained: number;
  private readonly freshMs: number;
  private readonly subscribers = new Set<WatchSubscriber>();
  private readonly now: () => Date;

  constructor(options: StoreOptions = {}) {
    this.rv = 1000;
    this.retained = options.retainedEvents ?? upperBoundCapacity;
    this.freshMs = options.freshMs ?? defaultFreshMs;
    this.now = options.now ?? (() => new Date());
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  /** The oldest resourceVersion a watch of `resource` may resume from. */
  oldestResumable(resource: string): number {
    return this.windows.get(resource)?.resumableFrom ?? 0;
  }

  list(resource: string, namespace?: string): KubeObject[] {
    const bucket = this.objects.get(resource);
    if (!bucket) return [];
    // Sorted by the bucket's own keys (`objectKey`): made per comparison, the keys were two strings for each of the
    // ~22,000 comparisons of a 2,000-object list, and the API server lists a resource for every page it serves.
    const entries = [...bucket.entries()];
    const filtered = namespace === undefined ? entries : entries.filter(([, o]) => o.metadata.namespace === namespace);
    return filtered.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
  }

  count(resource: string): number {
    return this.objects.get(resource)?.size ?? 0;
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(resource)?.get(objectKey(namespace, name));
  }

  /** Creates an object, filling uid, creationTimestamp, generation and resourceVersion. */
  create(resource: string, object: KubeObject, manager = 'autoscope-sim'): KubeObject {
    const bucket = this.bucket(resource);
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    if (bucket.has(key)) throw new Error(`${resource} ${key} already exists`);
    const now = kubeTime(this.now());
    const rv = ++this.rv;
    const stored: KubeObject = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: object.metadata.uid ?? randomUUID(),
        creationTimestamp: object.metadata.creationTimestamp ?? now,
        generation: object.metadata.generation ?? 1,
        resourceVersion: String(rv),
        managedFields: object.metadata.managedFields ?? [managedFieldsEntry(manager, 'Update', object, now)],
      },
    };
    bucket.set(key, stored);
    this.record({ rv, resource, type: 'ADDED', object: stored });
    return stored;
  }

  /**
   * Replaces an object. `generation` moves when anything outside metadata and status changes, as
   * kube-apiserver does for resources with a status subresource. A stale resourceVersion is a conflict.
   */
  update(resource: string, object: KubeObject, options: { manager?: string; subresource?: 'status' | 'scale' } = {}): KubeObject {
    const bucket = this.bucket(resource);
    const key = objectKey(object.metadata.namespace, object.metadata.name);
    const current = bucket.get(key);
    if (!current) throw new Error(`${resource} ${key} not found`);
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw new ConflictError(resource, key);
    }
    const now = kubeTime(this.now());
    // A status write never moves generation; a scale write always does (it sets spec.replicas).
    const specChanged =
      options.subresource === 'status'
        ? false
        : options.subresource === 'scale'
          ? true
          : JSON.stringify(withoutMetaStatus(current)) !== JSON.stringify(withoutMetaStatus(object));
    const rv = ++this.rv;
    const manager = options.manager ?? 'autoscope-sim';
    const stored: KubeObject = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        generation: (current.metadata.generation ?? 1) + (specChanged ? 1 : 0),
        resourceVersion: String(rv),
        managedFields: mergeManagedFields(
          current.metadata.managedFields,
          managedFieldsEntry(manager, 'Update', object, now, options.subresource),
        ),
      },
    };
    bucket.set(key, stored);
    this.record({ rv, resource, type: 'MODIFIED', object: stored });
    return stored;
  }

  /** Applies a change function to the current object and stores the result when it differs. */
  mutate(
    resource: string,
    namespace: string | undefined,
    name: string,
    change: (current: KubeObject) => KubeObject,
    options: { manager?: string; subresource?: 'status' | 'scale' } = {},
  ): KubeObject | undefined {
    const current = this.get(resource, namespace, name);
    if (!current) return undefined;
    const next = change(current);
    if (next === current || JSON.stringify(next) === JSON.stringify(current)) return current;
    return this.update(resource, { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } }, options);
  }

  delete(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const bucket = this.objects.get(resource);
    const key = objectKey(namespace, name);
    const current = bucket?.get(key);
    if (!bucket || !current) return undefined;
    bucket.delete(key);
    const rv = ++this.rv;
    const tombstone: KubeObject = { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } };
    this.record({ rv, resource, type: 'DELETED', object: tombstone });
    return tombstone;
  }

  /** Events after `rv` for one resource, or null when `rv` is older than the retained window. */
  eventsSince(resource: string, rv: number): StoredEvent[] | null {
    if (rv < this.oldestResumable(resource)) return null;
    const window = this.windows.get(resource);
    if (!window) return [];
    const out: StoredEvent[] = [];
    for (let i = window.start; i < window.events.length; i++) {
      const e = window.events[i];
      if (e && e.rv > rv) out.push(e);
    }
    return out;
  }

  subscribe(subscriber: WatchSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  get watcherCount(): number {
    return this.subscribers.size;
  }

  private bucket(resource: string): Map<string, KubeObject> {
    let bucket = this.objects.get(resource);
    if (!bucket) {
      bucket = new Map();
      this.objects.set(resource, bucket);
    }
    return bucket;
  }

  private record(event: StoredEvent): void {
    let window = this.windows.get(event.resource);
    if (!window) {
      window = { events: [], recordedAt: [], start: 0, resumableFrom: 0 };
      this.windows.set(event.resource, window);
    }
    const now = this.now().getTime();
    window.events.push(event);
    window.recordedAt.push(now);
    const lowerBound = Math.min(lowerBoundCapacity, this.retained);
    for (;;) {
      const kept = window.events.length - window.start;
      const oldestAt = window.recordedAt[window.start] ?? now;
      const evict = kept > this.retained || (kept > lowerBound && now - oldestAt > this.freshMs);
      if (!evict) break;
      window.resumableFrom = window.events[window.start]?.rv ?? window.resumableFrom;
      window.start += 1;
    }
    // Compact now and then instead of shifting on every write.
    if (window.start > 1000 && window.start * 2 > window.events.length) {
      window.events.splice(0, window.start);
      window.recordedAt.splice(0, window.start);
      window.start = 0;
    }
    for (const s of this.subscribers) {
      if (s.resource !== event.resource) continue;
      if (s.namespace !== undefined && s.namespace !== event.object.metadata.namespace) continue;
      s.onEvent(event);
    }
  }
}

export class ConflictError extends Error {
  constructor(
    readonly resource: string,
    readonly key: string,
  ) {
    super(`conflict on ${resource} ${key}`);
  }
}

/** RFC 3339 with whole seconds, as metav1.Time serialises. */
export function kubeTime(date: Date): string {
  return kubeTimeAt(date.getTime());
}

/**
 * `kubeTime` of an epoch-ms instant. Formatted once a second of time, not once a call: the HPA controller's pass builds
 * every pod's JSON and metrics with their times (~1,700 HPA writes a second at 100,000 HPAs, each reading a dozen), and
 * `toISOString` was a tenth of the simulator's CPU. The cache is bounded; past it, it starts afresh.
 */
export function kubeTimeAt(ms: number): string {
  const second = Math.floor(ms / 1000);
  const had = formattedSeconds.get(second);
  if (had !== undefined) return had;
  const text = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
  if (formattedSeconds.size >= 65_536) formattedSeconds.clear();
  formattedSeconds.set(second, text);
  return text;
}

const formattedSeconds = new Map<number, string>();

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

function withoutMetaStatus(o: KubeObject): unknown {
  const { metadata: _m, status: _s, ...rest } = o as KubeObject & { status?: unknown };
  return rest;
}

/** A managedFields entry shaped like the API server's (fieldsV1 lists the top-level keys written). */
function managedFieldsEntry(
  manager: string,
  operation: 'Update' | 'Apply',
  object: KubeObject,
  time: string,
  subresource?: string,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const source = subresource === 'status' ? { status: (object as { status?: unknown }).status } : object;
  for (const [k, v] of Object.entries(source)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata' || v === undefined) continue;
    fields[`f:${k}`] =
      v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).map((kk) => [`f:${kk}`, {}])) : {};
  }
  return {
    manager,
    operation,
    apiVersion: object.apiVersion ?? 'v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
    ...(subresource ? { subresource } : {}),
  };
}

function mergeManagedFields(existing: unknown[] | undefined, entry: Record<string, unknown>): unknown[] {
  const others = (existing ?? []).filter((e) => {
    const m = e as { manager?: unknown; subresource?: unknown };
    return !(m.manager === entry.manager && m.subresource === entry.subresource);
  });
  return [...others, entry];
}
