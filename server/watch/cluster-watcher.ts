import 'server-only';
import type { ClusterKind, ClusterState, ClusterStatus } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterConnection } from '../clusters/connections';
import { KubeApiError } from '../clusters/kube-client';
import { redact } from '../log';
import type { InformerError, InformerOptions } from './informer';
import { isRefusal, ResourceInformer, restartDelay } from './informer';
import type { ReachabilityThresholds } from './reachability';
import { defaultThresholds, Reachability } from './reachability';
import type { ResourceKey } from './resources';
import { watchedResources } from './resources';

/**
 * `listed`: an object of a list page as it arrives, before the whole list is in (`InformerHandlers.onListed`); only for
 * resources read page by page (`WatchedResource.pageByPage`).
 */
export type ObjectChange = 'add' | 'update' | 'delete' | 'listed';

export interface ClusterWatcherListener {
  onObject(cluster: string, resource: ResourceKey, change: ObjectChange, object: KubeObject): void;
  /** A resource finished a full list: `objects` is the complete set (objects missing from it are gone). */
  onResourceSynced(cluster: string, resource: ResourceKey, objects: KubeObject[]): void;
  onState(status: ClusterStatus): void;
}

export interface ClusterWatcherOptions {
  informer?: InformerOptions;
  thresholds?: ReachabilityThresholds;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  clock?: () => number;
  /** How often time-based states (unreachable after silence, degraded ageing out) are re-evaluated. */
  tickMs?: number;
  /** The liveness probe of a quiet cluster (`probeIfQuiet`); defaults to `defaultProbe`. */
  probe?: ProbeOptions;
}

export interface ProbeOptions {
  /** Probe once nothing (no event, bookmark, list page or probe answer) came from the cluster for this long. */
  quietMs: number;
  /** A probe unanswered for this long failed: silence. */
  timeoutMs: number;
}

/**
 * Ten seconds of quiet, then `/version` with ten seconds to answer: a cluster cut off without a reset (a partition, a
 * dropped route, a black-holed load balancer) is unreachable 10 s after the probe failed (`unreachableAfterMs`), 30 s
 * after its last answer. A busy cluster is never probed: its watch events say it is there.
 */
export const defaultProbe: ProbeOptions = { quietMs: 10_000, timeoutMs: 10_000 };

interface Discovery {
  groups: Map<string, string[]>;
  kubernetesVersion: string | null;
}

/**
 * Watches one cluster: discovery (what it serves), one informer per served resource, and the
 * cluster's state with the last sync time and the last error in words. The state comes from every
 * request's outcome (`Reachability`), not from one failed call: `synced`, `degraded` (answers, with
 * errors), `unreachable` (nothing answered for a threshold, refused connections, or only failures for
 * longer), `forbidden`, and `syncing` before the first full sync.
 */
export class ClusterWatcher {
  readonly informers = new Map<ResourceKey, ResourceInformer>();
  kind: ClusterKind;
  capabilities: string[] = [];
  kubernetesVersion: string | null = null;
  private state: ClusterState = 'syncing';
  private readonly clock: () => number;
  private since: string;
  private lastSyncAt: string | null = null;
  private error: string | null = null;
  private discoveryAttempt = 0;
  private discoveryTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** When the liveness probe last went out, and whether it is still waiting. */
  private probedAt = Number.NEGATIVE_INFINITY;
  private probing = false;
  /** Liveness probes sent (the metrics and tests read it). */
  probes = 0;
  /** When each resource's informer last heard from the cluster (a list page, a watch that opened, an event). */
  private readonly heardAt = new Map<ResourceKey, number>();
  readonly reachability: Reachability;

  constructor(
    readonly connection: ClusterConnection,
    private readonly listener: ClusterWatcherListener,
    private readonly options: ClusterWatcherOptions = {},
  ) {
    this.kind = connection.parent ? 'karmada-member' : 'kubernetes';
    this.clock = options.clock ?? Date.now;
    this.since = this.iso(this.clock());
    this.reachability = new Reachability(options.thresholds ?? defaultThresholds);
  }

