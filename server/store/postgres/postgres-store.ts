import 'server-only';
import type { Pool, PoolClient } from 'pg';
import type { AutoscalerKind, ClusterState, EventDto, HistoryResponse, Transition } from '@/lib/api';
import { parseAutoscalerId } from '@/lib/api';
import { clusterGaps, conditionSegments, toTransitions } from '@/server/history/read-model';
import type { SegmentStartRow, TransitionRowRead } from '@/server/history/read-model';
import type { HistoryWrite, ObjectRow, RecorderSnapshot, ReplicaSample, TransitionRow } from '@/server/history/recorder';
import type { AutoscopeStore } from '@/server/history/store';
import { RecordingStore } from '@/server/history/store';
import { appendChanges, headSeq, pruneChanges } from './change-stream';
import { isFencedError, migratePostgres } from './migrations';
import { PartitionManager } from './partitions';
import { inTransaction } from './transaction';

export interface PostgresStoreOptions {
  pool: Pool;
  retentionDays: number;
  /**
   * The lease token this process writes a cluster's rows with, or undefined when it does not own the cluster:
   * those writes are dropped (the owner records them). A Karmada member `<cp>/<member>` is written under its
   * control plane's token.
   */
  fenceOf(cluster: string): number | undefined;
  /** Told how long each write (one transaction per cluster of queued changes) took, in seconds. */
  onWrite?(seconds: number): void;
  /** The database refused a write of `cluster`: this process no longer holds its lease. */
  onFenced?(cluster: string): void;
  /** A write failed for another reason; it is retried. */
  onError?(error: unknown): void;
  /** How long to wait before retrying a failed write (tests shorten it). */
  retryMs?: number;
}

const retryCapMs = 5_000;

/** A timestamptz as the API's times: `toISOString()`. */
function t(d: Date): string;
function t(d: Date | null): string | null;
function t(d: Date | null): string | null {
  return d === null ? null : d.toISOString();
}

/** `map` keyed by `key`, keeping the last value pushed for each key, in the order each key was first seen. */
function lastBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const m = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    m.delete(k);
    m.set(k, item);
  }
  return [...m.values()];
}

/**
 * The history store on PostgreSQL, for Autoscope run as a shared service (docs/scale-out.md): what is recorded is
 * decided by the same `HistoryRecorder` as on SQLite; this class writes its decisions, one transaction per cluster
 * per turn of the event loop, each row carrying the cluster's lease token so that the database refuses a process
 * that lost the lease (the fence trigger, migrations.ts). Transitions and replica samples go to monthly partitions;
 * the open segment of each condition and the last sample of each autoscaler are kept beside them
 * (`condition_state`, `replica_state`), so retention can drop whole months and a restart reads back what is open.
 *
 * Writes queue in order: a batch starts after the one before it committed (or was refused), and a failed batch is
 * retried, so the order of what was observed is the order of what is stored. Reads wait for every write queued
 * before them.
 */
export class PostgresStore extends RecordingStore implements AutoscopeStore {
  private readonly pool: Pool;
  private readonly partitions: PartitionManager;
  private writing: Promise<void> = Promise.resolve();
  /** Writes of clusters this process did not own when they were written, dropped. */
  droppedWrites = 0;
  /** Settles once the migrations are applied: retention waits for it (the process prunes as it starts). */
  private markMigrated: () => void = () => undefined;
  private readonly migrated = new Promise<void>((resolve) => {
    this.markMigrated = resolve;
  });

  /** Nothing is read or written before `start()`; then `adopt` each cluster before watching it. */
  constructor(private readonly options: PostgresStoreOptions) {
    super();
    this.pool = options.pool;
    this.partitions = new PartitionManager(options.pool);
  }

  /** Applies the migrations (replicas starting together take turns). */
  async start(): Promise<void> {
    await migratePostgres(this.pool);
    this.markMigrated();
  }

