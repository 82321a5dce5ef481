import 'server-only';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AutoscalerKind, ClusterState, EventDto, HistoryResponse, Transition } from '@/lib/api';
import { parseAutoscalerId } from '@/lib/api';
import { clusterGaps, conditionSegments, toTransitions } from './read-model';
import type { SegmentStartRow, TransitionRowRead } from './read-model';
import type { HistoryWrite, RecorderSnapshot } from './recorder';
import type { AutoscopeStore } from './store';
import { RecordingStore } from './store';
import { errorText, log } from '../log';
import { SqliteFile } from '../store/sqlite';
import type { SqliteWrite, SqliteWriter } from '../store/sqlite-writer';
import { startSqliteWriter } from '../store/sqlite-writer';
import type { WalCheckpointer } from '../store/wal-checkpointer';
import { startWalCheckpointer } from '../store/wal-checkpointer';

/** Versioned migrations, applied in order, each once (the `schema_migrations` table remembers). */
const migrations: string[] = [
  `CREATE TABLE objects (
     id TEXT PRIMARY KEY, cluster TEXT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
     uid TEXT NOT NULL, first_seen TEXT NOT NULL, deleted_at TEXT);
   CREATE TABLE condition_transitions (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, cluster TEXT NOT NULL, kind TEXT NOT NULL,
     namespace TEXT NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL,
     reason TEXT, message TEXT, at TEXT NOT NULL,
     reason_since TEXT NOT NULL);
   CREATE INDEX condition_transitions_by_id ON condition_transitions (id, type, at);
   CREATE INDEX condition_transitions_by_at ON condition_transitions (at);
   CREATE TABLE replica_samples (
     id TEXT NOT NULL, at TEXT NOT NULL, current INTEGER, desired INTEGER, min INTEGER, max INTEGER);
   CREATE INDEX replica_samples_by_id ON replica_samples (id, at);
   CREATE TABLE events (
     uid TEXT PRIMARY KEY, id TEXT NOT NULL, type TEXT NOT NULL, reason TEXT NOT NULL, message TEXT NOT NULL,
     count INTEGER NOT NULL, first_seen TEXT, last_seen TEXT, source TEXT, regarding TEXT NOT NULL);
   CREATE INDEX events_by_id ON events (id, last_seen);
   CREATE TABLE cluster_states (cluster TEXT NOT NULL, state TEXT NOT NULL, at TEXT NOT NULL, error TEXT);
   CREATE INDEX cluster_states_by_cluster ON cluster_states (cluster, at);`,
  // 2: each transition keeps what it replaced, and whether it is notable (a status flip or a change of
  // meaning), so the fleet feed can leave out AbleToScale=True's reason churn. Rows from before keep an
  // approximation: notable when the status changed.
  `ALTER TABLE condition_transitions ADD COLUMN prev_status TEXT;
   ALTER TABLE condition_transitions ADD COLUMN prev_reason TEXT;
   ALTER TABLE condition_transitions ADD COLUMN notable INTEGER NOT NULL DEFAULT 1;
   UPDATE condition_transitions SET (prev_status, prev_reason) = (
     SELECT p.status, p.reason FROM condition_transitions p
     WHERE p.id = condition_transitions.id AND p.type = condition_transitions.type AND p.seq < condition_transitions.seq
     ORDER BY p.seq DESC LIMIT 1);
   UPDATE condition_transitions SET notable = CASE WHEN prev_status IS NULL OR prev_status != status THEN 1 ELSE 0 END;
   CREATE INDEX condition_transitions_notable_by_at ON condition_transitions (notable, at);`,
  // 3: the resourceVersion of the object version each transition was seen in: which write of the API
  // server a row records (null for rows from before).
  `ALTER TABLE condition_transitions ADD COLUMN resource_version TEXT;`,
];

/** The longest one background write holds the event loop (ms), about one watch chunk's mapping. */
const WRITE_SLICE_MS = 5;

/** Pruning what left the retention window: (table) rows of objects deleted before the cutoff. */
const deletedBefore = 'SELECT id FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?';

/**
 * Every statement a write runs, by name; a write is encoded as the statement's index and its parameters
 * (`encode`), which either connection runs: the writer thread's (`writerThread`) or this one.
 */
