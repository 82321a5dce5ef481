import 'server-only';
import type { ClusterKind, ClusterState, ClusterStatus } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterConnection } from '../clusters/connections';
import { KubeApiError } from '../clusters/kube-client';
import { redact } from '../log';
import type { InformerError } from './informer';
import { backoffDelay, ResourceInformer } from './informer';
import type { ResourceKey } from './resources';
import { watchedResources } from './resources';

export type ObjectChange = 'add' | 'update' | 'delete';

export interface ClusterWatcherListener {
  onObject(cluster: string, resource: ResourceKey, change: ObjectChange, object: KubeObject): void;
  /** A resource finished a full list: `objects` is the complete set (objects missing from it are gone). */
  onResourceSynced(cluster: string, resource: ResourceKey, objects: KubeObject[]): void;
  onState(status: ClusterStatus): void;
}

interface Discovery {
  groups: Map<string, string[]>;
  kubernetesVersion: string | null;
}

/**
 * Watches one cluster: discovery (what it serves), one informer per served resource, and the
 * cluster's state — `syncing → synced`, `unreachable`, `forbidden` — with the last sync time and the
 * last error in words.
 */
export class ClusterWatcher {
  readonly informers = new Map<ResourceKey, ResourceInformer>();
  kind: ClusterKind;
  capabilities: string[] = [];
  kubernetesVersion: string | null = null;
  private state: ClusterState = 'syncing';
  private since: string = new Date().toISOString();
  private lastSyncAt: string | null = null;
  private error: string | null = null;
  private discoveryAttempt = 0;
  private discoveryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly connection: ClusterConnection,
    private readonly listener: ClusterWatcherListener,
  ) {
    this.kind = connection.parent ? 'karmada-member' : 'kubernetes';
  }

  get name(): string {
    return this.connection.name;
  }

  status(): ClusterStatus {
    return { name: this.name, state: this.state, lastSyncAt: this.lastSyncAt, since: this.since, error: this.error };
  }

  forbiddenResources(): string[] {
    return [...this.informers.values()].filter((i) => i.lastError?.statusCode === 403).map((i) => i.resource.label);
  }

  objects(resource: ResourceKey): KubeObject[] {
    return this.informers.get(resource)?.objects() ?? [];
  }

  serves(resource: ResourceKey): boolean {
    return this.informers.has(resource);
  }

  start(): void {
    void this.discover();
  }

  stop(): void {
    this.stopped = true;
    if (this.discoveryTimer) clearTimeout(this.discoveryTimer);
    for (const informer of this.informers.values()) informer.stop();
    this.informers.clear();
  }

  private async discover(): Promise<void> {
    try {
      const discovery = await this.fetchDiscovery();
      if (this.stopped) return;
      this.discoveryAttempt = 0;
      this.kubernetesVersion = discovery.kubernetesVersion;
      const has = (group: string): boolean => discovery.groups.has(group);
      this.capabilities = [
        ...(has('machine.openshift.io') || has('autoscaling.openshift.io') ? ['openshift-machine-api'] : []),
        ...(has('cluster.x-k8s.io') ? ['cluster-api'] : []),
        ...(has('cluster.karmada.io') ? ['karmada'] : []),
        ...(has('metrics.k8s.io') ? ['metrics'] : []),
      ];
      this.kind = this.connection.parent ? 'karmada-member' : has('cluster.karmada.io') ? 'karmada' : this.capabilities.includes('openshift-machine-api') ? 'openshift' : 'kubernetes';
      for (const resource of watchedResources) {
        const versions = discovery.groups.get(resource.requires.group);
        if (!versions || (resource.requires.version && !versions.includes(resource.requires.version))) continue;
        const served = resource.group ? (discovery.groups.get(resource.group) ?? []) : ['v1'];
        const version = resource.versions.find((v) => served.includes(v));
        if (!version) continue;
        const informer = new ResourceInformer(this.connection.client, resource, version, {
          onAdd: (o) => this.listener.onObject(this.name, resource.key, 'add', o),
          onUpdate: (o) => this.listener.onObject(this.name, resource.key, 'update', o),
          onDelete: (o) => this.listener.onObject(this.name, resource.key, 'delete', o),
          onSynced: () => {
            this.listener.onResourceSynced(this.name, resource.key, informer.objects());
            this.recompute();
          },
          onError: (e) => this.informerFailed(resource.label, e),
        });
        this.informers.set(resource.key, informer);
        informer.start();
      }
      if (this.informers.size === 0) this.setState('synced', null);
      else this.recompute();
    } catch (err) {
      if (this.stopped) return;
      const status = err instanceof KubeApiError ? err.statusCode : 0;
      this.setState(status === 403 ? 'forbidden' : 'unreachable', err instanceof Error ? err.message : String(err));
      this.discoveryAttempt += 1;
      this.discoveryTimer = setTimeout(() => void this.discover(), backoffDelay(this.discoveryAttempt));
    }
  }

  private async fetchDiscovery(): Promise<Discovery> {
    const client = this.connection.client;
    const version = await client.get<{ gitVersion?: string }>('/version', { timeoutMs: 10_000 });
    const apis = await client.get<{ groups?: { name: string; versions: { version: string }[] }[] }>('/apis', { timeoutMs: 10_000 });
    const groups = new Map<string, string[]>([['', ['v1']]]);
    for (const g of apis.groups ?? []) groups.set(g.name, g.versions.map((v) => v.version));
    return { groups, kubernetesVersion: version.gitVersion ?? null };
  }

  private informerFailed(label: string, e: InformerError): void {
    if (e.statusCode === 403) {
      this.error = `cannot list ${label}: ${e.message}`;
    }
    this.recompute(e);
  }

  private recompute(latest?: InformerError): void {
    const informers = [...this.informers.values()];
    if (informers.length === 0) return;
    const forbidden = informers.filter((i) => i.lastError?.statusCode === 403);
    const unreachable = informers.filter((i) => !i.synced && i.lastError && i.lastError.statusCode !== 403 && i.lastError.statusCode !== 404);
    const pending = informers.filter((i) => !i.synced && i.lastError?.statusCode !== 403);
    if (forbidden.length === informers.length) {
      this.setState('forbidden', forbidden[0]?.lastError?.message ?? 'forbidden');
    } else if (unreachable.length > 0) {
      this.setState('unreachable', unreachable[0]?.lastError?.message ?? latest?.message ?? 'unreachable');
    } else if (pending.length > 0) {
      this.setState(this.state === 'synced' ? 'synced' : 'syncing', this.error);
    } else {
      this.lastSyncAt = new Date().toISOString();
      const denied = forbidden.map((i) => i.resource.label);
      this.setState('synced', denied.length ? `cannot list ${denied.join(', ')} (403 Forbidden)` : null, true);
    }
  }

  private setState(state: ClusterState, error: string | null, forceNotify = false): void {
    const changed = state !== this.state || error !== this.error;
    if (state !== this.state) this.since = new Date().toISOString();
    this.state = state;
    this.error = error === null ? null : redact(error);
    if (changed || forceNotify) this.listener.onState(this.status());
  }
}