  /** A started store with nothing loaded yet. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    await store.start();
    return store;
  }

  /**
   * Reads back what is open for one cluster and its Karmada members (objects not deleted, their open segments,
   * their last replica samples), before this process starts watching it: after a restart or a takeover from
   * another replica, nothing already recorded is recorded again.
   */
  async adopt(cluster: string): Promise<void> {
    const inCluster = `(cluster = $1 OR regexp_replace(cluster, '/[^/]*$', '') = $1)`;
    const objects = (
      await this.pool.query<{ id: string; uid: string; firstSeen: Date }>(
        `SELECT id, uid, first_seen AS "firstSeen" FROM objects WHERE ${inCluster} AND deleted_at IS NULL`,
        [cluster],
      )
    ).rows;
    const open = (
      await this.pool.query<{
        id: string;
        type: string;
        status: string;
        reason: string | null;
        message: string | null;
        at: Date;
        reasonSince: Date;
        uid: string;
      }>(`SELECT id, type, status, reason, message, at, reason_since AS "reasonSince", uid FROM condition_state WHERE ${inCluster}`, [
        cluster,
      ])
    ).rows;
    const samples = (
      await this.pool.query<{ id: string } & ReplicaSample>(`SELECT id, current, desired, min, max FROM replica_state WHERE ${inCluster}`, [
        cluster,
      ])
    ).rows;
    const snapshot: RecorderSnapshot = {
      objects: objects.map((o) => ({ id: o.id, uid: o.uid, firstSeen: t(o.firstSeen) })),
      open: open.map((r) => ({ ...r, at: t(r.at), reasonSince: t(r.reasonSince) })),
      samples,
    };
    this.recorder.restore(snapshot);
  }

  /** Forgets what this process knew of a cluster it no longer owns (a later `adopt` reads it back afresh). */
  forget(cluster: string): void {
    this.recorder.forgetCluster(cluster);
  }

