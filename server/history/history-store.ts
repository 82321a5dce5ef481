import 'server-only';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Autoscaler, AutoscalerKind, ClusterState, ConditionSegment, EventDto, HistoryResponse, Transition } from '@/lib/api';
import { parseAutoscalerId } from '@/lib/api';
import { conditionSince } from '@/lib/history';
import { conditionMeaning } from '@/lib/triage';
import type { AutoscopeStore } from './store';

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

interface OpenCondition {
  status: string;
  reason: string | null;
  message: string | null;
  /** Where the segment starts (the status's lastTransitionTime on first sight). */
  at: string;
  /**
   * Since when Autoscope knows the status *and reason* held: `at` for a change it saw, but the first-sight
   * time otherwise, because lastTransitionTime moves only on status flips and says nothing about the reason.
   */
  reasonSince: string;
  uid: string;
}

interface ReplicaSample {
  current: number | null;
  desired: number | null;
  min: number | null;
  max: number | null;
}

type Write = () => void;

/**
 * Every stored time as `toISOString()` (milliseconds, `Z`): SQLite compares them as strings, and
 * `…:01Z` sorts after `…:01.500Z`, so the API's whole-second times must not be mixed in as they are.
 */
function iso(t: string | null | undefined): string | null {
  if (!t) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export interface HistoryStoreOptions {
  dataDir: string;
  retentionDays: number;
  /** Told how long each write (one transaction of queued changes) took, in seconds; the metrics listen. */
  onWrite?: (seconds: number) => void;
}

/**
 * What the Kubernetes API does not keep: condition transitions, replica samples and events, in SQLite
 * (WAL). A transition is a change of type, status or reason; a message-only change updates the open
 * segment. On the first sight of an object its conditions' lastTransitionTime opens the segment, so a
 * timeline starts at the truth, not at Autoscope's start; on restart the open segments are read back,
 * so nothing is recorded twice and nothing already known is lost. Writes are batched.
 */
export class HistoryStore implements AutoscopeStore {
  private readonly db: Database.Database;
  private readonly open = new Map<string, Map<string, OpenCondition>>();
  private readonly known = new Map<string, { uid: string; firstSeen: string }>();
  private readonly replicas = new Map<string, ReplicaSample>();
  private readonly mismatch = new Map<string, string>();
  private readonly problemFirstSeen = new Map<string, Map<string, string>>();
  private readonly clusterStates = new Map<string, ClusterState>();
  private queue: Write[] = [];
  private flushTimer: NodeJS.Immediate | null = null;

  constructor(readonly options: HistoryStoreOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.db = new Database(path.join(options.dataDir, 'history.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.migrate();
    this.load();
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    migrations.forEach((sql, i) => {
      const version = i + 1;
      if (applied.has(version)) return;
      this.db.transaction(() => {
        this.db.exec(sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
      })();
    });
  }

  /** Reads back what was open when Autoscope stopped. */
  private load(): void {
    for (const o of this.db.prepare('SELECT id, uid, first_seen FROM objects WHERE deleted_at IS NULL').all() as {
      id: string;
      uid: string;
      first_seen: string;
    }[]) {
      this.known.set(o.id, { uid: o.uid, firstSeen: o.first_seen });
    }
    const latest = this.db
      .prepare(
        `SELECT t.id, t.type, t.status, t.reason, t.message, t.at, t.reason_since AS reasonSince, t.uid FROM condition_transitions t
         JOIN (SELECT id, type, MAX(seq) AS seq FROM condition_transitions GROUP BY id, type) m ON m.seq = t.seq`,
      )
      .all() as {
      id: string;
      type: string;
      status: string;
      reason: string | null;
      message: string | null;
      at: string;
      reasonSince: string;
      uid: string;
    }[];
    for (const r of latest) {
      if (!this.known.has(r.id)) continue;
      const byType = this.open.get(r.id) ?? new Map<string, OpenCondition>();
      byType.set(r.type, { status: r.status, reason: r.reason, message: r.message, at: r.at, reasonSince: r.reasonSince, uid: r.uid });
      this.open.set(r.id, byType);
    }
    const samples = this.db
      .prepare(
        `SELECT s.id, s.current, s.desired, s.min, s.max FROM replica_samples s JOIN (SELECT id, MAX(rowid) AS r FROM replica_samples GROUP BY id) m ON m.r = s.rowid`,
      )
      .all() as ({ id: string } & ReplicaSample)[];
    for (const s of samples) this.replicas.set(s.id, { current: s.current, desired: s.desired, min: s.min, max: s.max });
  }

  /**
   * Writes are batched per turn of the event loop: everything one chunk of watch events (or one resync)
   * changed goes in one transaction right after, so a process killed without warning loses at most what it
   * was processing, not a quarter-second of what it had already seen (the reliability run's SIGKILL).
   */
  private enqueue(write: Write): void {
    this.queue.push(write);
    this.flushTimer ??= setImmediate(() => this.flush());
  }

  /** Writes every queued change in one transaction. */
  flush(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = null;
    const queue = this.queue;
    this.queue = [];
    if (queue.length === 0) return;
    const started = performance.now();
    this.db.transaction(() => {
      for (const write of queue) write();
    })();
    this.options.onWrite?.((performance.now() - started) / 1000);
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  /** Records what changed in one autoscaler since it was last observed. */
  observe(a: Autoscaler, now: string, resourceVersion?: string): void {
    const known = this.known.get(a.id);
    const recreated = known !== undefined && known.uid !== a.uid;
    // A recreated object's first segments cannot start before the old object's segments were closed.
    const floor = recreated ? now : '';
    if (!known || recreated) {
      if (recreated) this.closeAll(a.id, now);
      const firstSeen = now;
      this.known.set(a.id, { uid: a.uid, firstSeen });
      this.enqueue(() =>
        this.db
          .prepare(
            `INSERT INTO objects (id, cluster, kind, namespace, name, uid, first_seen, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
                    ON CONFLICT(id) DO UPDATE SET uid = excluded.uid, first_seen = excluded.first_seen, deleted_at = NULL`,
          )
          .run(a.id, a.cluster, a.kind, a.namespace, a.name, a.uid, firstSeen),
      );
    }
    const byType = this.open.get(a.id) ?? new Map<string, OpenCondition>();
    this.open.set(a.id, byType);
    for (const c of a.conditions) {
      const prev = byType.get(c.type);
      const reason = c.reason;
      if (prev && prev.status === c.status && prev.reason === reason && prev.uid === a.uid) {
        if (prev.message !== c.message) {
          prev.message = c.message;
          const { type } = c;
          this.enqueue(() =>
            this.db
              .prepare(
                'UPDATE condition_transitions SET message = ? WHERE seq = (SELECT MAX(seq) FROM condition_transitions WHERE id = ? AND type = ?)',
              )
              .run(c.message, a.id, type),
          );
        }
        continue;
      }
      // The first sight starts at the condition's own lastTransitionTime; later changes start when a status
      // flip says so, else now (a reason change does not move lastTransitionTime).
      const ltt = iso(c.lastTransitionTime);
      const at = !prev
        ? ltt && ltt <= now && ltt >= floor
          ? ltt
          : now
        : prev.status !== c.status && ltt && ltt > prev.at && ltt <= now
          ? ltt
          : now;
      const reasonSince = prev ? at : now;
      // Notable: the first sight, a status flip, or a reason change that changes what it means (ok → degraded).
      const notable =
        !prev ||
        prev.status !== c.status ||
        conditionMeaning(a.kind, { type: c.type, status: prev.status, reason: prev.reason ?? undefined }) !==
          conditionMeaning(a.kind, { type: c.type, status: c.status, reason: reason ?? undefined });
      byType.set(c.type, { status: c.status, reason, message: c.message, at, reasonSince, uid: a.uid });
      this.enqueue(() =>
        this.db
          .prepare(
            `INSERT INTO condition_transitions (id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since, prev_status, prev_reason, notable, resource_version)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            a.id,
            a.cluster,
            a.kind,
            a.namespace,
            a.name,
            a.uid,
            c.type,
            c.status,
            reason,
            c.message,
            at,
            reasonSince,
            prev?.status ?? null,
            prev?.reason ?? null,
            notable ? 1 : 0,
            resourceVersion ?? null,
          ),
      );
    }
    const sample: ReplicaSample = { current: a.currentReplicas, desired: a.desiredReplicas, min: a.minReplicas, max: a.maxReplicas };
    const last = this.replicas.get(a.id);
    if (!last || last.current !== sample.current || last.desired !== sample.desired || last.min !== sample.min || last.max !== sample.max) {
      this.replicas.set(a.id, sample);
      this.enqueue(() =>
        this.db
          .prepare('INSERT INTO replica_samples (id, at, current, desired, min, max) VALUES (?, ?, ?, ?, ?, ?)')
          .run(a.id, now, sample.current, sample.desired, sample.min, sample.max),
      );
    }
    if (a.currentReplicas !== null && a.desiredReplicas !== null && a.currentReplicas !== a.desiredReplicas) {
      if (!this.mismatch.has(a.id)) this.mismatch.set(a.id, now);
    } else {
      this.mismatch.delete(a.id);
    }
    const problems = this.problemFirstSeen.get(a.id) ?? new Map<string, string>();
    for (const code of problems.keys()) if (!a.problems.some((p) => p.code === code)) problems.delete(code);
    for (const p of a.problems) if (!problems.has(p.code)) problems.set(p.code, now);
    this.problemFirstSeen.set(a.id, problems);
  }

  /** The object is gone: its open segments end now. */
  observeDeleted(id: string, now: string): void {
    if (!this.known.has(id)) return;
    this.closeAll(id, now);
    this.known.delete(id);
    this.replicas.delete(id);
    this.mismatch.delete(id);
    this.problemFirstSeen.delete(id);
    this.enqueue(() => this.db.prepare('UPDATE objects SET deleted_at = ? WHERE id = ?').run(now, id));
  }

  private closeAll(id: string, now: string): void {
    const byType = this.open.get(id);
    const ref = parseAutoscalerId(id);
    if (!byType || !ref) return;
    for (const [type, c] of byType) {
      this.enqueue(() =>
        this.db
          .prepare(
            `INSERT INTO condition_transitions (id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since, prev_status, prev_reason, notable)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
          )
          .run(
            id,
            ref.cluster,
            ref.kind,
            ref.namespace,
            ref.name,
            c.uid,
            type,
            'Unknown',
            'Deleted',
            'the object was deleted or recreated',
            now,
            now,
            c.status,
            c.reason,
          ),
      );
    }
    this.open.delete(id);
  }

  recordEvent(id: string, e: EventDto): void {
    this.enqueue(() =>
      this.db
        .prepare(
          `INSERT INTO events (uid, id, type, reason, message, count, first_seen, last_seen, source, regarding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(uid) DO UPDATE SET count = excluded.count, last_seen = excluded.last_seen, message = excluded.message`,
        )
        .run(e.uid, id, e.type, e.reason, e.message, e.count, iso(e.firstSeen), iso(e.lastSeen), e.source, e.regarding),
    );
  }

  recordClusterState(cluster: string, state: ClusterState, at: string, error: string | null): void {
    if (this.clusterStates.get(cluster) === state) return;
    this.clusterStates.set(cluster, state);
    this.enqueue(() =>
      this.db.prepare('INSERT INTO cluster_states (cluster, state, at, error) VALUES (?, ?, ?, ?)').run(cluster, state, at, error),
    );
  }

  /** When each condition's current state began (the rule is `lib/history`'s `conditionSince`). */
  conditionSince(id: string): Record<string, string> {
    return Object.fromEntries(
      [...(this.open.get(id) ?? new Map<string, OpenCondition>())].map(([type, c]) => [
        type,
        conditionSince({ type, status: c.status, start: c.at, reasonSince: c.reasonSince }),
      ]),
    );
  }

  replicasMismatchSince(id: string): string | null {
    return this.mismatch.get(id) ?? null;
  }

  problemSince(id: string): Record<string, string> {
    return Object.fromEntries(this.problemFirstSeen.get(id) ?? []);
  }

  firstSeen(id: string): string | null {
    return this.known.get(id)?.firstSeen ?? null;
  }

  /** Condition segments, replica samples, events and cluster gaps of one autoscaler inside [from, to]. */
  history(id: string, kind: AutoscalerKind, from: string, to: string): Omit<HistoryResponse, 'id' | 'from' | 'to'> {
    this.flush();
    const rows = this.db
      .prepare('SELECT type, status, reason, message, at FROM condition_transitions WHERE id = ? ORDER BY type, at, seq')
      .all(id) as { type: string; status: 'True' | 'False' | 'Unknown'; reason: string | null; message: string | null; at: string }[];
    const byType = new Map<string, ConditionSegment[]>();
    for (const r of rows) {
      const list = byType.get(r.type) ?? [];
      const previous = list[list.length - 1];
      if (previous && previous.end === null) previous.end = r.at;
      list.push({
        status: r.status,
        reason: r.reason,
        message: r.message,
        meaning: conditionMeaning(kind, { type: r.type, status: r.status, reason: r.reason ?? undefined }),
        start: r.at,
        end: null,
      });
      byType.set(r.type, list);
    }
    const conditions = [...byType.entries()].map(([type, segments]) => ({
      type,
      segments: segments.filter((s) => s.start <= to && (s.end === null || s.end >= from) && s.reason !== 'Deleted'),
    }));
    const replicas = this.db
      .prepare(
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
    const events = this.events(id, 500, from, to);
    const ref = parseAutoscalerId(id);
    // In the order they were recorded: an outage's row is dated back to when the cluster last answered,
    // which can be before the row recorded just ahead of it (a degraded spell that turned into an outage).
    const states = ref
      ? (this.db.prepare('SELECT state, at FROM cluster_states WHERE cluster = ? ORDER BY rowid').all(ref.cluster) as {
          state: ClusterState;
          at: string;
        }[])
      : [];
    const gaps: HistoryResponse['gaps'] = [];
    states.forEach((s, i) => {
      if (s.state !== 'unreachable') return;
      const end = states.slice(i + 1).find((n) => n.state !== 'unreachable')?.at ?? null;
      if (s.at <= to && (end === null || end >= from)) gaps.push({ start: s.at, end, state: s.state });
    });
    return { firstSeen: this.firstSeen(id), conditions, replicas, events, gaps };
  }

  events(id: string, limit: number, from?: string, to?: string): EventDto[] {
    this.flush();
    const rows = this.db
      .prepare(
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
  latestTransitions(limit: number, cluster?: string, notableOnly = false): Transition[] {
    this.flush();
    const rows = this.db
      .prepare(
        `SELECT id, cluster, kind, namespace, name, type, status, reason, message, at, prev_status AS prevStatus, prev_reason AS prevReason, notable
         FROM condition_transitions
         WHERE ${notableOnly ? 'notable = 1 AND ' : ''}reason IS NOT 'Deleted' AND (? IS NULL OR cluster = ?) ORDER BY at DESC, seq DESC LIMIT ?`,
      )
      .all(cluster ?? null, cluster ?? null, limit) as (Omit<Transition, 'meaning' | 'previous' | 'notable'> & {
      kind: AutoscalerKind;
      prevStatus: Transition['status'] | null;
      prevReason: string | null;
      notable: number;
    })[];
    return rows.map(({ prevStatus, prevReason, notable, ...r }) => ({
      ...r,
      meaning: conditionMeaning(r.kind, { type: r.type, status: r.status, reason: r.reason ?? undefined }),
      previous: prevStatus
        ? {
            status: prevStatus,
            reason: prevReason,
            meaning: conditionMeaning(r.kind, { type: r.type, status: prevStatus, reason: prevReason ?? undefined }),
          }
        : null,
      notable: notable === 1,
    }));
  }

  /** Drops history older than the retention window. */
  prune(now: Date): void {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 24 * 3600_000).toISOString();
    this.flush();
    this.db.transaction(() => {
      // An object deleted before the window leaves no trace.
      const gone = 'SELECT id FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?';
      for (const table of ['condition_transitions', 'replica_samples', 'events'])
        this.db.prepare(`DELETE FROM ${table} WHERE id IN (${gone})`).run(cutoff);
      this.db.prepare('DELETE FROM objects WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(cutoff);
      // Keep the latest transition of each (id, type): it is the open segment's start.
      this.db
        .prepare(
          'DELETE FROM condition_transitions WHERE at < ? AND seq NOT IN (SELECT MAX(seq) FROM condition_transitions GROUP BY id, type)',
        )
        .run(cutoff);
      // Keep the latest sample of each id: a quiet autoscaler's replicas at the window's start.
      this.db
        .prepare('DELETE FROM replica_samples WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM replica_samples GROUP BY id)')
        .run(cutoff);
      this.db.prepare('DELETE FROM events WHERE last_seen < ?').run(cutoff);
      // Keep each cluster's latest state: an outage that began before the window is still drawn as a gap.
      this.db
        .prepare('DELETE FROM cluster_states WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM cluster_states GROUP BY cluster)')
        .run(cutoff);
    })();
  }

  /** For tests: how many transitions are stored for an id. */
  countTransitions(id: string): number {
    this.flush();
    return (this.db.prepare('SELECT COUNT(*) AS n FROM condition_transitions WHERE id = ?').get(id) as { n: number }).n;
  }
}