const statementSql = {
  object: `INSERT INTO objects (id, cluster, kind, namespace, name, uid, first_seen, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
             ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, first_seen = excluded.first_seen, deleted_at = NULL`,
  deleted: 'UPDATE objects SET deleted_at = ? WHERE id = ?',
  transition: `INSERT INTO condition_transitions (id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since, prev_status, prev_reason, notable, resource_version)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  message:
    'UPDATE condition_transitions SET message = ? WHERE seq = (SELECT MAX(seq) FROM condition_transitions WHERE id = ? AND type = ?)',
  sample: 'INSERT INTO replica_samples (id, at, current, desired, min, max) VALUES (?, ?, ?, ?, ?, ?)',
  event: `INSERT INTO events (uid, id, type, reason, message, count, first_seen, last_seen, source, regarding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT(uid) DO UPDATE SET count = excluded.count, last_seen = excluded.last_seen, message = excluded.message`,
  clusterState: 'INSERT INTO cluster_states (cluster, state, at, error) VALUES (?, ?, ?, ?)',
  // Retention (`prune`), in this order, in one transaction. An object deleted before the window leaves no trace.
  pruneDeletedTransitions: `DELETE FROM condition_transitions WHERE id IN (${deletedBefore})`,
  pruneDeletedSamples: `DELETE FROM replica_samples WHERE id IN (${deletedBefore})`,
  pruneDeletedEvents: `DELETE FROM events WHERE id IN (${deletedBefore})`,
  pruneDeletedObjects: 'DELETE FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?',
  // Keep the latest transition of each (id, type): it is the open segment's start.
  pruneTransitions:
    'DELETE FROM condition_transitions WHERE at < ? AND seq NOT IN (SELECT MAX(seq) FROM condition_transitions GROUP BY id, type)',
  // Keep the latest sample of each id: a quiet autoscaler's replicas at the window's start.
  pruneSamples: 'DELETE FROM replica_samples WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM replica_samples GROUP BY id)',
  pruneEvents: 'DELETE FROM events WHERE last_seen < ?',
  // Keep each cluster's latest state: an outage that began before the window is still drawn as a gap.
  pruneClusterStates: 'DELETE FROM cluster_states WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM cluster_states GROUP BY cluster)',
} as const;
type StatementName = keyof typeof statementSql;
const statementNames = Object.keys(statementSql) as StatementName[];
const statementList: readonly string[] = statementNames.map((name) => statementSql[name]);
const op = Object.fromEntries(statementNames.map((name, i) => [name, i])) as Record<StatementName, number>;

/** A write as either connection runs it: which statement, with which parameters. */
type Encoded = SqliteWrite;

/** The statements one write runs (none for the shared stores' `current` and `status`: one process holds the whole index). */
function encode(w: HistoryWrite): Encoded | null {
  switch (w.op) {
    case 'object': {
      const o = w.row;
      return [op.object, [o.id, o.cluster, o.kind, o.namespace, o.name, o.uid, o.firstSeen]];
    }
    case 'deleted':
      return [op.deleted, [w.at, w.id]];
    case 'transition': {
      const r = w.row;
      return [
        op.transition,
        [
          r.id,
          r.cluster,
          r.kind,
          r.namespace,
          r.name,
          r.uid,
          r.type,
          r.status,
          r.reason,
          r.message,
          r.at,
          r.reasonSince,
          r.prevStatus,
          r.prevReason,
          r.notable ? 1 : 0,
          r.resourceVersion,
        ],
      ];
    }
    case 'message':
      return [op.message, [w.message, w.id, w.type]];
    case 'sample':
      return [op.sample, [w.id, w.at, w.sample.current, w.sample.desired, w.sample.min, w.sample.max]];
    case 'event': {
      const e = w.event;
      return [op.event, [e.uid, w.id, e.type, e.reason, e.message, e.count, e.firstSeen, e.lastSeen, e.source, e.regarding]];
    }
    case 'clusterState':
      return [op.clusterState, [w.cluster, w.state, w.at, w.error]];
    case 'current':
    case 'status':
      return null;
  }
}

/** Retention's statements for a cutoff, in the order they run. */
function pruneStatements(cutoff: string): Encoded[] {
  return [
    [op.pruneDeletedTransitions, [cutoff]],
    [op.pruneDeletedSamples, [cutoff]],
    [op.pruneDeletedEvents, [cutoff]],
    [op.pruneDeletedObjects, [cutoff]],
    [op.pruneTransitions, [cutoff]],
    [op.pruneSamples, [cutoff]],
    [op.pruneEvents, [cutoff]],
    [op.pruneClusterStates, [cutoff]],
  ];
}

export interface HistoryStoreOptions {
  dataDir: string;
  retentionDays: number;
  /** Told how long each write (one transaction of queued changes) took, in seconds; the metrics listen. */
  onWrite?: (seconds: number) => void;
  /**
   * Checkpoint the write-ahead log from a thread of its own (`startWalCheckpointer`) instead of on the commit that
   * fills it: the running server does; tests that open hundreds of stores do not need a thread each.
   */
  checkpointThread?: boolean;
  /** Told of each checkpoint that thread runs; the metrics count them. */
  onCheckpoint?: () => void;
  /**
   * Write from a thread of its own (`startSqliteWriter`) instead of on the event loop: the running server does;
   * reads then wait for what was queued before them to be committed. Tests that open hundreds of stores need no
   * thread each (the behavioural suite runs with and without one).
   */
  writerThread?: boolean;
  /** More settings for the writer thread's connection, after its own (tests: `query_only = 1` makes it fail). */
  writerPragmas?: string[];
}

/**
 * What the Kubernetes API does not keep — condition transitions, replica samples, events, cluster states — in
 * SQLite (WAL): the embedded default. What is recorded is decided by the `HistoryRecorder` (recorder.ts); this
 * class writes its decisions, one transaction per turn of the event loop (on the writer thread, the turns that waited
 * for it share one), and reads them back.
 */
export class HistoryStore extends RecordingStore implements AutoscopeStore {
  /** Its statements are compiled once (server/store/sqlite.ts): compiling one per write was about half of the history's cost (11% of a 100,000-HPA sync). */
  private readonly db: SqliteFile;
  /** Writes taken from the queue, `written` of them stored: what a slice (`flushSoon`) left for the next. */
  private backlog: Encoded[] = [];
  private written = 0;
  /** The thread writing, when `writerThread` asked for one and it has not failed. */
  private writer: SqliteWriter | null = null;
  /** Batches posted to the writer thread and not yet committed, in order (written here if the thread fails). */
  private posted: { id: number; writes: Encoded[]; done: () => void }[] = [];
  private lastPosted = 0;
  /** Resolves once the last batch posted is committed. */
  private committed: Promise<void> = Promise.resolve();

  constructor(readonly options: HistoryStoreOptions) {
    super();
    mkdirSync(options.dataDir, { recursive: true });
    this.db = new SqliteFile(path.join(options.dataDir, 'history.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.migrate();
    this.recorder.restore(this.snapshot());
    if (options.checkpointThread) {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = startWalCheckpointer(path.join(options.dataDir, 'history.db'), {
        ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
        onError: (error) => {
          // Back to SQLite's own checkpoints on commit: slower requests, but a log that never stops growing is worse.
          log.warn('history: the WAL checkpoint thread failed; checkpointing on commit', { error: errorText(error) });
          this.db.pragma('wal_autocheckpoint = 1000');
          this.writer?.pragma('wal_autocheckpoint = 1000');
        },
      });
    }
    if (options.writerThread) {
      const file = path.join(options.dataDir, 'history.db');
      this.writer = startSqliteWriter(file, {
        sql: statementList,
        // The connection that commits runs SQLite's automatic checkpoints, unless the checkpoint thread does.
        // An operator's sqlite3 shell holding a lock makes the thread wait a little, not fail at once.
        pragmas: [
          'synchronous = NORMAL',
          'busy_timeout = 5000',
          ...(this.checkpointer ? ['wal_autocheckpoint = 0'] : []),
          ...(options.writerPragmas ?? []),
        ],
        onWritten: (id, seconds) => this.onWritten(id, seconds),
        onError: (error) => this.onWriterFailed(error),
      });
    }
  }

  /** Whether writes go to the writer thread (false without one, or once it failed). */
  get writingOnThread(): boolean {
    return this.writer !== null;
  }

  /** Batches up to `id` are committed (the thread commits them in order). */
  private onWritten(id: number, seconds: number): void {
    this.options.onWrite?.(seconds);
    while (this.posted.length > 0 && (this.posted[0]?.id ?? Infinity) <= id) this.posted.shift()?.done();
  }

  /** The thread failed: what it had not committed is written here, and from now on every write is. */
  private onWriterFailed(error: Error): void {
    if (!this.writer) return;
    log.warn('history: the writer thread failed; writing on the event loop', { error: errorText(error) });
    this.writer = null;
    const unwritten = this.posted;
    this.posted = [];
    for (const batch of unwritten) this.backlog.push(...batch.writes);
    this.flushNow();
    for (const batch of unwritten) batch.done();
  }

  /** The thread checkpointing the write-ahead log, when `checkpointThread` asked for one. */
  readonly checkpointer: WalCheckpointer | null = null;

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set(
      (this.db.statement('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    migrations.forEach((sql, i) => {
      const version = i + 1;
      if (applied.has(version)) return;
      this.db.transaction(() => {
        this.db.exec(sql);
        this.db.statement('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
      });
    });
  }

  /** What was open when Autoscope stopped. */
  private snapshot(): RecorderSnapshot {
    const objects = this.db
      .statement('SELECT id, uid, first_seen AS firstSeen FROM objects WHERE deleted_at IS NULL')
      .all() as RecorderSnapshot['objects'];
    const open = this.db
      .statement(
        `SELECT t.id, t.type, t.status, t.reason, t.message, t.at, t.reason_since AS reasonSince, t.uid FROM condition_transitions t
         JOIN (SELECT id, type, MAX(seq) AS seq FROM condition_transitions GROUP BY id, type) m ON m.seq = t.seq`,
      )
      .all() as RecorderSnapshot['open'];
    const samples = this.db
      .statement(
        `SELECT s.id, s.current, s.desired, s.min, s.max FROM replica_samples s JOIN (SELECT id, MAX(rowid) AS r FROM replica_samples GROUP BY id) m ON m.r = s.rowid`,
      )
      .all() as RecorderSnapshot['samples'];
    return { objects, open, samples };
  }

  /** Writes every queued change (what a slice left first) in one transaction, in the order it was decided. */
  private flushNow(): void {
    this.writeQueued(Number.POSITIVE_INFINITY);
  }

  /** The queued writes, encoded. */
  private takeEncoded(): Encoded[] {
    const out: Encoded[] = [];
    for (const w of this.takeQueued()) {
      const e = encode(w);
      if (e) out.push(e);
    }
    return out;
  }

  /** Hands what is queued to the writer thread (when there is one): resolves once it is committed. */
  private postQueued(writer: SqliteWriter): Promise<void> {
    const writes = this.takeEncoded();
    return writes.length === 0 ? this.committed : this.postBatch(writer, writes);
  }

  /** Posts one batch (one transaction on the thread): resolves once it is committed. */
  private postBatch(writer: SqliteWriter, writes: Encoded[]): Promise<void> {
    const id = ++this.lastPosted;
    this.committed = new Promise<void>((done) => this.posted.push({ id, writes, done }));
    writer.post(id, writes);
    return this.committed;
  }

  /** Everything queued so far stored, wherever it is written: what every read waits for. */
  private settled(): Promise<void> {
    if (this.writer) return this.postQueued(this.writer);
    this.flushNow();
    return Promise.resolve();
  }

  /**
   * Writes queued changes in order, in one transaction, until `budgetMs` has passed; false when some are left (in
   * `backlog`, written first next time). A sync or a burst of churn queues thousands of rows in one turn (~10 µs
   * each): written whole, they held the event loop for tens of ms, and every request waited behind them.
   */
  private writeQueued(budgetMs: number): boolean {
    for (const e of this.takeEncoded()) this.backlog.push(e);
    if (this.written >= this.backlog.length) return true;
    const started = performance.now();
    this.db.transaction(() => {
      while (this.written < this.backlog.length) {
        const [index, args] = this.backlog[this.written++] as Encoded;
        this.db.statement(statementList[index] as string).run(args);
        if ((this.written & 63) === 0 && performance.now() - started > budgetMs) break;
      }
    });
    this.options.onWrite?.((performance.now() - started) / 1000);
    if (this.written < this.backlog.length) return false;
    this.backlog = [];
    this.written = 0;
    return true;
  }

  /** Many writes in one turn: the thread has them now, while they are young (`QUEUED_AT_MOST`). */
  protected override queuedMany(): void {
    if (this.writer) void this.postQueued(this.writer);
  }

  /** The turn after new writes: a slice of at most `WRITE_SLICE_MS`, and another turn for the rest. */
  protected override flushSoon(): Promise<void> {
    if (this.writer) return this.postQueued(this.writer).then(() => undefined);
    if (!this.writeQueued(WRITE_SLICE_MS)) setImmediate(() => void this.flushSoon());
    return Promise.resolve();
  }

  protected flushQueued(): Promise<void> {
    return this.settled();
  }

  async close(): Promise<void> {
    await this.flush();
    await this.writer?.stop();
    this.writer = null;
    // The checkpoint thread's last checkpoint copies what was just written; then this connection closes (and, the
    // last one, removes the log).
    await this.checkpointer?.stop();
    this.db.close();
  }

  /** Condition segments, replica samples, events and cluster gaps of one autoscaler inside [from, to]. */
  async history(id: string, kind: AutoscalerKind, from: string, to: string): Promise<Omit<HistoryResponse, 'id' | 'from' | 'to'>> {
    this.writeFirstSightOf(id);
    await this.settled();
    const rows = this.db
      .statement('SELECT type, status, reason, message, at FROM condition_transitions WHERE id = ? ORDER BY type, at, seq')
      .all(id) as SegmentStartRow[];
    const conditions = conditionSegments(kind, rows, from, to);
    const replicas = this.db
      .statement(
        `SELECT at, current, desired, min, max FROM replica_samples WHERE id = ? AND at BETWEEN ? AND ?
         UNION ALL SELECT * FROM (SELECT at, current, desired, min, max FROM replica_samples WHERE id = ? AND at < ? ORDER BY at DESC LIMIT 1)
         ORDER BY at`,
      )
      .all(id, from, to, id, from) as {
      at: string;
      current: number | null;
      desired: number | null;
      min: number | null;
      max: number | null;
    }[];
    const events = this.eventsNow(id, 500, from, to);
    const ref = parseAutoscalerId(id);
    const states = ref
      ? (this.db.statement('SELECT state, at FROM cluster_states WHERE cluster = ? ORDER BY rowid').all(ref.cluster) as {
          state: ClusterState;
          at: string;
        }[])
      : [];
    const gaps = clusterGaps(states, from, to);
    return { firstSeen: this.firstSeen(id), conditions, replicas, events, gaps };
  }

  async events(id: string, limit: number, from?: string, to?: string): Promise<EventDto[]> {
    await this.settled();
    return this.eventsNow(id, limit, from, to);
  }

  /** Reads what is stored: the caller has waited for what was queued (`settled`). */
  private eventsNow(id: string, limit: number, from?: string, to?: string): EventDto[] {
    const rows = this.db
      .statement(
        `SELECT uid, type, reason, message, count, first_seen AS firstSeen, last_seen AS lastSeen, source, regarding FROM events
         WHERE id = ? AND (? IS NULL OR last_seen >= ?) AND (? IS NULL OR COALESCE(first_seen, last_seen) <= ?) ORDER BY last_seen DESC LIMIT ?`,
      )
      .all(id, from ?? null, from ?? null, to ?? null, to ?? null, limit) as EventDto[];
    return rows;
  }

  /**
   * The newest transitions across the fleet (or one cluster), each with the state it replaced. `notableOnly`
   * keeps status flips, changes of meaning and first sights, and drops the routine reason churn.
   */
  async latestTransitions(limit: number, cluster?: string, notableOnly = false): Promise<Transition[]> {
    await this.flush();
    const rows = this.db
      .statement(
        `SELECT id, cluster, kind, namespace, name, type, status, reason, message, at, prev_status AS prevStatus, prev_reason AS prevReason, notable
         FROM condition_transitions
         WHERE ${notableOnly ? 'notable = 1 AND ' : ''}reason IS NOT 'Deleted' AND (? IS NULL OR cluster = ?) ORDER BY at DESC, seq DESC LIMIT ?`,
      )
      .all(cluster ?? null, cluster ?? null, limit) as TransitionRowRead[];
    return toTransitions(rows);
  }

  /** Drops history older than the retention window (after everything queued before, on the connection that writes). */
  async prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 24 * 3600_000).toISOString();
    await this.settled();
    const statements = pruneStatements(cutoff);
    if (this.writer) return this.postBatch(this.writer, statements);
    this.db.transaction(() => {
      for (const [index, args] of statements) this.db.statement(statementList[index] as string).run(args);
    });
  }

  /** For tests: how many transitions are stored for an id. */
  async countTransitions(id: string): Promise<number> {
    this.writeFirstSightOf(id);
    await this.settled();
    return (this.db.statement('SELECT COUNT(*) AS n FROM condition_transitions WHERE id = ?').get(id) as { n: number }).n;
  }
}