  protected flushQueued(): Promise<void> {
    const writes = this.takeQueued();
    if (writes.length > 0) {
      const batch = writes;
      this.writing = this.writing.then(() => this.writeBatch(batch));
    }
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** One transaction per cluster, side by side; a cluster's batch is retried until it commits or is refused. */
  private async writeBatch(writes: HistoryWrite[]): Promise<void> {
    const byCluster = new Map<string, HistoryWrite[]>();
    for (const w of writes) {
      const list = byCluster.get(w.cluster) ?? [];
      list.push(w);
      byCluster.set(w.cluster, list);
    }
    await Promise.all(
      [...byCluster].map(async ([cluster, list]) => {
        for (let attempt = 0; ; attempt++) {
          const fence = this.options.fenceOf(cluster);
          if (fence === undefined) {
            this.droppedWrites += list.length;
            return;
          }
          const started = performance.now();
          try {
            await this.writeCluster(cluster, fence, list);
            this.options.onWrite?.((performance.now() - started) / 1000);
            return;
          } catch (error) {
            if (isFencedError(error)) {
              this.droppedWrites += list.length;
              this.options.onFenced?.(cluster);
              return;
            }
            this.options.onError?.(error);
            const wait = Math.min(retryCapMs, (this.options.retryMs ?? 250) * 2 ** attempt);
            await new Promise((r) => setTimeout(r, wait));
          }
        }
      }),
    );
  }

  private async writeCluster(cluster: string, fence: number, writes: readonly HistoryWrite[]): Promise<void> {
    const transitions: TransitionRow[] = [];
    const samples: { id: string; at: string; sample: ReplicaSample }[] = [];
    const messages: { id: string; type: string; message: string | null }[] = [];
    const events: { id: string; event: EventDto }[] = [];
    const states: { state: ClusterState; at: string; error: string | null }[] = [];
    const current: { id: string; body: unknown }[] = [];
    let status: unknown = undefined;
    // What each object's row is after this batch: an upsert (with the deletion if one followed), or a deletion alone.
    const objects = new Map<string, { row: ObjectRow; deletedAt: string | null }>();
    const deletions = new Map<string, string>();
    for (const w of writes) {
      switch (w.op) {
        case 'object':
          objects.set(w.row.id, { row: w.row, deletedAt: null });
          deletions.delete(w.row.id);
          break;
        case 'deleted': {
          const o = objects.get(w.id);
          if (o) o.deletedAt = w.at;
          else deletions.set(w.id, w.at);
          break;
        }
        case 'transition':
          transitions.push(w.row);
          break;
        case 'message':
          messages.push(w);
          break;
        case 'sample':
          samples.push(w);
          break;
        case 'event':
          events.push(w);
          break;
        case 'clusterState':
          states.push(w);
          break;
        case 'current':
          current.push(w);
          break;
        case 'status':
          status = w.status;
          break;
      }
    }
    await this.partitions.ensureFor(
      'condition_transitions',
      [...new Set(transitions.map((r) => r.at))].map((a) => new Date(a)),
    );
    await this.partitions.ensureFor(
      'replica_samples',
      [...new Set(samples.map((s) => s.at))].map((a) => new Date(a)),
    );

    await inTransaction(this.pool, async (c) => {
      // A message change of a segment committed earlier (one still queued was folded into its row).
      const msgs = lastBy(messages, (m) => `${m.id}\u0000${m.type}`);
      if (msgs.length > 0) {
        const args = [msgs.map((m) => m.id), msgs.map((m) => m.type), msgs.map((m) => m.message), fence];
        await c.query(
          `UPDATE condition_transitions t SET message = u.message, fence = $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, type, message)
         JOIN condition_state s ON s.id = u.id AND s.type = u.type
         WHERE t.id = u.id AND t.type = u.type AND t.at = s.at AND t.status = s.status AND t.reason IS NOT DISTINCT FROM s.reason`,
          args,
        );
        await c.query(
          `UPDATE condition_state s SET message = u.message, fence = $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, type, message) WHERE s.id = u.id AND s.type = u.type`,
          args,
        );
      }
      await this.writeObjects(c, fence, [...objects.values()], deletions);
      if (transitions.length > 0) await this.writeTransitions(c, fence, transitions);
      if (samples.length > 0) {
        const columns = (list: readonly { id: string; at: string; sample: ReplicaSample }[]): unknown[] => [
          list.map((s) => s.id),
          list.map((s) => s.at),
          list.map((s) => s.sample.current),
          list.map((s) => s.sample.desired),
          list.map((s) => s.sample.min),
          list.map((s) => s.sample.max),
          cluster,
          fence,
        ];
        const rows = `SELECT u.id, $7, $8, u.at, u.current, u.desired, u.min, u.max
         FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[]) AS u(id, at, current, desired, min, max)`;
        await c.query(
          `INSERT INTO replica_samples (id, cluster, fence, at, current, desired, min, max) ${rows}`,
          columns(lastBy(samples, (s) => `${s.id}\u0000${s.at}`)),
        );
        await c.query(
          `INSERT INTO replica_state (id, cluster, fence, at, current, desired, min, max) ${rows}
         ON CONFLICT (id) DO UPDATE SET cluster = EXCLUDED.cluster, fence = EXCLUDED.fence, at = EXCLUDED.at,
           current = EXCLUDED.current, desired = EXCLUDED.desired, min = EXCLUDED.min, max = EXCLUDED.max`,
          columns(lastBy(samples, (s) => s.id)),
        );
      }
      if (events.length > 0) {
        const es = lastBy(events, (e) => e.event.uid);
        await c.query(
          `INSERT INTO events (uid, id, cluster, fence, type, reason, message, count, first_seen, last_seen, source, regarding)
         SELECT u.uid, u.id, $11, $12, u.type, u.reason, u.message, u.count, u.first_seen, u.last_seen, u.source, u.regarding
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamptz[], $8::timestamptz[],
                     $9::text[], $10::text[]) AS u(uid, id, type, reason, message, count, first_seen, last_seen, source, regarding)
         ON CONFLICT (uid) DO UPDATE SET count = EXCLUDED.count, last_seen = EXCLUDED.last_seen, message = EXCLUDED.message,
           fence = EXCLUDED.fence`,
          [
            es.map((e) => e.event.uid),
            es.map((e) => e.id),
            es.map((e) => e.event.type),
            es.map((e) => e.event.reason),
            es.map((e) => e.event.message),
            es.map((e) => e.event.count),
            es.map((e) => e.event.firstSeen),
            es.map((e) => e.event.lastSeen),
            es.map((e) => e.event.source),
            es.map((e) => e.event.regarding),
            cluster,
            fence,
          ],
        );
      }
      if (states.length > 0) {
        await c.query(
          `INSERT INTO cluster_states (cluster, fence, state, at, error)
         SELECT $4, $5, u.state, u.at, u.error FROM unnest($1::text[], $2::timestamptz[], $3::text[]) WITH ORDINALITY AS u(state, at, error, ord)
         ORDER BY u.ord`,
          [states.map((s) => s.state), states.map((s) => s.at), states.map((s) => s.error), cluster, fence],
        );
      }
      await this.writeCurrent(c, cluster, fence, current, status);
    });
  }

  /**
   * What the replicas that follow this cluster need, in the same transaction as the history it goes with: each
   * autoscaler's current state (a tombstone when gone) and the cluster's status, in the current-state tables and
   * as entries of the change stream.
   */
  private async writeCurrent(
    c: PoolClient,
    cluster: string,
    fence: number,
    current: readonly { id: string; body: unknown }[],
    status: unknown,
  ): Promise<void> {
    const latest = lastBy(current, (x) => x.id);
    if (latest.length > 0) {
      await c.query(
        `INSERT INTO autoscalers (id, cluster, fence, body, updated_at, deleted_at)
         SELECT u.id, $2, $3, u.body, clock_timestamp(), CASE WHEN u.body IS NULL THEN clock_timestamp() END
         FROM jsonb_to_recordset($1::jsonb) AS u(id TEXT, body JSONB)
         ON CONFLICT (id) DO UPDATE SET cluster = EXCLUDED.cluster, fence = EXCLUDED.fence, body = EXCLUDED.body,
           updated_at = EXCLUDED.updated_at, deleted_at = EXCLUDED.deleted_at`,
        [JSON.stringify(latest.map((x) => ({ id: x.id, body: x.body ?? null }))), cluster, fence],
      );
    }
    if (status !== undefined) {
      await c.query(
        `INSERT INTO cluster_status (cluster, fence, body) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (cluster) DO UPDATE SET fence = EXCLUDED.fence, body = EXCLUDED.body, updated_at = clock_timestamp()`,
        [cluster, fence, JSON.stringify(status)],
      );
    }
    await appendChanges(c, cluster, fence, [
      ...latest.map((x) => ({ kind: 'autoscaler', id: x.id, body: x.body ?? null })),
      ...(status !== undefined ? [{ kind: 'cluster', id: cluster, body: status }] : []),
    ]);
  }

  /** Queues an autoscaler's current state (null: gone) for the replicas that follow its cluster. */
  publishAutoscaler(cluster: string, id: string, body: unknown): void {
    this.enqueue({ op: 'current', cluster, id, body });
  }

  /** Queues a cluster's status for the replicas that follow it. */
  publishClusterStatus(cluster: string, status: unknown): void {
    this.enqueue({ op: 'status', cluster, status });
  }

  /**
   * Everything the owners published, as of one point of the change stream: follow from `seq` and nothing is
   * missed or applied twice (seqs are assigned in commit order).
   */
  async loadCurrent(): Promise<{
    seq: number;
    autoscalers: { id: string; cluster: string; body: unknown }[];
    clusters: { cluster: string; body: unknown }[];
  }> {
    return inTransaction(
      this.pool,
      async (c) => {
        const seq = await headSeq(c);
        const autoscalers = (
          await c.query<{ id: string; cluster: string; body: unknown }>(
            'SELECT id, cluster, body FROM autoscalers WHERE deleted_at IS NULL',
          )
        ).rows;
        const clusters = (await c.query<{ cluster: string; body: unknown }>('SELECT cluster, body FROM cluster_status')).rows;
        return { seq, autoscalers, clusters };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  private async writeObjects(
    c: PoolClient,
    fence: number,
    upserts: readonly { row: ObjectRow; deletedAt: string | null }[],
    deletions: ReadonlyMap<string, string>,
  ): Promise<void> {
    if (upserts.length > 0) {
      await c.query(
        `INSERT INTO objects (id, cluster, fence, kind, namespace, name, uid, first_seen, deleted_at)
         SELECT u.id, u.cluster, $9, u.kind, u.namespace, u.name, u.uid, u.first_seen, u.deleted_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[])
           AS u(id, cluster, kind, namespace, name, uid, first_seen, deleted_at)
         ON CONFLICT (id) DO UPDATE SET cluster = EXCLUDED.cluster, fence = EXCLUDED.fence, uid = EXCLUDED.uid,
           first_seen = EXCLUDED.first_seen, deleted_at = EXCLUDED.deleted_at`,
        [
          upserts.map((o) => o.row.id),
          upserts.map((o) => o.row.cluster),
          upserts.map((o) => o.row.kind),
          upserts.map((o) => o.row.namespace),
          upserts.map((o) => o.row.name),
          upserts.map((o) => o.row.uid),
          upserts.map((o) => o.row.firstSeen),
          upserts.map((o) => o.deletedAt),
          fence,
        ],
      );
    }
    if (deletions.size > 0) {
      await c.query(
        `UPDATE objects o SET deleted_at = u.at, fence = $3 FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE o.id = u.id`,
        [[...deletions.keys()], [...deletions.values()], fence],
      );
    }
  }

  private async writeTransitions(c: PoolClient, fence: number, rows: readonly TransitionRow[]): Promise<void> {
    const col = <K extends keyof TransitionRow>(k: K): TransitionRow[K][] => rows.map((r) => r[k]);
    await c.query(
      `INSERT INTO condition_transitions (id, cluster, fence, kind, namespace, name, uid, type, status, reason, message, at,
         reason_since, prev_status, prev_reason, notable, resource_version)
       SELECT u.id, u.cluster, $17, u.kind, u.namespace, u.name, u.uid, u.type, u.status, u.reason, u.message, u.at,
         u.reason_since, u.prev_status, u.prev_reason, u.notable, u.resource_version
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::timestamptz[], $12::timestamptz[], $13::text[], $14::text[], $15::boolean[], $16::text[])
         WITH ORDINALITY AS u(id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since,
                              prev_status, prev_reason, notable, resource_version, ord)
       ORDER BY u.ord`,
      [
        col('id'),
        col('cluster'),
        col('kind'),
        col('namespace'),
        col('name'),
        col('uid'),
        col('type'),
        col('status'),
        col('reason'),
        col('message'),
        col('at'),
        col('reasonSince'),
        col('prevStatus'),
        col('prevReason'),
        col('notable'),
        col('resourceVersion'),
        fence,
      ],
    );
    // The open segment of each condition is its latest transition.
    const open = lastBy(rows, (r) => `${r.id}\u0000${r.type}`);
    await c.query(
      `INSERT INTO condition_state (id, type, cluster, fence, uid, status, reason, message, at, reason_since)
       SELECT u.id, u.type, u.cluster, $10, u.uid, u.status, u.reason, u.message, u.at, u.reason_since
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[])
         AS u(id, type, cluster, uid, status, reason, message, at, reason_since)
       ON CONFLICT (id, type) DO UPDATE SET cluster = EXCLUDED.cluster, fence = EXCLUDED.fence, uid = EXCLUDED.uid,
         status = EXCLUDED.status, reason = EXCLUDED.reason, message = EXCLUDED.message, at = EXCLUDED.at,
         reason_since = EXCLUDED.reason_since`,
      [
        open.map((r) => r.id),
        open.map((r) => r.type),
        open.map((r) => r.cluster),
        open.map((r) => r.uid),
        open.map((r) => r.status),
        open.map((r) => r.reason),
        open.map((r) => r.message),
        open.map((r) => r.at),
        open.map((r) => r.reasonSince),
        fence,
      ],
    );
  }

  async history(id: string, kind: AutoscalerKind, from: string, to: string): Promise<Omit<HistoryResponse, 'id' | 'from' | 'to'>> {
    this.writeFirstSightOf(id);
    await this.flushQueued();
    type Row = Omit<SegmentStartRow, 'at'> & { at: Date };
    const rows = (
      await this.pool.query<Row>(
        'SELECT type, status, reason, message, at FROM condition_transitions WHERE id = $1 ORDER BY type, at, seq',
        [id],
      )
    ).rows;
    // A condition whose every transition aged out of retention is still open: its start is kept in condition_state.
    const withTransitions = new Set(rows.map((r) => r.type));
    const open = (
      await this.pool.query<Row>('SELECT type, status, reason, message, at FROM condition_state WHERE id = $1', [id])
    ).rows.filter((r) => !withTransitions.has(r.type));
    const starts = [...rows, ...open]
      .map((r) => ({ ...r, at: t(r.at) }))
      .sort((a, b) => (a.type === b.type ? 0 : a.type < b.type ? -1 : 1));
    const conditions = conditionSegments(kind, starts, from, to);

    type Sample = { at: Date; current: number | null; desired: number | null; min: number | null; max: number | null };
    const inside = (
      await this.pool.query<Sample>(
        'SELECT at, current, desired, min, max FROM replica_samples WHERE id = $1 AND at BETWEEN $2 AND $3 ORDER BY at',
        [id, from, to],
      )
    ).rows;
    // The replicas at the window's start: the last sample before it (kept in replica_state when its month was dropped).
    let before = (
      await this.pool.query<Sample>(
        'SELECT at, current, desired, min, max FROM replica_samples WHERE id = $1 AND at < $2 ORDER BY at DESC LIMIT 1',
        [id, from],
      )
    ).rows;
    if (before.length === 0)
      before = (
        await this.pool.query<Sample>('SELECT at, current, desired, min, max FROM replica_state WHERE id = $1 AND at < $2', [id, from])
      ).rows;
    const replicas = [...before, ...inside].map((s) => ({ ...s, at: t(s.at) }));

    const events = await this.readEvents(id, 500, from, to);
    const ref = parseAutoscalerId(id);
    const states = ref
      ? (
          await this.pool.query<{ state: ClusterState; at: Date }>('SELECT state, at FROM cluster_states WHERE cluster = $1 ORDER BY seq', [
            ref.cluster,
          ])
        ).rows.map((s) => ({ state: s.state, at: t(s.at) }))
      : [];
    return { firstSeen: this.firstSeen(id), conditions, replicas, events, gaps: clusterGaps(states, from, to) };
  }

  async events(id: string, limit: number, from?: string, to?: string): Promise<EventDto[]> {
    await this.flushQueued();
    return this.readEvents(id, limit, from, to);
  }

  private async readEvents(id: string, limit: number, from?: string, to?: string): Promise<EventDto[]> {
    const { rows } = await this.pool.query<Omit<EventDto, 'firstSeen' | 'lastSeen'> & { firstSeen: Date | null; lastSeen: Date | null }>(
      `SELECT uid, type, reason, message, count, first_seen AS "firstSeen", last_seen AS "lastSeen", source, regarding FROM events
       WHERE id = $1 AND ($2::timestamptz IS NULL OR last_seen >= $2) AND ($3::timestamptz IS NULL OR COALESCE(first_seen, last_seen) <= $3)
       ORDER BY last_seen DESC NULLS LAST LIMIT $4`,
      [id, from ?? null, to ?? null, limit],
    );
    return rows.map((e) => ({ ...e, firstSeen: t(e.firstSeen), lastSeen: t(e.lastSeen) }));
  }

  async latestTransitions(limit: number, cluster?: string, notableOnly = false): Promise<Transition[]> {
    await this.flush();
    const { rows } = await this.pool.query<Omit<TransitionRowRead, 'at'> & { at: Date }>(
      `SELECT id, cluster, kind, namespace, name, type, status, reason, message, at, prev_status AS "prevStatus",
         prev_reason AS "prevReason", notable
       FROM condition_transitions
       WHERE ${notableOnly ? 'notable AND ' : ''}reason IS DISTINCT FROM 'Deleted' AND ($1::text IS NULL OR cluster = $1)
       ORDER BY at DESC, seq DESC LIMIT $2`,
      [cluster ?? null, limit],
    );
    return toTransitions(rows.map((r) => ({ ...r, at: t(r.at) })));
  }

  async countTransitions(id: string): Promise<number> {
    this.writeFirstSightOf(id);
    await this.flushQueued();
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM condition_transitions WHERE id = $1', [id]);
    return rows[0]?.n ?? 0;
  }

  /**
   * Retention. Transitions and samples go a month at a time (a month is dropped once all of it is older than the
   * window), so rows live between the window and the window plus a month; the open segments and last samples stay
   * in condition_state and replica_state. An object deleted before the window leaves nothing; events and cluster
   * states older than the window go, but each cluster's latest state stays (an ongoing outage is still a gap).
   * Deletes need no lease: any replica may prune, and pruning twice is pruning once.
   */
  async prune(now: Date): Promise<void> {
    // On a fresh database the first prune comes before the tables exist ("relation … does not exist" in the log).
    await this.migrated;
    // Not the deferred first sights: each is the latest point of its series, which retention keeps.
    await this.flushQueued();
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 24 * 3600_000);
    await inTransaction(this.pool, async (c) => {
      const gone = 'SELECT id FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < $1';
      for (const table of ['condition_transitions', 'replica_samples', 'events', 'condition_state', 'replica_state'])
        await c.query(`DELETE FROM ${table} WHERE id IN (${gone})`, [cutoff]);
      await c.query('DELETE FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < $1', [cutoff]);
      await c.query('DELETE FROM events WHERE last_seen < $1', [cutoff]);
      await c.query(
        `DELETE FROM cluster_states s WHERE at < $1 AND seq <> (SELECT max(seq) FROM cluster_states l WHERE l.cluster = s.cluster)`,
        [cutoff],
      );
    });
    await this.partitions.dropBefore(cutoff);
    // The change stream only has to cover a follower's reconnect; one behind it reloads the current state.
    await pruneChanges(this.pool, new Date(now.getTime() - 3600_000));
  }
}
