import 'server-only';
import type { Pool } from 'pg';
import { assignClusters } from '@/lib/sharding/assign-clusters';
import { LEASE_CHANNEL } from './change-stream';

export type ReleaseReason = 'handoff' | 'lost' | 'stopped';

export interface ClusterOwnershipOptions {
  pool: Pool;
  /** Unique per process (a pod name plus a start nonce: a restarted pod must not inherit its old leases). */
  replicaId: string;
  clusters: readonly string[];
  /** How long a lease and a heartbeat stay valid without renewal. */
  leaseMs: number;
  /** How often the replica heartbeats, renews and rebalances; well under leaseMs (a third is usual). */
  renewMs: number;
  /** Start watching `cluster`; every write for it carries `fence`. */
  onAcquire(cluster: string, fence: number): void;
  /**
   * Stop watching `cluster` (its fence is no longer accepted, or is about to be released). On a handoff the lease
   * is freed only once what this returns settles (at most `renewMs`), and `fenceOf` still answers until then: what
   * was recorded under the lease is written before the next owner reads the cluster back.
   */
  onRelease(cluster: string, reason: ReleaseReason): void | Promise<void>;
  onError?(error: unknown): void;
}

interface LeaseRow {
  cluster: string;
  owner: string | null;
  fence: string;
  live: boolean;
}

/**
 * Cluster ownership through a lease table: each cluster has one row (owner, fence token, expiry, all in database
 * time). A replica heartbeats into `replicas`, computes the shared assignment (lib/sharding) from the live
 * replicas and the live leases, hands back the clusters it should no longer own, renews the rest, and takes free or
 * expired leases assigned to it — each take draws a new fence token from a sequence. Whatever a replica believes,
 * the database refuses a write whose token is not the current, unexpired lease (the fence trigger, migrations.ts).
 *
 * The replica also drops a lease on its own when it could not renew for `leaseMs` (say, the database was
 * unreachable), so it stops its watcher rather than finding out at the next write.
 */
