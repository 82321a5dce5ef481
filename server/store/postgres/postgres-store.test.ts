import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, ChangeFollower, headSeq, pruneChanges, type Change } from '@/server/store/postgres/change-stream';
import { ClusterOwnership, type ReleaseReason } from '@/server/store/postgres/cluster-ownership';
import { isFencedError, migratePostgres, postgresMigrations } from '@/server/store/postgres/migrations';
import { PartitionManager } from '@/server/store/postgres/partitions';
import { PostgresStore } from '@/server/store/postgres/postgres-store';
import { startPostgres, type TestPostgres } from '@/test/support/postgres';

let server: TestPostgres;
const pools: pg.Pool[] = [];
let dbCount = 0;

function poolFor(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pools.push(pool);
  return pool;
}

/** A fresh, migrated database of its own. */
async function freshDatabase(): Promise<{ url: string; pool: pg.Pool }> {
  const url = server.createDatabase(`store_${++dbCount}`);
  const pool = poolFor(url);
  await migratePostgres(pool);
  return { url, pool };
}

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  server.stop();
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const clusters = Array.from({ length: 10 }, (_, i) => `cluster-${String(i + 1).padStart(2, '0')}`);

describe('migrations', () => {
  it('retention asked for before the store migrated waits for the tables instead of failing', async () => {
    const pool = poolFor(server.createDatabase('prune_first'));
    const store = new PostgresStore({ pool, retentionDays: 30, fenceOf: () => undefined });
    let outcome: string | null = null;
    const pruning = store.prune(new Date()).then(
      () => (outcome = 'pruned'),
      (error: unknown) => (outcome = `failed: ${String(error)}`),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(outcome).toBeNull();
    await store.start();
    await pruning;
    expect(outcome).toBe('pruned');
  });

  it('apply each version once, even with three replicas starting together', async () => {
    const url = server.createDatabase('migrate_race');
    const racers = [poolFor(url), poolFor(url), poolFor(url)];
    const applied = await Promise.all(racers.map((p) => migratePostgres(p)));
    expect(applied.flat().sort()).toEqual(postgresMigrations.map((_, i) => i + 1));
    expect(await migratePostgres(racers[0]!)).toEqual([]);
    const { rows } = await racers[0]!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
  });

  it('partition transitions and replica samples by month on their time', async () => {
    const { pool } = await freshDatabase();
    const { rows } = await pool.query<{ table: string; strategy: string; key: string }>(
      `SELECT c.relname AS table, p.partstrat AS strategy, a.attname AS key FROM pg_partitioned_table p
       JOIN pg_class c ON c.oid = p.partrelid JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
       ORDER BY 1`,
    );
    expect(rows).toEqual([
      { table: 'condition_transitions', strategy: 'r', key: 'at' },
      { table: 'replica_samples', strategy: 'r', key: 'at' },
    ]);
  });

  it('serve the timeline query (object, then time) and the fleet feed (time) from indexes', async () => {
    const { pool } = await freshDatabase();
    await new PartitionManager(pool).ensureFor('condition_transitions', [new Date('2026-11-10T00:00:00Z')]);
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = async (sql: string): Promise<string> =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(await plan(`SELECT * FROM condition_transitions WHERE id = 'c/hpa/ns/a' AND at >= '2026-11-01' ORDER BY type, at`)).toMatch(
        /condition_transitions_p2026_11_id_type_at_idx/,
      );
      expect(await plan(`SELECT * FROM condition_transitions WHERE notable AND at >= '2026-11-01' ORDER BY at DESC LIMIT 50`)).toMatch(
        /condition_transitions_p2026_11_at_idx/,
      );
    } finally {
      client.release();
    }
  });
});

