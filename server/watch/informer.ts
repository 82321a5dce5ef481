import 'server-only';
import type { KubernetesObject } from '@kubernetes/client-node';
import { ListWatch, Watch } from '@kubernetes/client-node';
import type { KubeObject } from '@/lib/k8s/types';
import type { KubeClient } from '../clusters/kube-client';
import { KubeApiError } from '../clusters/kube-client';
import type { WatchedResource } from './resources';
import { resourcePath } from './resources';

export interface InformerHandlers {
  onAdd(object: KubeObject): void;
  onUpdate(object: KubeObject): void;
  onDelete(object: KubeObject): void;
  /** A full list completed: the cache is the cluster's truth as of now. */
  onSynced(): void;
  onError(error: InformerError): void;
}

export interface InformerError {
  /** HTTP status, or 0 for a network failure. */
  statusCode: number;
  message: string;
}

/**
 * Drops `managedFields` from the object the informer caches (the cache holds this very object): nothing
 * Autoscope shows needs them, and they are a third of an HPA's size.
 */
function slim(o: KubernetesObject): KubeObject {
  const object = o as unknown as KubeObject;
  delete object.metadata.managedFields;
  return object;
}

const baseDelayMs = 1_000;
const maxDelayMs = 30_000;

/** Capped exponential backoff with ±20% jitter, so fifty clusters that fail together do not retry together. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(capped * (0.8 + 0.4 * random()));
}

/**
 * One list+watch for one (cluster, resource), on client-node's `ListWatch`. That informer relists on 410
 * and re-watches after a clean close, but after any other error it emits `error` and stops for good:
 * restarting it, with backoff, is ours.
 */
export class ResourceInformer {
  private listWatch: ListWatch<KubernetesObject> | null = null;
  /** The last complete picture, served while a restarted informer relists (its new cache starts empty). */
  private snapshot: KubeObject[] = [];
  private listFailed = false;
  /** Whether the current ListWatch has completed its list (its cache is then the truth). */
  private listedSinceStart = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  synced = false;
  lastSyncAt: string | null = null;
  lastError: InformerError | null = null;
  /** Completed lists (the first, then every relist: a restart, or a 410 Gone) and restarts after an error; the metrics read them. */
  lists = 0;
  restarts = 0;

  constructor(
    private readonly client: KubeClient,
    readonly resource: WatchedResource,
    readonly version: string,
    private readonly handlers: InformerHandlers,
  ) {}

  get path(): string {
    return resourcePath(this.resource, this.version);
  }

  start(): void {
    this.stopped = false;
    const lw = new ListWatch<KubernetesObject>(this.path, new Watch(this.client.kubeConfig), () => this.list(), false, undefined, this.resource.fieldSelector);
    lw.on('add', (o) => this.handlers.onAdd(slim(o)));
    lw.on('update', (o) => this.handlers.onUpdate(slim(o)));
    lw.on('delete', (o) => this.handlers.onDelete(slim(o)));
    lw.on('error', (err) => this.failed(err));
    this.listWatch = lw;
    lw.start().catch((err: unknown) => this.failed(err));
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.listWatch?.stop();
    this.listWatch = null;
  }

  /** The informer's cache: every object of the last list plus the watch's changes. */
  objects(): KubeObject[] {
    const live = this.listWatch?.list() as unknown as KubeObject[] | undefined;
    return this.synced && live && this.listedSinceStart ? live : this.snapshot;
  }


  /** Lists in pages of 500; objects stay raw JSON, like the watch's. */
  private async list(): Promise<{ apiVersion: string; kind: string; items: KubernetesObject[]; metadata: { resourceVersion?: string } }> {
    const items: KubernetesObject[] = [];
    let resourceVersion: string | undefined;
    let token: string | undefined;
    try {
      do {
        const page = await this.client.get<{ items?: KubernetesObject[]; metadata?: { resourceVersion?: string; continue?: string } }>(this.path, {
          query: { limit: 500, continue: token, fieldSelector: this.resource.fieldSelector },
          timeoutMs: 60_000,
        });
        items.push(...(page.items ?? []));
        resourceVersion ??= page.metadata?.resourceVersion;
        token = page.metadata?.continue || undefined;
      } while (token);
    } catch (err) {
      this.listFailed = true;
      throw err;
    }
    this.synced = true;
    this.lists += 1;
    this.listedSinceStart = true;
    this.attempt = 0;
    this.lastError = null;
    this.lastSyncAt = new Date().toISOString();
    // Deliver the sync after ListWatch has applied the list to its cache.
    queueMicrotask(() => this.handlers.onSynced());
    return { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion } };
  }

  /**
   * A failed list means the cluster (or this resource) cannot be read: the state says so. A broken
   * watch after a good list is routine (load balancers cut long streams): the informer restarts and
   * relists, serving its last picture meanwhile, and only a failing relist changes the state.
   */
  private failed(err: unknown): void {
    if (this.stopped) return;
    const statusCode = err instanceof KubeApiError ? err.statusCode : typeof (err as { statusCode?: unknown } | null)?.statusCode === 'number' ? (err as { statusCode: number }).statusCode : 0;
    const message = err instanceof KubeApiError ? err.message : err instanceof Error ? (statusCode ? `${statusCode} ${err.message}` : `watch failed: ${err.message}`) : String(err);
    const duringList = this.listFailed;
    this.listFailed = false;
    if (this.listedSinceStart) this.snapshot = (this.listWatch?.list() ?? []) as unknown as KubeObject[];
    this.listedSinceStart = false;
    if (duringList || !this.synced || statusCode === 403 || statusCode === 401) {
      this.synced = false;
      this.lastError = { statusCode, message };
      this.handlers.onError(this.lastError);
    }
    void this.listWatch?.stop();
    this.listWatch = null;
    this.attempt += 1;
    this.restarts += 1;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.start();
    }, backoffDelay(this.attempt));
  }
}
