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
}

/**
 * What the Kubernetes API does not keep — condition transitions, replica samples, events, cluster states — in
 * SQLite (WAL): the embedded default. What is recorded is decided by the `HistoryRecorder` (recorder.ts); this
 * class writes its decisions, one transaction per turn of the event loop, and reads them back.
 */
export class HistoryStore extends RecordingStore implements AutoscopeStore {
  /** Its statements are compiled once (server/store/sqlite.ts): compiling one per write was about half of the history's cost (11% of a 100,000-HPA sync). */
  private readonly db: SqliteFile;
  /** Writes taken from the queue, `written` of them stored: what a slice (`flushSoon`) left for the next. */
  private backlog: HistoryWrite[] = [];
  private written = 0;

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
        },
      });
    }
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

  /**
   * Writes queued changes in order, in one transaction, until `budgetMs` has passed; false when some are left (in
   * `backlog`, written first next time). A sync or a burst of churn queues thousands of rows in one turn (~10 µs
   * each): written whole, they held the event loop for tens of ms, and every request waited behind them.
   */
  private writeQueued(budgetMs: number): boolean {
    const queued = this.takeQueued();
    for (const w of queued) this.backlog.push(w);
    if (this.written >= this.backlog.length) return true;
    const started = performance.now();
    this.db.transaction(() => {
      while (this.written < this.backlog.length) {
        this.write(this.backlog[this.written++] as HistoryWrite);
        if ((this.written & 63) === 0 && performance.now() - started > budgetMs) break;
      }
    });
    this.options.onWrite?.((performance.now() - started) / 1000);
    if (this.written < this.backlog.length) return false;
    this.backlog = [];
    this.written = 0;
    return true;
  }

  /** The turn after new writes: a slice of at most `WRITE_SLICE_MS`, and another turn for the rest. */
  protected override flushSoon(): Promise<void> {
    if (!this.writeQueued(WRITE_SLICE_MS)) setImmediate(() => void this.flushSoon());
    return Promise.resolve();
  }

  flush(): Promise<void> {
    this.flushNow();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.flushNow();
    if (!this.checkpointer) {
      this.db.close();
      return Promise.resolve();
    }
    // Its last checkpoint copies what was just written; then the writer closes (and, the last connection, removes the log).
    return this.checkpointer.stop().then(() => this.db.close());
  }

  private write(w: HistoryWrite): void {
    switch (w.op) {
      case 'object': {
        const o = w.row;
        this.db
          .statement(
            `INSERT INTO objects (id, cluster, kind, namespace, name, uid, first_seen, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
             ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, first_seen = excluded.first_seen, deleted_at = NULL`,
          )
          .run(o.id, o.cluster, o.kind, o.namespace, o.name, o.uid, o.firstSeen);
        return;
      }
      case 'deleted':
        this.db.statement('UPDATE objects SET deleted_at = ? WHERE id = ?').run(w.at, w.id);
        return;
      case 'transition': {
        const r = w.row;
        this.db
          .statement(
            `INSERT INTO condition_transitions (id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since, prev_status, prev_reason, notable, resource_version)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
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
          );
        return;
      }
      case 'message':
        this.db
          .statement(
            'UPDATE condition_transitions SET message = ? WHERE seq = (SELECT MAX(seq) FROM condition_transitions WHERE id = ? AND type = ?)',
          )
          .run(w.message, w.id, w.type);
        return;
      case 'sample':
        this.db
          .statement('INSERT INTO replica_samples (id, at, current, desired, min, max) VALUES (?, ?, ?, ?, ?, ?)')
          .run(w.id, w.at, w.sample.current, w.sample.desired, w.sample.min, w.sample.max);
        return;
      case 'event': {
        const e = w.event;
        this.db
          .statement(
            `INSERT INTO events (uid, id, type, reason, message, count, first_seen, last_seen, source, regarding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT(uid) DO UPDATE SET count = excluded.count, last_seen = excluded.last_seen, message = excluded.message`,
          )
          .run(e.uid, w.id, e.type, e.reason, e.message, e.count, e.firstSeen, e.lastSeen, e.source, e.regarding);
        return;
      }
      case 'clusterState':
        this.db
          .statement('INSERT INTO cluster_states (cluster, state, at, error) VALUES (?, ?, ?, ?)')
          .run(w.cluster, w.state, w.at, w.error);
        return;
      case 'current':
      case 'status':
        // One process holds the whole index: nobody follows it.
        return;
    }
  }

  /** Condition segments, replica samples, events and cluster gaps of one autoscaler inside [from, to]. */
  history(id: string, kind: AutoscalerKind, from: string, to: string): Promise<Omit<HistoryResponse, 'id' | 'from' | 'to'>> {
    this.flushNow();
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
    return Promise.resolve({ firstSeen: this.firstSeen(id), conditions, replicas, events, gaps });
  }

  events(id: string, limit: number, from?: string, to?: string): Promise<EventDto[]> {
    return Promise.resolve(this.eventsNow(id, limit, from, to));
  }

  private eventsNow(id: string, limit: number, from?: string, to?: string): EventDto[] {
    this.flushNow();
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
  latestTransitions(limit: number, cluster?: string, notableOnly = false): Promise<Transition[]> {
    this.flushNow();
    const rows = this.db
      .statement(
        `SELECT id, cluster, kind, namespace, name, type, status, reason, message, at, prev_status AS prevStatus, prev_reason AS prevReason, notable
         FROM condition_transitions
         WHERE ${notableOnly ? 'notable = 1 AND ' : ''}reason IS NOT 'Deleted' AND (? IS NULL OR cluster = ?) ORDER BY at DESC, seq DESC LIMIT ?`,
      )
      .all(cluster ?? null, cluster ?? null, limit) as TransitionRowRead[];
    return Promise.resolve(toTransitions(rows));
  }

  /** Drops history older than the retention window. */
  prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 24 * 3600_000).toISOString();
    this.flushNow();
    this.db.transaction(() => {
      // An object deleted before the window leaves no trace.
      const gone = 'SELECT id FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?';
      for (const table of ['condition_transitions', 'replica_samples', 'events'])
        this.db.statement(`DELETE FROM ${table} WHERE id IN (${gone})`).run(cutoff);
      this.db.statement('DELETE FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(cutoff);
      // Keep the latest transition of each (id, type): it is the open segment's start.
      this.db
        .statement(
          'DELETE FROM condition_transitions WHERE at < ? AND seq NOT IN (SELECT MAX(seq) FROM condition_transitions GROUP BY id, type)',
        )
        .run(cutoff);
      // Keep the latest sample of each id: a quiet autoscaler's replicas at the window's start.
      this.db
        .statement('DELETE FROM replica_samples WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM replica_samples GROUP BY id)')
        .run(cutoff);
      this.db.statement('DELETE FROM events WHERE last_seen < ?').run(cutoff);
      // Keep each cluster's latest state: an outage that began before the window is still drawn as a gap.
      this.db
        .statement('DELETE FROM cluster_states WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM cluster_states GROUP BY cluster)')
        .run(cutoff);
    });
    return Promise.resolve();
  }

  /** For tests: how many transitions are stored for an id. */
  countTransitions(id: string): Promise<number> {
    this.flushNow();
    return Promise.resolve((this.db.statement('SELECT COUNT(*) AS n FROM condition_transitions WHERE id = ?').get(id) as { n: number }).n);
  }
}
