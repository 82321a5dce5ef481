import 'server-only';
import type { Autoscaler, AutoscalerKind, ClusterState, EventDto, HistoryResponse, Transition } from '@/lib/api';
import { performance } from 'node:perf_hooks';
import type { HistoryWrite, TrackedTable } from './recorder';
import { HistoryRecorder, WriteBatch } from './recorder';

/**
 * Everything Autoscope persists, as the rest of the server sees it: condition transitions, replica samples,
 * events, cluster states, and what the index asks of history (since when a condition, a mismatch, a problem held).
 * Two implementations: `HistoryStore` (SQLite, embedded, the default) and `PostgresStore`
 * (`server/store/postgres/`, when `AUTOSCOPE_DATABASE_URL` is set; docs/scale-out.md). One behavioural suite runs
 * against both (server/history/history-store.test.ts).
 *
 * Writes are fire-and-forget: an implementation queues and batches them, so watch events never wait on IO.
 * The `*Since`/`firstSeen` answers come from memory (the index asks them for every object it maps). Range reads
 * return promises, and see every write made before them.
 */
export interface AutoscopeStore {
  /** `resourceVersion`: of the object version `a` was mapped from, kept with each transition it starts. */
  observe(a: Autoscaler, now: string, resourceVersion?: string): void;
  observeDeleted(id: string, now: string): void;
  recordEvent(id: string, e: EventDto): void;
  recordClusterState(cluster: string, state: ClusterState, at: string, error: string | null): void;

  conditionSince(id: string): Record<string, string>;
  replicasMismatchSince(id: string): string | null;
  problemSince(id: string): Record<string, string>;
  firstSeen(id: string): string | null;
  /**
   * Keeps what history knows of each autoscaler (to decide its next transition, and the `*Since` answers) in `table`
   * from now on: the index keeps it on its entries (`FleetIndex`), so a large fleet's ids are one hash table, not two.
   */
  keepStateIn(table: TrackedTable): void;

  history(id: string, kind: AutoscalerKind, from: string, to: string): Promise<Omit<HistoryResponse, 'id' | 'from' | 'to'>>;
  events(id: string, limit: number, from?: string, to?: string): Promise<EventDto[]>;
  latestTransitions(limit: number, cluster?: string, notableOnly?: boolean): Promise<Transition[]>;
  /** How many transitions an object has recorded (what tests compare with the simulator's ground truth). */
  countTransitions(id: string): Promise<number>;

  /** Retention: drops what is older than the configured window (keeping each series' latest point). */
  prune(now: Date): Promise<void>;
  /** Writes whatever is queued now (deferred first sights too); resolves once it is stored. */
  flush(): Promise<void>;
  /**
   * From now until `writeDeferredFirstSights`, the rows of an autoscaler's first sight are written later (a cold
   * start's: `HistoryRecorder.deferFirstSights`). Reads still see them: a read of one autoscaler's history writes its
   * own first, a read across the fleet all of them.
   */
  deferFirstSights(): void;
  /**
   * Ends the deferral and writes what it deferred, in slices between other work; resolves once all of it is handed to
   * the store (`flush` then waits for it to be stored).
   */
  writeDeferredFirstSights(): Promise<void>;
  /** First sights deferred and not yet written. */
  readonly deferredFirstSights: number;
  close(): Promise<void>;
}

/**
 * Writes queued in one turn before a store that writes on a thread of its own hands them over. Handed over at the
 * turn's end, a sync's writes waited for a whole slice of the ingest queue (up to 50 ms, thousands of writes): long
 * enough to outlive the young generation's collections, so each one was copied into the old space to die there
 * (~98 MiB of a 100,000-HPA first sight; ~13 MiB handed over every 256: docs/performance.md, 2026-11-29, sixth session).
 */
const QUEUED_AT_MOST = 256;

/** Deferred first sights are written in slices of about this long, a turn of the event loop each. */
const DEFERRED_SLICE_MS = 5;

/**
 * The half of a store that does not depend on where rows go: the recorder's decisions, answered from memory,
 * and its writes queued per turn of the event loop. Everything one chunk of watch events (or one resync)
 * changed is written right after (SQLite: in transactions of at most a few ms, one per turn, until none is left), so a
 * process killed without warning loses at most what it was processing, not a quarter-second of what it had already
 * seen (the reliability run's SIGKILL).
 */