/** Takes leases for `owner` directly, as a replica would, and returns the fence of each. */
async function ownAll(pool: pg.Pool, owner: string, leaseMs: number, names = clusters): Promise<Map<string, number>> {
  await pool.query('INSERT INTO cluster_leases (cluster) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [names]);
  const { rows } = await pool.query<{ cluster: string; fence: string }>(
    `UPDATE cluster_leases SET owner = $2, fence = nextval('fence_tokens'), expires_at = clock_timestamp() + $3::interval
     WHERE cluster = ANY($1::text[]) RETURNING cluster, fence::text AS fence`,
    [names, owner, `${leaseMs} milliseconds`],
  );
  return new Map(rows.map((r) => [r.cluster, Number(r.fence)]));
}

function insertState(db: pg.Pool | pg.PoolClient, cluster: string, fence: number, state = 'synced'): Promise<pg.QueryResult> {
  return db.query(`INSERT INTO cluster_states (cluster, fence, state, at) VALUES ($1, $2, $3, clock_timestamp())`, [cluster, fence, state]);
}

describe('partitions', () => {
  it('are created for the months written to, and retention drops whole months before the cutoff', async () => {
    const { pool } = await freshDatabase();
    const fences = await ownAll(pool, 'r1', 60_000, ['c']);
    const parts = new PartitionManager(pool);
    const times = ['2026-08-15T00:00:00Z', '2026-09-30T23:59:59.999Z', '2026-10-01T00:00:00Z', '2026-11-20T00:00:00Z'].map(
      (t) => new Date(t),
    );
    const insert = (at: Date): Promise<pg.QueryResult> =>
      pool.query(`INSERT INTO replica_samples (id, cluster, fence, at, current) VALUES ('c/hpa/ns/a', 'c', $1, $2, 1)`, [
        fences.get('c'),
        at,
      ]);

    // No default partition: a month nobody prepared is refused rather than parked where it would block that month.
    await expect(insert(times[0]!)).rejects.toThrow(/no partition/);
    await parts.ensureFor('replica_samples', times);
    for (const t of times) await insert(t);
    expect((await parts.list('replica_samples')).map((p) => p.name)).toEqual([
      'replica_samples_p2026_08',
      'replica_samples_p2026_09',
      'replica_samples_p2026_10',
      'replica_samples_p2026_11',
    ]);

    // A 30-day window from 2026-11-01 reaches into October: October stays whole, August and September go.
    const dropped = await parts.dropBefore(new Date('2026-10-02T00:00:00Z'));
    expect(dropped).toEqual(['replica_samples_p2026_08', 'replica_samples_p2026_09']);
    const { rows } = await pool.query<{ at: Date }>('SELECT at FROM replica_samples ORDER BY at');
    expect(rows.map((r) => r.at.toISOString())).toEqual(['2026-10-01T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
  });
});

describe('fencing', () => {
  it('the database refuses a write whose token is not the current lease, whatever the writer believes', async () => {
    const { pool } = await freshDatabase();
    const old = (await ownAll(pool, 'paused', 60_000, ['c'])).get('c')!;
    await insertState(pool, 'c', old);
    // The lease moves on (the paused replica's lease expired and another took it): a new token.
    const current = (await ownAll(pool, 'survivor', 60_000, ['c'])).get('c')!;
    expect(current).toBeGreaterThan(old);

    const stale = await insertState(pool, 'c', old).catch((e: unknown) => e);
    expect(isFencedError(stale)).toBe(true);
    for (const sql of [
      `INSERT INTO autoscalers (id, cluster, fence, body) VALUES ('c/hpa/ns/a', 'c', $1, '{}')`,
      `INSERT INTO changes (cluster, fence, kind, id) VALUES ('c', $1, 'autoscaler', 'c/hpa/ns/a')`,
      `INSERT INTO events (uid, id, cluster, fence, type, reason, message, count, regarding) VALUES ('u', 'c/hpa/ns/a', 'c', $1, 'Normal', 'R', 'm', 1, 'x')`,
    ]) {
      expect(isFencedError(await pool.query(sql, [old]).catch((e: unknown) => e))).toBe(true);
    }
    // An update of a row written with the old token must carry the new one too.
    expect(
      isFencedError(await pool.query(`UPDATE cluster_states SET state = 'unreachable' WHERE fence = $1`, [old]).catch((e: unknown) => e)),
    ).toBe(true);
    await insertState(pool, 'c', current);
    expect((await pool.query('SELECT fence::int AS fence FROM cluster_states ORDER BY at')).rows).toEqual([
      { fence: old },
      { fence: current },
    ]);
  });

  it('refuses the holder itself once its lease expired, before anyone took it', async () => {
    const { pool } = await freshDatabase();
    const fence = (await ownAll(pool, 'slow', 200, ['c'])).get('c')!;
    await insertState(pool, 'c', fence);
    await new Promise((r) => setTimeout(r, 300));
    expect(isFencedError(await insertState(pool, 'c', fence).catch((e: unknown) => e))).toBe(true);
  });

  it('a takeover waits for a write in flight, and the write after it is refused', async () => {
    const { pool } = await freshDatabase();
    const old = (await ownAll(pool, 'a', 60_000, ['c'])).get('c')!;
    const writer = await pool.connect();
    try {
      await writer.query('BEGIN');
      await insertState(writer, 'c', old);
      let tookOver = false;
      const takeover = ownAll(pool, 'b', 60_000, ['c']).then((m) => {
        tookOver = true;
        return m;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(tookOver).toBe(false); // blocked on the writer's share lock of the lease row
      await writer.query('COMMIT');
      const current = (await takeover).get('c')!;
      expect(isFencedError(await insertState(writer, 'c', old).catch((e: unknown) => e))).toBe(true);
      await insertState(pool, 'c', current);
    } finally {
      writer.release();
    }
  });
});

interface Replica {
  id: string;
  ownership: ClusterOwnership;
  /** What the callbacks say it watches now. */
  watching: Map<string, number>;
  releases: { cluster: string; reason: ReleaseReason }[];
}

function replica(
  pool: pg.Pool,
  id: string,
  leaseMs: number,
  options: { renewMs?: number; onRelease?: (cluster: string, reason: ReleaseReason) => Promise<void> } = {},
): Replica {
  const watching = new Map<string, number>();
  const releases: Replica['releases'] = [];
  const ownership = new ClusterOwnership({
    pool,
    replicaId: id,
    clusters,
    leaseMs,
    renewMs: options.renewMs ?? 3_600_000, // the test drives the rounds
    onAcquire: (cluster, fence) => watching.set(cluster, fence),
    onRelease: (cluster, reason) => {
      watching.delete(cluster);
      releases.push({ cluster, reason });
      return options.onRelease?.(cluster, reason);
    },
  });
  return { id, ownership, watching, releases };
}

async function owners(pool: pg.Pool): Promise<Record<string, string | null>> {
  const { rows } = await pool.query<{ cluster: string; owner: string | null }>(
    `SELECT cluster, CASE WHEN expires_at > clock_timestamp() THEN owner END AS owner FROM cluster_leases ORDER BY cluster`,
  );
  return Object.fromEntries(rows.map((r) => [r.cluster, r.owner]));
}

function loads(assignment: Record<string, string | null>): number[] {
  const out: Record<string, number> = {};
  for (const o of Object.values(assignment)) if (o) out[o] = (out[o] ?? 0) + 1;
  return Object.values(out).sort();
}

describe('cluster ownership', () => {
  it("spreads the clusters evenly, one owner each; a dead replica's clusters move to the survivors, and only those", async () => {
    const { pool } = await freshDatabase();
    const leaseMs = 1500;
    const rs = ['r1', 'r2', 'r3'].map((id) => replica(pool, id, leaseMs));
    for (const r of rs) await r.ownership.start();
    // The first replica took everything while alone; the rounds after the others joined rebalance by handoff.
    for (let round = 0; round < 3; round++) for (const r of rs) await r.ownership.tick();
    const before = await owners(pool);
    expect(Object.values(before).every((o) => o !== null)).toBe(true);
    expect(loads(before)).toEqual([3, 3, 4]);
    for (const r of rs) expect([...r.watching.keys()].sort()).toEqual(clusters.filter((c) => before[c] === r.id));

    // r2 stops renewing (kill -9, or paused): nothing is released; after the lease time the others take its share.
    const [r1, r2, r3] = rs as [Replica, Replica, Replica];
    const releasedBefore = r1.releases.length + r3.releases.length;
    await until(async () => {
      await r1.ownership.tick();
      await r3.ownership.tick();
      const o = await owners(pool);
      return Object.values(o).every((x) => x === 'r1' || x === 'r3');
    });
    const after = await owners(pool);
    expect(loads(after)).toEqual([5, 5]);
    expect(clusters.filter((c) => before[c] !== after[c]).sort()).toEqual(clusters.filter((c) => before[c] === 'r2'));
    expect([...r1.watching.keys(), ...r3.watching.keys()].sort()).toEqual(clusters);
    expect(r1.releases.length + r3.releases.length).toBe(releasedBefore); // the survivors kept what they had

    // r2 wakes up: its next round finds its leases gone and stops watching them (it may get a share back later,
    // by handoff, under new tokens).
    const r2Had = [...r2.watching.keys()].sort();
    await r2.ownership.tick();
    expect(r2.watching.size).toBe(0);
    expect(r2.releases.map((x) => x.cluster).sort()).toEqual(r2Had);
    for (const r of rs) await r.ownership.stop();
  });

  it('a handoff frees the lease only after what was recorded under it is written, its token accepted until then', async () => {
    const { pool } = await freshDatabase();
    const written: { cluster: string; fence: number | undefined; leaseOwner: string | null }[] = [];
    const r1: Replica = replica(pool, 'r1', 60_000, {
      // As SharedHistory does: the watch is stopped, then the history queued for the cluster is written.
      onRelease: async (cluster, reason) => {
        if (reason !== 'handoff') return;
        await new Promise((r) => setTimeout(r, 100));
        const fence = r1.ownership.fenceOf(cluster);
        written.push({ cluster, fence, leaseOwner: (await owners(pool))[cluster] ?? null });
        await insertState(pool, cluster, fence ?? -1);
      },
    });
    await r1.ownership.start(); // alone: takes every cluster
    const fences = new Map(r1.watching);
    const r2 = replica(pool, 'r2', 60_000);
    await r2.ownership.start(); // everything is leased: takes nothing yet
    expect(r2.watching.size).toBe(0);
    await r1.ownership.tick(); // hands back r2's share
    expect(written.length).toBe(5);
    for (const w of written) {
      expect(w.fence).toBe(fences.get(w.cluster)); // the write carried the handed-back lease's token, and was accepted
      expect(w.leaseOwner).toBe('r1'); // the lease was still held while it was written
      expect(r1.ownership.fenceOf(w.cluster)).toBeUndefined();
    }
    await r2.ownership.tick();
    expect([...r2.watching.keys()].sort()).toEqual(written.map((w) => w.cluster).sort());
    const states = await pool.query<{ cluster: string; fence: number }>('SELECT cluster, fence::int AS fence FROM cluster_states');
    expect(states.rows.sort((a, b) => a.cluster.localeCompare(b.cluster))).toEqual(
      written.map((w) => ({ cluster: w.cluster, fence: w.fence })).sort((a, b) => a.cluster.localeCompare(b.cluster)),
    );
    for (const r of [r1, r2]) await r.ownership.stop();
  });

  it('a handoff whose writes do not settle frees the lease after one renewal period anyway', async () => {
    const { pool } = await freshDatabase();
    const renewMs = 400;
    const r1 = replica(pool, 'r1', 60_000, { renewMs, onRelease: () => new Promise<void>(() => undefined) });
    await r1.ownership.start();
    const r2 = replica(pool, 'r2', 60_000);
    await r2.ownership.start();
    const started = Date.now();
    await r1.ownership.tick(); // five handoffs, one after another, each waiting out the bound
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(5 * renewMs - 50);
    await r2.ownership.tick();
    expect(r2.watching.size).toBe(5);
    for (const r of [r1, r2]) await r.ownership.stop();
  });

  it('a freed lease wakes the replica it is assigned to through NOTIFY, which takes it without waiting a round', async () => {
    const { url, pool } = await freshDatabase();
    const r1 = replica(pool, 'r1', 60_000);
    await r1.ownership.start(); // alone: takes every cluster
    const r2 = replica(pool, 'r2', 60_000); // no timer rounds: only the notification can make it take anything
    await r2.ownership.start();
    const follower = new ChangeFollower({
      connection: { connectionString: url },
      pool,
      fromSeq: 0,
      pollMs: 3_600_000,
      onChanges: () => undefined,
      onBehindHorizon: () => undefined,
      onLeaseFreed: () => void r2.ownership.tick(),
    });
    await follower.start();
    expect(r2.watching.size).toBe(0);
    await r1.ownership.tick(); // hands back r2's share
    await until(() => r2.watching.size === 5, 5_000);
    await r1.ownership.stop(); // a clean stop frees the rest: r2 takes them the same way
    await until(() => r2.watching.size === 10, 5_000);
    await follower.stop();
    await r2.ownership.stop();
  });

  it('a joining replica takes only its share, handed over by the others without waiting for expiry', async () => {
    const { pool } = await freshDatabase();
    const leaseMs = 60_000; // long: anything that moves here moves by handoff, not by expiry
    const rs = ['r1', 'r2', 'r3'].map((id) => replica(pool, id, leaseMs));
    for (const r of rs) await r.ownership.start();
    for (let round = 0; round < 3; round++) for (const r of rs) await r.ownership.tick();
    const before = await owners(pool);
    const r4 = replica(pool, 'r4', leaseMs);
    await r4.ownership.start();
    for (let round = 0; round < 2; round++) for (const r of [...rs, r4]) await r.ownership.tick();
    const after = await owners(pool);
    expect(loads(after)).toEqual([2, 2, 3, 3]);
    const moved = clusters.filter((c) => before[c] !== after[c]);
    expect(moved.length).toBe(2);
    expect(moved.every((c) => after[c] === 'r4')).toBe(true);
    expect([...r4.watching.keys()].sort()).toEqual(moved.sort());

    // A clean stop hands everything back at once.
    await r4.ownership.stop();
    for (const r of rs) await r.ownership.tick();
    const final = await owners(pool);
    expect(Object.values(final).every((o) => o !== null && o !== 'r4')).toBe(true);
    for (const r of rs) await r.ownership.stop();
  });
});

describe('change stream', () => {
  async function follower(url: string, pool: pg.Pool, from = 0): Promise<{ f: ChangeFollower; seen: Change[]; reloads: number[] }> {
    const seen: Change[] = [];
    const reloads: number[] = [];
    const f = new ChangeFollower({
      connection: { connectionString: url },
      pool,
      fromSeq: from,
      pollMs: 3_600_000, // only NOTIFY and the reconnect wake it here
      onChanges: (batch) => {
        seen.push(...batch);
      },
      onBehindHorizon: async () => {
        reloads.push(f.lastSeq);
        f.resetTo(await headSeq(pool));
      },
    });
    await f.start();
    return { f, seen, reloads };
  }

  async function write(pool: pg.Pool, cluster: string, fence: number, ids: string[]): Promise<number[]> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const seqs = await appendChanges(
        client,
        cluster,
        fence,
        ids.map((id) => ({ kind: 'autoscaler', id, body: { id } })),
      );
      await client.query('COMMIT');
      return seqs;
    } finally {
      client.release();
    }
  }

  it('wakes followers through NOTIFY and delivers every change in order', async () => {
    const { url, pool } = await freshDatabase();
    const fences = await ownAll(pool, 'w', 60_000, ['a', 'b']);
    const { f, seen } = await follower(url, pool);
    await write(pool, 'a', fences.get('a')!, ['a/1', 'a/2']);
    await write(pool, 'b', fences.get('b')!, ['b/1']);
    await until(() => seen.length === 3);
    expect(seen.map((c) => [c.seq, c.cluster, c.id, c.body])).toEqual([
      [1, 'a', 'a/1', { id: 'a/1' }],
      [2, 'a', 'a/2', { id: 'a/2' }],
      [3, 'b', 'b/1', { id: 'b/1' }],
    ]);
    expect(await f.lag()).toBe(0);
    await f.stop();
  });

  it('numbers changes in commit order, so a transaction that commits late is not skipped', async () => {
    const { url, pool } = await freshDatabase();
    const fences = await ownAll(pool, 'w', 60_000, ['a', 'b']);
    const { f, seen } = await follower(url, pool);
    const slow = await pool.connect();
    try {
      await slow.query('BEGIN');
      const [slowSeq] = await appendChanges(slow, 'a', fences.get('a')!, [{ kind: 'autoscaler', id: 'a/slow', body: null }]);
      let fastDone = false;
      const fast = write(pool, 'b', fences.get('b')!, ['b/fast']).then((s) => {
        fastDone = true;
        return s;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(fastDone).toBe(false); // waits for the earlier seq to commit
      await slow.query('COMMIT');
      const [fastSeq] = await fast;
      expect(fastSeq).toBeGreaterThan(slowSeq!);
    } finally {
      slow.release();
    }
    await until(() => seen.length === 2);
    expect(seen.map((c) => c.id)).toEqual(['a/slow', 'b/fast']);
    await f.stop();
  });

  it('resumes after its connection is cut, with what was written meanwhile', async () => {
    const { url, pool } = await freshDatabase();
    const fence = (await ownAll(pool, 'w', 60_000, ['a'])).get('a')!;
    const { f, seen } = await follower(url, pool);
    await write(pool, 'a', fence, ['a/1']);
    await until(() => seen.length === 1);
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN ${'autoscope_changes'}' AND datname = current_database()`,
    );
    await write(pool, 'a', fence, ['a/2', 'a/3']);
    await until(() => seen.length === 3);
    expect(seen.map((c) => c.id)).toEqual(['a/1', 'a/2', 'a/3']);
    await write(pool, 'a', fence, ['a/4']);
    await until(() => seen.length === 4); // and it listens again
    await f.stop();
  });

  it('sends a follower behind the pruned horizon to reload instead of skipping', async () => {
    const { url, pool } = await freshDatabase();
    const fence = (await ownAll(pool, 'w', 60_000, ['a'])).get('a')!;
    await write(pool, 'a', fence, ['a/1', 'a/2']);
    expect(await pruneChanges(pool, new Date(Date.now() + 1000))).toBe(2);
    await write(pool, 'a', fence, ['a/3']);
    const { f, seen, reloads } = await follower(url, pool, 0);
    expect(reloads).toEqual([0]);
    expect(f.lastSeq).toBe(3);
    expect(seen).toEqual([]);
    await write(pool, 'a', fence, ['a/4']);
    await until(() => seen.length === 1);
    expect(seen.map((c) => c.id)).toEqual(['a/4']);
    await f.stop();
  });
});
