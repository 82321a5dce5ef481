import 'server-only';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { log } from '@/server/log';
import type { Change } from './change-stream';
import { ChangeFollower } from './change-stream';
import { ClusterOwnership } from './cluster-ownership';
import { PostgresStore } from './postgres-store';

export interface SharedHistoryOptions {
  databaseUrl: string;
  /** This process among the replicas (a pod name); a start nonce is added so a restarted pod gets new leases. */
  replicaName?: string;
  /** The configured clusters (Karmada members follow their control plane's lease). */
  clusters: readonly string[];
  retentionDays: number;
  /** The cluster whose lease covers `cluster`: itself, or a member's control plane. */
  leaseOf(cluster: string): string;
  /** This process owns `cluster` now and has read back its history: start watching it. */
  acquired(cluster: string): void;
  /**
   * This process no longer owns `cluster`: stop watching it and its members now. What their watches had already
   * delivered is still recorded; the promise, if any, settles once it is.
   */
  released(cluster: string): void | Promise<void>;
  /**
   * What the owners of the other clusters published, as of one point of the change stream: the index takes it
   * for every cluster this process does not own (at start, and again if it fell behind the stream's horizon).
   */
  loadRemote(current: Awaited<ReturnType<PostgresStore['loadCurrent']>>): void;
  /** Entries of the change stream after that point, in order. */
  applyRemote(changes: readonly Change[]): void;
  onWrite?(seconds: number): void;
  leaseMs?: number;
  renewMs?: number;
}

/**
 * Autoscope on PostgreSQL (AUTOSCOPE_DATABASE_URL): the history store, and the leases under which this process
 * watches clusters. A cluster is watched only while its lease is held — taken when free or expired, renewed every
 * `renewMs`, handed back on a clean stop — and every row written for it carries the lease's token, which the
 * database checks, so a process paused past its lease cannot write over the one that took the cluster over.
 * Before watching a cluster the store reads back what is open for it, so a restart or a takeover records nothing
 * twice (docs/scale-out.md).
 */
export class SharedHistory {
  readonly pool: pg.Pool;
  readonly store: PostgresStore;
  readonly ownership: ClusterOwnership;
  readonly replicaId: string;
  private started = false;
  private stopping = false;
  private follower: ChangeFollower | null = null;

  constructor(private readonly options: SharedHistoryOptions) {
    this.replicaId = `${options.replicaName ?? os.hostname()}-${randomUUID().slice(0, 8)}`;
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, application_name: `autoscope ${this.replicaId}` });
    // An idle connection the server closed must not take the process down; the next query reconnects.
    this.pool.on('error', (error) => log.warn('PostgreSQL connection lost', { error: error.message }));
    this.ownership = new ClusterOwnership({
      pool: this.pool,
      replicaId: this.replicaId,
      clusters: options.clusters,
      leaseMs: options.leaseMs ?? 15_000,
      renewMs: options.renewMs ?? 5_000,
      onAcquire: (cluster) => void this.adopt(cluster),
      onRelease: async (cluster, reason) => {
        log.info('cluster lease released', { cluster, reason });
        const applied = this.options.released(cluster);
        // Handing over: what this process recorded of the cluster is committed under its lease before the lease is
        // freed, so the next owner reads it back instead of losing what its first list no longer shows.
        if (reason === 'handoff') {
          await applied;
          await this.store.flush();
        }
        this.store.forget(cluster);
      },
      onError: (error) => log.warn('cluster leases not renewed', { error: errorText(error) }),
    });
    this.store = new PostgresStore({
      pool: this.pool,
      retentionDays: options.retentionDays,
      fenceOf: (cluster) => this.ownership.fenceOf(options.leaseOf(cluster)),
      onWrite: (seconds) => options.onWrite?.(seconds),
      onFenced: (cluster) => log.warn('history write refused: the cluster lease moved to another replica', { cluster }),
      onError: (error) => log.warn('history write failed; retrying', { error: errorText(error) }),
    });
  }

  /** Loads what the other replicas published, then follows the change stream from there. */
  private async follow(): Promise<void> {
    const current = await this.store.loadCurrent();
    this.options.loadRemote(current);
    const follower = new ChangeFollower({
      connection: { connectionString: this.options.databaseUrl, application_name: `autoscope ${this.replicaId} (follower)` },
      pool: this.pool,
      fromSeq: current.seq,
      onChanges: (changes) => this.options.applyRemote(changes),
      onBehindHorizon: async () => {
        const again = await this.store.loadCurrent();
        this.options.loadRemote(again);
        follower.resetTo(again.seq);
      },
      // A lease freed by another replica (a handoff, a clean stop) is taken by its next owner at once: until then
      // nobody watches the cluster.
      onLeaseFreed: () => void this.ownership.tick(),
      pollMs: 2_000,
      onError: (error) => log.warn('change stream interrupted; resuming', { error: errorText(error) }),
    });
    this.follower = follower;
    await follower.start();
  }

  /** Changes of the stream this process has not applied yet (0: its index has caught up), or null before it follows. */
  async lag(): Promise<number | null> {
    return this.follower ? this.follower.lag() : null;
  }

  /** Whether the schema is in place, the first round of leases was taken and the index follows the others. */
  get ready(): boolean {
    return this.started;
  }

  /** Migrates, then takes leases (retrying until the database answers). */
  async start(): Promise<void> {
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        await this.store.start();
        await this.ownership.start();
        await this.follow();
        this.started = true;
        log.info('sharing history in PostgreSQL', { replica: this.replicaId, owned: this.ownership.ownedClusters().size });
        return;
      } catch (error) {
        log.error('PostgreSQL not ready; retrying', { error: errorText(error) });
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1_000 * 2 ** attempt)));
      }
    }
  }

  private async adopt(cluster: string): Promise<void> {
    for (let attempt = 0; this.ownership.ownedClusters().has(cluster); attempt++) {
      try {
        await this.store.adopt(cluster);
        if (this.ownership.ownedClusters().has(cluster)) this.options.acquired(cluster);
        return;
      } catch (error) {
        log.warn('could not read back a cluster’s history; retrying', { cluster, error: errorText(error) });
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1_000 * 2 ** attempt)));
      }
    }
  }

  /** Writes what is queued, hands the leases back (another replica takes them at once), closes the pool. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.follower?.stop();
    await this.store.close();
    await this.ownership.stop().catch((error: unknown) => log.warn('leases not handed back', { error: errorText(error) }));
    await this.pool.end();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
