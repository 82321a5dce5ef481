import 'server-only';
import type { z } from 'zod';
import type { Autoscaler, AutoscalerKind, ClusterStatus, ClusterSummary, Health } from '@/lib/api';
import { AutoscalerSchema, ClusterStatusSchema, ClusterSummarySchema } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterConnection } from './clusters/connections';
import { loadConnections, memberConnection } from './clusters/connections';
import type { AutoscopeConfig } from './config';
import { readConfig } from './config';
import { ChangeBus } from './fleet/change-bus';
import { FleetIndex } from './fleet/fleet-index';
import type { RemoteEntry } from './fleet/fleet-index';
import { fleetViews } from './fleet/fleet-views';
import { HistoryStore } from './history/history-store';
import type { AutoscopeStore } from './history/store';
import { errorText, log } from './log';
import { observeCompactionWindow, observeHistoryWrite, observeWalCheckpoint } from './metrics/registry';
import type { Change } from './store/postgres/change-stream';
import { SharedHistory } from './store/postgres/shared-history';
import { startCompactionWindows } from './v8-favor';
import type { ClusterWatcherListener } from './watch/cluster-watcher';
import { ClusterWatcher } from './watch/cluster-watcher';
import { FirstLists, IngestQueue } from './watch/ingest-queue';
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
  /** The configured clusters by name (Karmada members are added as their control plane lists them). */
  private readonly connections = new Map<string, ClusterConnection>();
  /** Connections made for live reads of Karmada members another replica watches. */
  private readonly memberConnections = new Map<string, ClusterConnection>();
  /** On PostgreSQL: each cluster another replica watches, as its owner published it. */
  private readonly remoteStatuses = new Map<string, RemoteCluster>();
  /** When each owned cluster's status was last published, and what it said (published on a change, else every 15 s). */
  private readonly publishedStatus = new Map<string, { key: string; at: number }>();
  private stopped = false;
  private closed: Promise<void> = Promise.resolve();
  private readonly timers: NodeJS.Timeout[] = [];
  /** What the watchers report, applied in order in slices between requests (`IngestQueue`). */
  private readonly ingest = new IngestQueue((error) => log.error('applying a watch event failed', { error: errorText(error) }));
  /** Whether what the watchers' first lists delivered has been applied (readiness waits for it, `FirstLists`). */
  private readonly firstLists = new FirstLists(this.ingest, () => this.isReady());
  /** Watchers made so far (`addCluster`): a mark queued before the last one does not cover its list. */
  private watchersAdded = 0;

  constructor(
    readonly config: AutoscopeConfig,
    connections: { description: string; connections: ClusterConnection[] },
  ) {
    this.configuredFrom = connections.description;
    const byName = this.connections;
    for (const c of connections.connections) byName.set(c.name, c);
    if (config.databaseUrl) {
      this.shared = new SharedHistory({
        databaseUrl: config.databaseUrl,
        ...(config.replicaName ? { replicaName: config.replicaName } : {}),
        clusters: [...byName.keys()],
        retentionDays: config.retentionDays,
        ...(config.leaseMs ? { leaseMs: config.leaseMs } : {}),
        ...(config.renewMs ? { renewMs: config.renewMs } : {}),
        leaseOf: (cluster) => this.leaseOf(cluster),
        acquired: (cluster) => {
          const connection = byName.get(cluster);
          if (connection && !this.stopped) this.addCluster(connection);
        },
        released: (cluster) => {
          this.removeCluster(cluster);
          // Settles once what the cluster's watches had delivered is applied (recorded), in the queue's own slices:
          // a synchronous drain would hold every request behind the whole queue.
          return new Promise<void>((applied) => this.ingest.push(applied));
        },
        loadRemote: (current) => this.loadRemote(current),
        applyRemote: (changes) => this.applyRemote(changes),
        onWrite: observeHistoryWrite,
      });
      this.history = this.shared.store;
    } else {
      this.history = new HistoryStore({
        dataDir: config.dataDir,
        retentionDays: config.retentionDays,
        onWrite: observeHistoryWrite,
        checkpointThread: true,
        onCheckpoint: observeWalCheckpoint,
        writerThread: true,
      });
    }
    this.index = new FleetIndex(
      this.history,
      (cluster) => this.watchers.get(cluster),
      (ids) => this.bus.changed(ids),
      undefined,
      true,
    );
    this.index.sharedOnArrival = true;
    // A cold start's first sights are written, and its HPAs deflated, once the index is whole (`buildFirstViews`), or
    // after `COLD_START_DEFERRED_AT_MOST_MS` if it is not by then: on cores the sync keeps busy, they lengthened it.
    this.history.deferFirstSights();
    this.index.deferDeflating();
    const deferredAtMost = setTimeout(() => this.endColdStart(), COLD_START_DEFERRED_AT_MOST_MS);
    deferredAtMost.unref();
    this.timers.push(deferredAtMost);
    // On SQLite every cluster is watched at once; on PostgreSQL each one once its lease is taken, and what this
    // process sees of its own clusters is published for the replicas that follow them.
    if (this.shared) {
      const store = this.shared.store;
      this.index.publisher = (cluster, id, entry) =>
        store.publishAutoscaler(cluster, id, entry ? { dto: entry.dto, raw: entry.raw, related: entry.related } : null);
      void this.shared.start();
    } else for (const c of connections.connections) this.addCluster(c);
    this.timers.push(
      setInterval(() => {
        this.index.refreshAll().catch((error: unknown) => log.error('re-mapping the fleet failed', { error: errorText(error) }));
      }, 60_000),
    );
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
    onObject: (cluster, resource, change, object) =>
      this.ingest.push(() => {
        this.index.apply(cluster, resource, change, object);
        if (resource === 'karmadaClusters') this.syncMembers(cluster);
      }),
    onResourceSynced: (cluster, resource, objects) =>
      this.ingest.push(() => {
        this.index.resync(cluster, resource, objects);
        if (resource === 'karmadaClusters') this.syncMembers(cluster);
      }),
    onState: (status) => this.ingest.push(() => this.applyState(status)),
  };

  /** A cluster's new state, after what its watcher reported before it. */
  private applyState(status: ClusterStatus): void {
    this.logState(status);
    this.publishStatus(status);
    // Only an unreachable cluster's items are stale; a degraded one answers and its data is current.
    this.index.setStale(status.name, status.state === 'unreachable');
    // An outage is recorded from when the cluster last answered (`since`), not from when it was noticed.
    const at = status.state === 'unreachable' && status.since ? status.since : new Date().toISOString();
    this.history.recordClusterState(status.name, status.state, at, status.error);
    this.bus.cluster(status);
    // The first views are built as soon as the fleet is whole, not by the first request or probe.
    if (!this.viewsBuilt && status.state !== 'syncing') this.isReady();
  }

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
      // Watch streams' lines and list pages are parsed in the ingest queue's slices, with the mapping they lead to.
      informer: {
        arrived: (object) => this.index.shareStrings(object),
        defer: (work, childrenFirst) => this.ingest.push(work, childrenFirst),
      },
      thresholds: { ...defaultThresholds, unreachableAfterMs: this.config.unreachableAfterMs ?? defaultThresholds.unreachableAfterMs },
    });
    this.watchers.set(connection.name, watcher);
    this.watchersAdded += 1;
    watcher.start();
  }

  /**
   * Stops watching a cluster and its Karmada members: another replica owns them now. Their entries stay in the
   * index, and the change stream brings the new owner's changes to them.
   */
  private removeCluster(cluster: string): void {
    for (const [name, watcher] of [...this.watchers]) {
      if (name !== cluster && watcher.connection.parent !== cluster) continue;
      const last = this.clusterInfo(watcher);
      watcher.stop();
      this.watchers.delete(name);
      this.index.stopHolding(name);
      this.remoteStatuses.set(name, last);
      this.publishedStatus.delete(name);
    }
  }

  /** The configured cluster whose lease covers `cluster`: itself, or a Karmada member's control plane. */
  private leaseOf(cluster: string): string {
    const parent = this.watchers.get(cluster)?.connection.parent;
    if (parent) return parent;
    if (this.connections.has(cluster)) return cluster;
    const slash = cluster.lastIndexOf('/');
    return slash > 0 && this.connections.has(cluster.slice(0, slash)) ? cluster.slice(0, slash) : cluster;
  }

  private ownsCluster(cluster: string): boolean {
    return this.shared?.ownership.ownedClusters().has(this.leaseOf(cluster)) ?? true;
  }

  /** On PostgreSQL, an owned cluster's status for the replicas that follow it: on a change of state or error, else every 15 s. */
  private publishStatus(status: ClusterStatus): void {
    const watcher = this.watchers.get(status.name);
    if (!this.shared || !watcher) return;
    const info = { ...this.clusterInfo(watcher), ...status };
    const key = JSON.stringify([
      status.state,
      status.error,
      status.lastSyncAt === null,
      info.capabilities,
      info.forbiddenResources,
      info.kubernetesVersion,
    ]);
    const last = this.publishedStatus.get(status.name);
    const now = Date.now();
    if (last && last.key === key && now - last.at < 15_000) return;
    this.publishedStatus.set(status.name, { key, at: now });
    this.shared.store.publishClusterStatus(status.name, info);
  }

  /** What the other replicas published, for every cluster this process does not own (at start, or after falling behind). */
  private loadRemote(current: Awaited<ReturnType<SharedHistory['store']['loadCurrent']>>): void {
    const present = new Set<string>();
    for (const row of current.autoscalers) {
      if (this.ownsCluster(row.cluster)) continue;
      const entry = remoteEntry(row.body);
      if (!entry) continue;
      present.add(row.id);
      this.index.applyRemote(row.cluster, row.id, entry);
    }
    for (const cluster of this.index.clusterNames()) {
      if (this.ownsCluster(cluster)) continue;
      for (const id of this.index.idsOfCluster(cluster)) if (!present.has(id)) this.index.applyRemote(cluster, id, null);
    }
    for (const row of current.clusters) {
      if (this.ownsCluster(row.cluster) || this.watchers.has(row.cluster)) continue;
      const parsed = RemoteClusterSchema.safeParse(row.body);
      if (parsed.success) this.remoteStatuses.set(row.cluster, parsed.data);
    }
  }

  /** The change stream, in order: the other replicas' changes to the clusters they own. */
  private applyRemote(changes: readonly Change[]): void {
    for (const change of changes) {
      if (this.ownsCluster(change.cluster) || this.watchers.has(change.cluster)) continue;
      if (change.kind === 'autoscaler') {
        if (change.body === null) this.index.applyRemote(change.cluster, change.id, null);
        else {
          const entry = remoteEntry(change.body);
          if (entry) this.index.applyRemote(change.cluster, change.id, entry);
        }
      } else if (change.kind === 'cluster') {
        const parsed = RemoteClusterSchema.safeParse(change.body);
        if (!parsed.success) continue;
        this.remoteStatuses.set(change.cluster, parsed.data);
        this.bus.cluster(ClusterStatusSchema.parse(parsed.data));
      }
    }
  }

  /** A cluster this process watches, or (on PostgreSQL) one another replica watches. */
  knowsCluster(cluster: string): boolean {
    return this.watchers.has(cluster) || this.remoteStatuses.has(cluster);
  }

  /**
   * How to reach a cluster for a live read (explain, previews): its watcher's connection, or, for a cluster another
   * replica watches, the configured one (a Karmada member through its control plane's proxy).
   */
  connectionFor(cluster: string): ClusterConnection | undefined {
    const watched = this.watchers.get(cluster)?.connection;
    if (watched) return watched;
    const configured = this.connections.get(cluster) ?? this.memberConnections.get(cluster);
    if (configured) return configured;
    const parent = this.leaseOf(cluster);
    const controlPlane = parent !== cluster ? this.connections.get(parent) : undefined;
    if (!controlPlane || !this.knowsCluster(cluster)) return undefined;
    const member = memberConnection(controlPlane, cluster.slice(parent.length + 1));
    this.memberConnections.set(cluster, member);
    return member;
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

  /** No cluster has finished a first sync yet (and there is at least one): what every read answers 503 to. */
  nothingSyncedYet(): boolean {
    let clusters = 0;
    for (const w of this.watchers.values()) {
      if (!w.awaitingFirstSync()) return false;
      clusters += 1;
    }
    for (const [name, remote] of this.remoteStatuses) {
      if (this.watchers.has(name)) continue;
      if (remote.lastSyncAt !== null || remote.state !== 'syncing') return false;
      clusters += 1;
    }
    return clusters > 0;
  }

  clusterStatuses(): ClusterStatus[] {
    const statuses = [...this.watchers.values()].map((w) => w.status());
    for (const [name, remote] of this.remoteStatuses) if (!this.watchers.has(name)) statuses.push(ClusterStatusSchema.parse(remote));
    return statuses.sort((a, b) => a.name.localeCompare(b.name));
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
    const infos = [...this.watchers.values()].map((w) => this.clusterInfo(w));
    for (const [name, remote] of this.remoteStatuses) if (!this.watchers.has(name)) infos.push(remote);
    return infos
      .filter((c) => !visible || visible.cluster(c.name))
      .map((c) => ({
        ...c,
        counts: counts.get(c.name) ?? {
          total: 0,
          byKind: { HorizontalPodAutoscaler: 0, MachineAutoscaler: 0, FederatedHPA: 0 },
          byHealth: { failing: 0, degraded: 0, ok: 0, unknown: 0 },
        },
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** What a cluster's watcher knows of it: its status and what discovery found. */
  private clusterInfo(w: ClusterWatcher): RemoteCluster {
    return {
      ...w.status(),
      kind: w.kind,
      server: safeServer(w.connection.client.server),
      kubernetesVersion: w.kubernetesVersion,
      parent: w.connection.parent ?? null,
      capabilities: w.capabilities,
      forbiddenResources: w.forbiddenResources(),
    };
  }

  /**
   * Ready when every cluster has synced once or failed (unreachable, forbidden), and the views every open page reads
   * first are built: the first request after a start would otherwise pay for them (at 250,000 autoscalers a sort
   * order 1.1 s, the triage 0.6 s).
   */
  isReady(): boolean {
    if (this.shared && !this.shared.ready) return false;
    const synced = [...this.watchers.values()].every(
      (w) => w.status().lastSyncAt !== null || w.status().state === 'unreachable' || w.status().state === 'forbidden',
    );
    if (!this.firstLists.applied(synced, this.watchersAdded)) return false;
    if (synced && !this.viewsBuilt) this.buildFirstViews();
    return synced;
  }

  private viewsBuilt = false;
  private stopCompaction: (() => void) | null = null;

  /** The list's default order and the whole fleet's triage, built once, as the index first becomes whole. */
  private buildFirstViews(): void {
    this.viewsBuilt = true;
    const started = performance.now();
    const views = fleetViews(this.index);
    views.order('health');
    views.triage({}, Date.now());
    log.info('first views built', { autoscalers: this.index.size, ms: Math.round(performance.now() - started) });
    // The cold start's garbage is behind it: from here the old space is compacted in windows when it is fragmented.
    this.stopCompaction = startCompactionWindows(this.config.v8Favor, observeCompactionWindow);
    this.endColdStart();
  }

  private coldStartEnded = false;

  /**
   * The cold start's deferred work, done once the index is whole: the HPAs' deflating (`FleetIndex.deferDeflating`)
   * and history's first sights (`AutoscopeStore.deferFirstSights`), in slices between requests.
   */
  private endColdStart(): void {
    if (this.coldStartEnded || this.stopped) return;
    this.coldStartEnded = true;
    this.index.whole();
    const deferred = this.history.deferredFirstSights;
    const started = performance.now();
    this.history
      .writeDeferredFirstSights()
      .then(() => this.history.flush())
      .then(() => log.info('first sights written to history', { autoscalers: deferred, ms: Math.round(performance.now() - started) }))
      .catch((error: unknown) => log.error('writing first sights to history failed', { error: errorText(error) }));
  }

  /** Ends every SSE stream, stops the watches, then writes what history has queued and closes it. Idempotent. */
  stop(): Promise<void> {
    if (this.stopped) return this.closed;
    this.stopped = true;
    for (const close of [...this.streams]) close();
    for (const t of this.timers) clearInterval(t);
    this.stopCompaction?.();
    for (const w of this.watchers.values()) w.stop();
    // What the watches had handed over is applied (and its history written) before history closes.
    this.ingest.drain();
    this.index.halt();
    this.closed = this.shared ? this.shared.stop() : this.history.close();
    return this.closed;
  }
}

/** The longest a cold start defers its first sights' history and deflating when its index is not whole by then. */
const COLD_START_DEFERRED_AT_MOST_MS = 5 * 60_000;

/** A cluster another replica watches, as it published it: its summary without the counts (this index counts). */
const RemoteClusterSchema = ClusterSummarySchema.omit({ counts: true });
type RemoteCluster = z.infer<typeof RemoteClusterSchema>;

/**
 * An entry as another replica published it, checked at the boundary: the DTO goes through its schema (which also
 * gives it the schema's key order, the same for every entry read back from PostgreSQL, whose JSONB reorders keys).
 * A body that does not parse (another version's replica, say) is skipped and logged once.
 */
let loggedBadRemote = false;
function remoteEntry(body: unknown): RemoteEntry | null {
  const b = body as { dto?: unknown; raw?: unknown; related?: unknown } | null;
  const dto = AutoscalerSchema.safeParse(b?.dto);
  if (!dto.success || typeof b?.raw !== 'object' || b.raw === null) {
    if (!loggedBadRemote)
      log.warn('an autoscaler published by another replica did not parse; skipped', { error: dto.error?.message ?? 'no raw object' });
    loggedBadRemote = true;
    return null;
  }
  return { dto: dto.data, raw: b.raw as RemoteEntry['raw'], related: b.related ?? {} };
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