export abstract class RecordingStore {
  private readonly batch = new WriteBatch();
  private flushTimer: NodeJS.Immediate | null = null;
  protected readonly recorder = new HistoryRecorder((w) => this.enqueue(w));

  protected enqueue(write: HistoryWrite): void {
    this.batch.push(write);
    this.flushTimer ??= setImmediate(() => void this.flushSoon());
    if (this.batch.size >= QUEUED_AT_MOST) this.queuedMany();
  }

  /**
   * `QUEUED_AT_MOST` writes are queued in this turn: a store that hands them to a thread of its own does so now, not
   * at the turn's end (`HistoryStore`); the others wait for it.
   */
  protected queuedMany(): void {}

  /** What the turn after new writes runs: `flushQueued` unless a store writes in slices (`HistoryStore`). */
  protected flushSoon(): Promise<void> {
    return this.flushQueued();
  }

  /** The queued writes, handed over once (the timer for them is cancelled). */
  protected takeQueued(): HistoryWrite[] {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = null;
    return this.batch.take();
  }

  /** Writes what is queued now (not the deferred first sights); resolves once it is stored. */
  protected abstract flushQueued(): Promise<void>;

  flush(): Promise<void> {
    this.recorder.writeDeferred();
    return this.flushQueued();
  }

  /** Set while the deferred first sights are being written (`writeDeferredFirstSights`). */
  private deferredWritten: Promise<void> | null = null;

  deferFirstSights(): void {
    this.recorder.deferFirstSights();
  }

  writeDeferredFirstSights(): Promise<void> {
    this.recorder.stopDeferring();
    this.deferredWritten ??= this.writeDeferredInSlices().finally(() => {
      this.deferredWritten = null;
    });
    return this.deferredWritten;
  }

  /**
   * A slice at a time, each on a turn of its own, at the store's pace: a slice's rows are made while the one before is
   * being stored, and no sooner. Made as fast as the event loop could, 100,000 first sights' rows waited for the writer
   * thread in memory (the encoded batches kept until committed, and their JSON in the thread's queue): a peak RSS of
   * 998 MiB once they were stored, against 838–859 at this pace (docs/performance.md, 2026-11-30, second session).
   */
  private async writeDeferredInSlices(): Promise<void> {
    let storing: Promise<void> = Promise.resolve();
    for (let left = this.recorder.deferredCount; left > 0;) {
      await new Promise((next) => setImmediate(next));
      const until = performance.now() + DEFERRED_SLICE_MS;
      left = this.recorder.writeDeferred(() => performance.now() > until);
      const stored = this.flushQueued();
      await storing;
      storing = stored;
    }
    await storing;
  }

  /** First sights not yet written (deferred). */
  get deferredFirstSights(): number {
    return this.recorder.deferredCount;
  }

  /** What a read of one autoscaler's history needs written first: its deferred first sight, if it has one. */
  protected writeFirstSightOf(id: string): void {
    this.recorder.writeFirstSight(id);
  }

  observe(a: Autoscaler, now: string, resourceVersion?: string): void {
    this.recorder.observe(a, now, resourceVersion);
  }

  observeDeleted(id: string, now: string): void {
    this.recorder.observeDeleted(id, now);
  }

  recordEvent(id: string, e: EventDto): void {
    this.recorder.recordEvent(id, e);
  }

  recordClusterState(cluster: string, state: ClusterState, at: string, error: string | null): void {
    this.recorder.recordClusterState(cluster, state, at, error);
  }

  conditionSince(id: string): Record<string, string> {
    return this.recorder.conditionSince(id);
  }

  replicasMismatchSince(id: string): string | null {
    return this.recorder.replicasMismatchSince(id);
  }

  problemSince(id: string): Record<string, string> {
    return this.recorder.problemSince(id);
  }

  firstSeen(id: string): string | null {
    return this.recorder.firstSeen(id);
  }

  keepStateIn(table: TrackedTable): void {
    this.recorder.keepStateIn(table);
  }
}