export class ClusterOwnership {
  private readonly owned = new Map<string, { fence: number; renewedAt: number }>();
  /** Clusters being handed back: no longer watched, their lease still held while what was recorded is written. */
  private readonly releasing = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private again: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: ClusterOwnershipOptions) {}

  /** cluster → fence token, for the clusters this replica owns now. */
  ownedClusters(): ReadonlyMap<string, number> {
    return new Map([...this.owned].map(([c, o]) => [c, o.fence]));
  }

  /** The token writes for `cluster` carry: owned, or being handed back; undefined when not this replica's. */
  fenceOf(cluster: string): number | undefined {
    return this.owned.get(cluster)?.fence ?? this.releasing.get(cluster);
  }

  /** A release that frees nothing (the lease is gone, or freed in one statement after): its outcome is only reported. */
  private release(cluster: string, reason: 'lost' | 'stopped'): void {
    Promise.resolve(this.options.onRelease(cluster, reason)).catch((error: unknown) => this.options.onError?.(error));
  }

  /** A method, not the field: stop() may flip it while a round awaits the database. */
  private isStopped(): boolean {
    return this.stopped;
  }

  async start(): Promise<void> {
    const { pool, clusters } = this.options;
    await pool.query('INSERT INTO cluster_leases (cluster) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [clusters]);
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.renewMs);
  }

  /**
   * One round: heartbeat, rebalance, renew, acquire. Rounds never overlap; a call during a round runs one more
   * after it (a lease freed while the round read the table is taken then, not a period later).
   */
  tick(): Promise<void> {
    if (this.ticking) {
      this.again ??= this.ticking.then(() => {
        this.again = null;
        return this.tick();
      });
      return this.again;
    }
    this.ticking = this.round()
      .catch((error: unknown) => {
        this.options.onError?.(error);
        this.expireUnrenewed();
      })
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private expireUnrenewed(): void {
    const now = Date.now();
    for (const [cluster, o] of this.owned) {
      if (now - o.renewedAt < this.options.leaseMs) continue;
      this.owned.delete(cluster);
      this.release(cluster, 'lost');
    }
  }

  private async round(): Promise<void> {
    if (this.stopped) return;
    const { pool, replicaId: me, clusters, leaseMs } = this.options;
    const lease = `${leaseMs} milliseconds`;
    const startedAt = Date.now();
    await pool.query(
      `INSERT INTO replicas (id, heartbeat_at) VALUES ($1, clock_timestamp())
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
      [me],
    );
    const live = (
      await pool.query<{ id: string }>(`SELECT id FROM replicas WHERE heartbeat_at > clock_timestamp() - $1::interval`, [lease])
    ).rows.map((r) => r.id);
    const leases = (
      await pool.query<LeaseRow>(
        `SELECT cluster, owner, fence::text AS fence, (owner IS NOT NULL AND expires_at > clock_timestamp()) AS live
         FROM cluster_leases WHERE cluster = ANY($1::text[])`,
        [clusters],
      )
    ).rows;
    const current: Record<string, string> = {};
    for (const l of leases) if (l.live && l.owner !== null) current[l.cluster] = l.owner;
    const desired = assignClusters({ clusters, replicas: live, current });

    // Hand back what is assigned elsewhere now: stop watching, write what was recorded under the lease (a write
    // dropped here would be a transition the next owner's list no longer shows), then free it for the new owner.
    // The wait is bounded: a write that cannot commit by then is refused by the fence once the lease is freed.
    for (const [cluster, o] of [...this.owned]) {
      if (desired[cluster] === me) continue;
      this.owned.delete(cluster);
      this.releasing.set(cluster, o.fence);
      try {
        await settledWithin(this.options.onRelease(cluster, 'handoff'), this.options.renewMs, (error) => this.options.onError?.(error));
        await freeLeases(pool, 'cluster = $1 AND owner = $2 AND fence = $3', [cluster, me, o.fence]);
      } finally {
        this.releasing.delete(cluster);
      }
    }

    // Renew the rest in one statement; a lease missing from the answer was lost (expired and taken, or expired).
    const mine = [...this.owned.keys()];
    if (mine.length > 0) {
      const renewed = new Set(
        (
          await pool.query<{ cluster: string; fence: string }>(
            `UPDATE cluster_leases SET expires_at = clock_timestamp() + $3::interval
             WHERE cluster = ANY($1::text[]) AND owner = $2 AND expires_at > clock_timestamp()
             RETURNING cluster, fence::text AS fence`,
            [mine, me, lease],
          )
        ).rows
          .filter((r) => this.owned.get(r.cluster)?.fence === Number(r.fence))
          .map((r) => r.cluster),
      );
      for (const cluster of mine) {
        if (renewed.has(cluster)) {
          const o = this.owned.get(cluster);
          if (o) o.renewedAt = startedAt;
          continue;
        }
        this.owned.delete(cluster);
        this.release(cluster, 'lost');
      }
    }

    // Take what is assigned here and free (never a live lease: its holder hands it back, or it expires).
    for (const l of leases) {
      if (desired[l.cluster] !== me || this.owned.has(l.cluster) || l.live) continue;
      const taken = await pool.query<{ fence: string }>(
        `UPDATE cluster_leases SET owner = $2, fence = nextval('fence_tokens'), expires_at = clock_timestamp() + $3::interval,
           acquired_at = clock_timestamp()
         WHERE cluster = $1 AND (owner IS NULL OR expires_at <= clock_timestamp())
         RETURNING fence::text AS fence`,
        [l.cluster, me, lease],
      );
      const row = taken.rows[0];
      if (!row) continue;
      if (this.isStopped()) {
        await freeLeases(pool, 'cluster = $1 AND fence = $2', [l.cluster, row.fence]);
        continue;
      }
      const fence = Number(row.fence);
      this.owned.set(l.cluster, { fence, renewedAt: startedAt });
      this.options.onAcquire(l.cluster, fence);
    }
  }

  /** Releases every lease this replica holds (a clean shutdown hands over at once instead of after leaseMs). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await (this.again ?? this.ticking);
    const { pool, replicaId: me } = this.options;
    const mine = [...this.owned];
    this.owned.clear();
    for (const [cluster] of mine) this.release(cluster, 'stopped');
    await freeLeases(pool, 'owner = $1', [me]);
    await pool.query('DELETE FROM replicas WHERE id = $1', [me]);
  }
}

/**
 * Frees the leases `where` selects, for anyone to take, and wakes the replicas (LEASE_CHANNEL) so the next owner takes
 * each at once rather than at its next round.
 */
async function freeLeases(pool: Pool, where: string, params: unknown[]): Promise<void> {
  await pool.query(
    `WITH freed AS (UPDATE cluster_leases SET owner = NULL, expires_at = '-infinity' WHERE ${where} RETURNING cluster)
     SELECT pg_notify('${LEASE_CHANNEL}', cluster) FROM freed`,
    params,
  );
}

/** Waits for `work` (a rejection is reported, not thrown) or `ms`, whichever comes first. */
async function settledWithin(work: void | Promise<void>, ms: number, onError?: (error: unknown) => void): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch((error: unknown) => onError?.(error)),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
