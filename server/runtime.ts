import 'server-only';
import type { Autoscaler, AutoscalerKind, ClusterStatus, ClusterSummary, Health } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterConnection } from './clusters/connections';
import { loadConnections, memberConnection } from './clusters/connections';
import type { AutoscopeConfig } from './config';
import { readConfig } from './config';
import { ChangeBus } from './fleet/change-bus';
import { FleetIndex } from './fleet/fleet-index';
import { HistoryStore } from './history/history-store';
import type { AutoscopeStore } from './history/store';
import { log } from './log';
import { observeHistoryWrite } from './metrics/registry';
import { SharedHistory } from './store/postgres/shared-history';
import type { ClusterWatcherListener } from './watch/cluster-watcher';
import { ClusterWatcher } from './watch/cluster-watcher';
import { defaultThresholds } from './watch/reachability';

/**
 * The backend's one running instance: a watcher per cluster, the fleet index, history and the change
 * bus. Kept on `globalThis` so `next dev` hot reloads do not start a second set of watches.
 */
export class Autoscope {
  readonly watchers = new Map<string, ClusterWatcher>();
  readonly history: AutoscopeStore;
  readonly index: FleetIndex;
  readonly bus = new ChangeBus();
  readonly startedAt = new Date().toISOString();
  readonly configuredFrom: string;
  /** Closers of the open SSE streams: `stop()` ends them, and the metrics count them. */
  readonly streams = new Set<() => void>();
  /** With AUTOSCOPE_DATABASE_URL: the PostgreSQL store and the cluster leases this process watches under. */
  readonly shared: SharedHistory | null = null;
  private stopped = false;
  private closed: Promise<void> = Promise.resolve();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly config: AutoscopeConfig,
    connections: { description: string; connections: ClusterConnection[] },
  ) {
    this.configuredFrom = connections.description;
    if (config.databaseUrl) {
      const byName = new Map(connections.connections.map((c) => [c.name, c]));
      this.shared = new SharedHistory({
        databaseUrl: config.databaseUrl,
        ...(config.replicaName ? { replicaName: config.replicaName } : {}),
        clusters: [...byName.keys()],
        retentionDays: config.retentionDays,
        ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}),
        ...(config.renewMs ? { renewMs: config.renewMs } : {}),
        leaseOf: (cluster) => this.watchers.get(cluster)?.connection.parent ?? cluster,
        acquired: (cluster) => {
          const connection = byName.get(cluster);
          if (connection && !this.stopped) this.addCluster(connection);
        },
        released: (cluster) => this.removeCluster(cluster),
        onWrite: observeHistoryWrite,
      });
      this.history = this.shared.store;
    } else {
      this.history = new HistoryStore({ dataDir: config.dataDir, retentionDays: config.retentionDays, onWrite: observeHistoryWrite });
    }
    this.index = new FleetIndex(
      this.history,
      (cluster) => this.watchers.get(cluster),
      (ids) => this.bus.changed(ids),
    );
    // On SQLite every cluster is watched at once; on PostgreSQL each one once its lease is taken.
    if (this.shared) void this.shared.start();
    else for (const c of connections.connections) this.addCluster(c);
    this.timers.push(setInterval(() => this.index.refreshAll(), 60_000));
    // Retention: at start (a restart after a long pause drops what aged out meanwhile), then hourly.
    const prune = (): void => {
      this.history.prune(new Date()).catch((error: unknown) => log.error('history retention failed', { error: String(error) }));
    };
    prune();
    this.timers.push(setInterval(prune, 3600_000));
    for (const t of this.timers) t.unref();
    log.info('watching clusters', {
      clusters: connections.connections.length,
      from: connections.description,
      store: this.shared ? 'postgresql' : 'sqlite',
      ...(this.shared ? { replica: this.shared.replicaId } : { dataDir: config.dataDir }),
    });
  }

  private readonly listener: ClusterWatcherListener = {
    onObject: (cluster, resource, change, object) => {
      this.index.apply(cluster, resource, change, object);
      if (resource === 'karmadaClusters') this.syncMembers(cluster);
    },
    onResourceSynced: (cluster, resource, objects) => {
      this.index.resync(cluster, resource, objects);
      if (resource === 'karmadaClusters') this.syncMembers(cluster);
    },
    onState: (status) => {
      this.logState(status);
      // Only an unreachable cluster's items are stale; a degraded one answers and its data is current.
      this.index.setStale(status.name, status.state === 'unreachable');
      // An outage is recorded from when the cluster last answered (`since`), not from when it was noticed.
      const at = status.state === 'unreachable' && status.since ? status.since : new Date().toISOString();
      this.history.recordClusterState(status.name, status.state, at, status.error);
      this.bus.cluster(status);
    },
  };

  private readonly loggedStates = new Map<string, string>();

  /** One line per change of a cluster's state or error (watchers also report unchanged states on every sync). */
  private logState(status: ClusterStatus): void {
    const key = `${status.state}\u0000${status.error ?? ''}`;
    if (this.loggedStates.get(status.name) === key) return;
    this.loggedStates.set(status.name, key);
    const fields = { cluster: status.name, state: status.state, error: status.error ?? undefined };
    if (status.state === 'synced' && !status.error) log.info('cluster state', fields);
    else log.warn('cluster state', fields);
  }

  private addCluster(connection: ClusterConnection): void {
    if (this.watchers.has(connection.name)) return;
    const watcher = new ClusterWatcher(connection, this.listener, {
      thresholds: { ...defaultThresholds, unreachableAfterMs: this.config.unreachableAfterMs ?? defaultThresholds.unreachableAfterMs },
    });
    this.watchers.set(connection.name, watcher);
    watcher.start();
  }

  /** Stops watching a cluster and its Karmada members, and drops them from the index (another replica owns them now). */
  private removeCluster(cluster: string): void {
    for (const [name, watcher] of [...this.watchers]) {
      if (name !== cluster && watcher.connection.parent !== cluster) continue;
      watcher.stop();
      this.watchers.delete(name);
      this.index.dropCluster(name);
    }
  }

  /** A Karmada control plane's Cluster objects become member clusters `<control-plane>/<member>`. */
  private syncMembers(controlPlane: string): void {
    const parent = this.watchers.get(controlPlane);
    if (!parent) return;
    const members = new Set(parent.objects('karmadaClusters').map((c: KubeObject) => c.metadata.name));
    for (const name of members) this.addCluster(memberConnection(parent.connection, name));
    for (const [name, watcher] of this.watchers) {
      if (watcher.connection.parent === controlPlane && !members.has(name.slice(controlPlane.length + 1))) {
        watcher.stop();
        this.watchers.delete(name);
        this.index.dropCluster(name);
      }
    }
  }

  clusterStatuses(): ClusterStatus[] {
    return [...this.watchers.values()].map((w) => w.status()).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every cluster with its counts; `visible` narrows both the clusters and the autoscalers counted (a viewer's scope). */
  clusterSummaries(visible?: { cluster: (name: string) => boolean; autoscaler: (dto: Autoscaler) => boolean }): ClusterSummary[] {
    const counts = new Map<string, { total: number; byKind: Record<AutoscalerKind, number>; byHealth: Record<Health, number> }>();
    for (const { dto } of this.index.entries.values()) {
      if (visible && !visible.autoscaler(dto)) continue;
      let c = counts.get(dto.cluster);
      if (!c) {
        c = {
          total: 0,
          byKind: { HorizontalPodAutoscaler: 0, MachineAutoscaler: 0, FederatedHPA: 0 },
          byHealth: { failing: 0, degraded: 0, ok: 0, unknown: 0 },
        };
        counts.set(dto.cluster, c);
      }
      c.total += 1;
      c.byKind[dto.kind] += 1;
      c.byHealth[dto.health] += 1;
    }
    return [...this.watchers.values()]
      .filter((w) => !visible || visible.cluster(w.name))
      .map((w) => ({
        ...w.status(),
        kind: w.kind,
        server: safeServer(w.connection.client.server),
        kubernetesVersion: w.kubernetesVersion,
        parent: w.connection.parent,
        capabilities: w.capabilities,
        forbiddenResources: w.forbiddenResources(),
        counts: counts.get(w.name) ?? {
          total: 0,
          byKind: { HorizontalPodAutoscaler: 0, MachineAutoscaler: 0, FederatedHPA: 0 },
          byHealth: { failing: 0, degraded: 0, ok: 0, unknown: 0 },
        },
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Ready when every cluster has synced once or failed (unreachable, forbidden). */
  isReady(): boolean {
    if (this.shared && !this.shared.ready) return false;
    return [...this.watchers.values()].every(
      (w) => w.status().lastSyncAt !== null || w.status().state === 'unreachable' || w.status().state === 'forbidden',
    );
  }

  /** Ends every SSE stream, stops the watches, then writes what history has queued and closes it. Idempotent. */
  stop(): Promise<void> {
    if (this.stopped) return this.closed;
    this.stopped = true;
    for (const close of [...this.streams]) close();
    for (const t of this.timers) clearInterval(t);
    for (const w of this.watchers.values()) w.stop();
    this.closed = this.shared ? this.shared.stop() : this.history.close();
    return this.closed;
  }
}

/** The API server's address without any userinfo or query (a URL may carry credentials). */
function safeServer(server: string): string | null {
  try {
    const u = new URL(server);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return null;
  }
}

const globalKey = Symbol.for('autoscope.runtime');
type Holder = { [globalKey]?: Autoscope };

/** Makes `app` the running backend (integration tests build one against the simulator). */
export function installAutoscope(app: Autoscope | undefined): void {
  (globalThis as Holder)[globalKey] = app;
}

/** The running backend if it has started (the metrics read it without starting it). */
export function currentAutoscope(): Autoscope | undefined {
  return (globalThis as Holder)[globalKey];
}

/** The running backend, started on first use. */
export function getAutoscope(): Autoscope {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new Autoscope(readConfig(), loadConnections());
  return holder[globalKey];
}
