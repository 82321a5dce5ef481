import 'server-only';
import pg from 'pg';
import type { ClientBase, Pool, PoolConfig } from 'pg';
import { inTransaction } from './transaction';

export const CHANGE_CHANNEL = 'autoscope_changes';
/** Notified when a replica frees a lease (a handoff, a clean stop), so its next owner takes it now, not next round. */
export const LEASE_CHANNEL = 'autoscope_leases';

/** One entry of the change stream: what happened to one id of one cluster. */
export interface Change {
  seq: number;
  cluster: string;
  /** `autoscaler` (body: the DTO), `autoscaler-deleted`, `cluster-state`, `transition`, … — the reader decides. */
  kind: string;
  id: string;
  body: unknown;
  at: Date;
}

export type NewChange = Pick<Change, 'kind' | 'id' | 'body'>;

/**
 * Appends changes for one cluster, inside the caller's transaction (with the current-state writes they describe,
 * so a follower never sees a change whose state is not there). The fence trigger rejects them unless `fence` is
 * the cluster's current lease; the sequence trigger numbers them in commit order; followers are woken by NOTIFY at
 * commit. Returns the assigned seqs.
 */
export async function appendChanges(client: ClientBase, cluster: string, fence: number, changes: readonly NewChange[]): Promise<number[]> {
  if (changes.length === 0) return [];
  const { rows } = await client.query<{ seq: string }>(
    `INSERT INTO changes (cluster, fence, kind, id, body)
     SELECT $1, $2, c.kind, c.id, c.body FROM jsonb_to_recordset($3::jsonb) AS c(kind TEXT, id TEXT, body JSONB)
     RETURNING seq::text AS seq`,
    [cluster, fence, JSON.stringify(changes.map((c) => ({ kind: c.kind, id: c.id, body: c.body ?? null })))],
  );
  return rows.map((r) => Number(r.seq));
}

/** The newest seq in the stream (0 when empty). */
export async function headSeq(db: Pool | ClientBase): Promise<number> {
  const { rows } = await db.query<{ head: string }>(`SELECT COALESCE(MAX(seq), 0)::text AS head FROM changes`);
  return Number(rows[0]?.head ?? 0);
}

/**
 * Retention for the stream: deletes changes older than `before` and raises the horizon to the highest deleted seq,
 * so a follower that had not read them knows to reload instead of silently missing them.
 */
export async function pruneChanges(pool: Pool, before: Date): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ n: string; top: string | null }>(
      `WITH gone AS (DELETE FROM changes WHERE at < $1 RETURNING seq) SELECT COUNT(*)::text AS n, MAX(seq)::text AS top FROM gone`,
      [before],
    );
    const top = rows[0]?.top;
    if (top) await client.query('UPDATE change_stream SET horizon = GREATEST(horizon, $1)', [top]);
    return Number(rows[0]?.n ?? 0);
  });
}

export interface ChangeFollowerOptions {
  /** Connection for the dedicated LISTEN session (a pooled connection cannot hold a LISTEN). */
  connection: PoolConfig;
  pool: Pool;
  /** The seq this follower has applied up to (from its snapshot). */
  fromSeq: number;
  /** Applies a batch, in seq order. Called one batch at a time. */
  onChanges(changes: Change[]): void | Promise<void>;
  /** The stream was pruned past what this follower applied: reload the current state, then `resetTo(seq)`. */
  onBehindHorizon(): void | Promise<void>;
  /** A lease was freed (LEASE_CHANNEL): the ownership round runs at once. */
  onLeaseFreed?(): void;
  /** A safety net besides NOTIFY (which is lost while disconnected); the reconnect also reads what was missed. */
  pollMs?: number;
  batchSize?: number;
  onError?(error: unknown): void;
}

/**
 * Follows the change stream: a LISTEN session wakes it, and it reads `seq > last` in batches, so a notification
 * lost to a disconnect costs nothing — after reconnecting it resumes from the last seq it applied.
 */
export class ChangeFollower {
  private last: number;
  private listener: pg.Client | null = null;
  private pulling: Promise<void> | null = null;
  /** Wake-ups so far: a pull in progress runs once more if one came in while it read. */
  private wakeups = 0;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private backoffMs = 250;

  constructor(private readonly options: ChangeFollowerOptions) {
    this.last = options.fromSeq;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** After a reload: continue from the seq the new snapshot reflects. */
  resetTo(seq: number): void {
    this.last = seq;
  }

  async start(): Promise<void> {
    await this.listen();
    await this.pull();
    this.poll = setInterval(() => void this.pull(), this.options.pollMs ?? 5000);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.options.connection);
    client.on('notification', (message) => {
      if (message.channel === LEASE_CHANNEL) this.options.onLeaseFreed?.();
      else void this.pull();
    });
    const lost = (error?: unknown): void => {
      if (this.listener !== client) return;
      this.listener = null;
      if (error) this.options.onError?.(error);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    if (this.options.onLeaseFreed) await client.query(`LISTEN ${LEASE_CHANNEL}`);
    this.listener = client;
    this.backoffMs = 250;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      this.listen()
        .then(() => this.pull())
        .catch((error: unknown) => {
          this.options.onError?.(error);
          this.backoffMs = Math.min(this.backoffMs * 2, 10_000);
          this.scheduleReconnect();
        });
    }, this.backoffMs);
  }

  /** Reads and applies everything after the last applied seq. Concurrent calls coalesce into one more round. */
  pull(): Promise<void> {
    this.wakeups++;
    if (this.pulling) return this.pulling;
    this.pulling = (async () => {
      for (;;) {
        const seen = this.wakeups;
        try {
          await this.readAll();
        } catch (error) {
          this.options.onError?.(error);
        }
        if (seen === this.wakeups || this.stopped) return;
      }
    })().finally(() => {
      this.pulling = null;
    });
    return this.pulling;
  }

  private async readAll(): Promise<void> {
    const { pool, batchSize = 1000 } = this.options;
    for (;;) {
      if (this.stopped) return;
      const horizon = Number(
        (await pool.query<{ horizon: string }>('SELECT horizon::text AS horizon FROM change_stream')).rows[0]?.horizon ?? 0,
      );
      if (this.last < horizon) {
        await this.options.onBehindHorizon();
        if (this.last < horizon) return; // the reload did not move us; try again at the next wake-up
      }
      const { rows } = await pool.query<{ seq: string; cluster: string; kind: string; id: string; body: unknown; at: Date }>(
        `SELECT seq::text AS seq, cluster, kind, id, body, at FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [this.last, batchSize],
      );
      if (rows.length === 0) return;
      const batch = rows.map((r) => ({ ...r, seq: Number(r.seq) }));
      await this.options.onChanges(batch);
      this.last = batch[batch.length - 1]?.seq ?? this.last;
      if (rows.length < batchSize) return;
    }
  }

  /** How many changes this follower has not applied yet (0: its index has caught up). */
  async lag(): Promise<number> {
    return Math.max(0, (await headSeq(this.options.pool)) - this.last);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = null;
    await this.pulling;
    await client?.end().catch(() => undefined);
  }
}