  get name(): string {
    return this.connection.name;
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  /** `lastAnsweredAt` as the status says it, made again only when it moves (every list response carries every status). */
  private answeredIso: { ms: number; iso: string } | null = null;

  /** Nothing synced yet: still in its first sync (what `requireSynced` asks of every cluster, per request). */
  awaitingFirstSync(): boolean {
    return this.lastSyncAt === null && this.state === 'syncing';
  }

  status(): ClusterStatus {
    const now = this.clock();
    const answered = this.reachability.lastAnsweredAt;
    if (answered !== null && this.answeredIso?.ms !== answered) this.answeredIso = { ms: answered, iso: this.iso(answered) };
    return {
      name: this.name,
      state: this.state,
      lastSyncAt: this.lastSyncAt,
      since: this.since,
      error: this.error,
      errorRate: Math.round(this.reachability.errorRate(now) * 1000) / 1000,
      lastAnsweredAt: answered === null ? null : (this.answeredIso?.iso ?? null),
    };
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

  listed(resource: ResourceKey): boolean {
    return this.informers.get(resource)?.listedOnce ?? false;
  }

  start(): void {
    this.stopped = false;
    void this.discover();
    this.tickTimer = setInterval(() => this.evaluate(), this.options.tickMs ?? 1_000);
    this.tickTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.discoveryTimer) clearTimeout(this.discoveryTimer);
    if (this.tickTimer) clearInterval(this.tickTimer);
    for (const informer of this.informers.values()) informer.stop();
    this.informers.clear();
  }

  /** Re-evaluates the state against the clock (the tick calls it; a state can change with time alone). */
  evaluate(): void {
    if (this.stopped) return;
    if (this.informers.size > 0) {
      this.probeIfQuiet();
      this.recompute();
    } else if (this.state === 'unreachable' || this.state === 'syncing') this.discoveryState();
  }

  /**
   * A watch only fails when something ends it: a cluster cut off without a reset (a partition, a black-holed route or
   * load balancer) sends nothing, refuses nothing, and its watches wait out their inactivity limit, then reconnect into
   * the same silence, which client-node's ListWatch takes as a routine timeout. Without a request that can fail, such a
   * cluster stayed `synced` with stale objects for as long as the partition lasted. So a cluster that has been quiet
   * for `quietMs` (no event, bookmark or answer) is asked for `/version` on the kept connections: an answer of any
   * status says it is there, no answer within `timeoutMs` starts the silence rule. Read-only, one small request per
   * quiet cluster every `quietMs`; kube-apiserver lets every authenticated user read `/version`.
   */
  private probeIfQuiet(): void {
    const { quietMs, timeoutMs } = this.options.probe ?? defaultProbe;
    const now = this.clock();
    const last = Math.max(this.reachability.lastAnsweredAt ?? Number.NEGATIVE_INFINITY, this.probedAt);
    if (this.probing || now - last < quietMs) return;
    this.probing = true;
    this.probedAt = now;
    this.probes += 1;
    this.connection.client
      .get('/version', { timeoutMs })
      .then(
        () => this.probeAnswered(true),
        (err: unknown) => {
          const status = err instanceof KubeApiError ? err.statusCode : 0;
          const message = err instanceof Error ? err.message : String(err);
          const refused = this.proxyCannotReach(status) || isRefusal(err, status, message);
          if (status === 0 || refused) this.reachability.probeFailed(this.clock(), refused, `no answer to a liveness probe: ${message}`);
          else this.probeAnswered(false);
        },
      )
      .finally(() => {
        this.probing = false;
        if (!this.stopped) this.recompute();
      });
  }

  /**
   * The server answers again after a silence (a partition ended): a watch that has not heard from it since the silence
   * began may be on a connection the partition broke, which neither delivers nor fails and would wait out its idle limit
   * (90 s) with the cluster shown `synced`. Such watches are resumed now from their resourceVersion (no list).
   */
  private probeAnswered(ok: boolean): void {
    const silence = this.reachability.silentSinceAt;
    this.reachability.probeAnswered(this.clock(), ok);
    if (silence === null || this.stopped) return;
    for (const [key, informer] of this.informers) if ((this.heardAt.get(key) ?? Number.NEGATIVE_INFINITY) < silence) informer.resumeWatch();
  }

  private async discover(): Promise<void> {
    try {
      const discovery = await this.fetchDiscovery();
      if (this.stopped) return;
      this.reachability.answered(this.clock(), 'request');
      this.discoveryAttempt = 0;
      this.kubernetesVersion = discovery.kubernetesVersion;
      const has = (group: string): boolean => discovery.groups.has(group);
      this.capabilities = [
        ...(has('machine.openshift.io') || has('autoscaling.openshift.io') ? ['openshift-machine-api'] : []),
        ...(has('cluster.x-k8s.io') ? ['cluster-api'] : []),
        ...(has('cluster.karmada.io') ? ['karmada'] : []),
        ...(has('metrics.k8s.io') ? ['metrics'] : []),
      ];
      this.kind = this.connection.parent
        ? 'karmada-member'
        : has('cluster.karmada.io')
          ? 'karmada'
          : this.capabilities.includes('openshift-machine-api')
            ? 'openshift'
            : 'kubernetes';
      for (const resource of watchedResources) {
        const versions = discovery.groups.get(resource.requires.group);
        if (!versions || (resource.requires.version && !versions.includes(resource.requires.version))) continue;
        const served = resource.group ? (discovery.groups.get(resource.group) ?? []) : ['v1'];
        const version = resource.versions.find((v) => served.includes(v));
        if (!version) continue;
        const informer = new ResourceInformer(
          this.connection.client,
          resource,
          version,
          {
            onAdd: (o) => this.listener.onObject(this.name, resource.key, 'add', o),
            onUpdate: (o) => this.listener.onObject(this.name, resource.key, 'update', o),
            onDelete: (o) => this.listener.onObject(this.name, resource.key, 'delete', o),
            ...(resource.pageByPage
              ? {
                  onListed: (objects: KubeObject[]) => {
                    for (const o of objects) this.listener.onObject(this.name, resource.key, 'listed', o);
                  },
                }
              : {}),
            onSynced: (objects) => {
              this.listener.onResourceSynced(this.name, resource.key, objects);
              this.recompute();
            },
            onError: (e) => this.informerFailed(resource.label, e),
            onAnswered: (kind) => {
              this.heardAt.set(resource.key, this.clock());
              this.answered(kind);
            },
          },
          this.options.informer,
        );
        this.informers.set(resource.key, informer);
        informer.start();
      }
      if (this.informers.size === 0) this.setState('synced', null);
      else this.recompute();
    } catch (err) {
      if (this.stopped) return;
      const status = err instanceof KubeApiError ? err.statusCode : 0;
      const message = err instanceof Error ? err.message : String(err);
      this.reachability.failed(this.clock(), { answered: status !== 0, refused: isRefusal(err, status, message), message });
      if (status === 403) this.setState('forbidden', message);
      else this.discoveryState();
      this.discoveryAttempt += 1;
      this.discoveryTimer = setTimeout(() => void this.discover(), restartDelay(this.discoveryAttempt + 1));
    }
  }

  /** Before discovery succeeded: unreachable once the reachability rule says so, syncing until then. */
  private discoveryState(): void {
    const verdict = this.reachability.verdict(this.clock());
    if (verdict === 'unreachable') this.setState('unreachable', this.reachability.lastError ?? 'unreachable');
    else this.setState('syncing', this.reachability.lastError);
  }

  private async fetchDiscovery(): Promise<Discovery> {
    const client = this.connection.client;
    const version = await client.get<{ gitVersion?: string }>('/version', { timeoutMs: 10_000 });
    const apis = await client.get<{ groups?: { name: string; versions: { version: string }[] }[] }>('/apis', { timeoutMs: 10_000 });
    const groups = new Map<string, string[]>([['', ['v1']]]);
    for (const g of apis.groups ?? [])
      groups.set(
        g.name,
        g.versions.map((v) => v.version),
      );
    return { groups, kubernetesVersion: version.gitVersion ?? null };
  }

  private answered(kind: 'request' | 'event'): void {
    this.reachability.answered(this.clock(), kind);
    // Most answers are watch events of a healthy cluster: nothing to recompute then.
    if (this.state !== 'synced' || this.error !== null) this.recompute();
  }

  private informerFailed(label: string, e: InformerError): void {
    // A stream cut after it opened is routine (the informer resumes at once): not an error of the cluster,
    // and the cluster was connected until then (an outage that cuts the streams starts now).
    // A 401/403 is an answer about Autoscope's permissions, not about the cluster's health.
    if (e.cut) this.reachability.answered(this.clock(), 'cut');
    else if (e.statusCode === 401 || e.statusCode === 403) this.reachability.answered(this.clock(), 'event');
    else
      this.reachability.failed(this.clock(), {
        answered: e.statusCode !== 0,
        refused: e.refused || this.proxyCannotReach(e.statusCode),
        message: e.message,
      });
    if (e.statusCode === 403) this.error = `cannot list ${label}: ${e.message}`;
    this.recompute();
  }

  /**
   * A Karmada member is read through its control plane's aggregated proxy, which answers 502/503 when it
   * cannot reach the member (a watch error carries only the status, not the "error trying to reach
   * service" body): for a member that is a refused connection, not a flaky answer.
   */
  private proxyCannotReach(statusCode: number): boolean {
    return this.connection.parent !== null && (statusCode === 502 || statusCode === 503);
  }

  private recompute(): void {
    const informers = [...this.informers.values()];
    if (informers.length === 0) return;
    const now = this.clock();
    const verdict = this.reachability.verdict(now);
    const forbidden = informers.filter((i) => i.lastError?.statusCode === 403);
    const pending = informers.filter((i) => !i.synced && i.lastError?.statusCode !== 403);
    const denied = forbidden.map((i) => i.resource.label);
    const deniedMessage = denied.length ? `cannot list ${denied.join(', ')} (403 Forbidden)` : null;
    if (forbidden.length === informers.length) {
      this.setState('forbidden', forbidden[0]?.lastError?.message ?? 'forbidden');
    } else if (verdict === 'unreachable') {
      // The outage began when the cluster last served anything, not when Autoscope noticed it.
      const answered = this.reachability.lastServedAt;
      this.setState('unreachable', this.reachability.lastError ?? 'unreachable', answered === null ? undefined : this.iso(answered));
    } else if (pending.length > 0 && this.lastSyncAt === null) {
      this.setState('syncing', deniedMessage ?? this.reachability.lastError);
    } else if (verdict === 'degraded') {
      if (pending.length === 0) this.lastSyncAt = this.iso(now);
      this.setState('degraded', this.reachability.lastError ?? deniedMessage);
    } else {
      if (pending.length === 0) this.lastSyncAt = this.iso(now);
      this.setState('synced', deniedMessage);
    }
  }

  private setState(state: ClusterState, error: string | null, since?: string): void {
    const redacted = error === null ? null : redact(error);
    const changed = state !== this.state || redacted !== this.error;
    if (state !== this.state) this.since = since ?? this.iso(this.clock());
    this.state = state;
    this.error = redacted;
    if (changed) this.listener.onState(this.status());
  }
}
