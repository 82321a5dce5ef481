import 'server-only';
import { performance } from 'node:perf_hooks';

/**
 * What the watches hand the index, applied in the order it arrived, in slices between turns of the event loop (their
 * length below). A watch stream's chunk is handed over line by line in one callback, and in one poll of the event loop
 * every cluster's ready chunk is: mapped, recorded and journalled on the spot, fifty clusters' chunks held a request
 * that arrived meanwhile for tens of ms (the list's p90 was 20–30 ms under the bench's churn, on every route alike).
 * Queued here, a chunk costs its parsing in the poll; its mapping runs in slices between which requests are answered.
 *
 * Everything a cluster's watcher reports — objects, finished lists, state changes — goes through the one queue, so a
 * state that follows a list is applied after the list's objects. Work that throws is logged by `onError` and the
 * queue goes on.
 *
 * A slice's budget is a fair share of the thread: as long as everything else took since the last slice (requests, the
 * poll phase, GC), at least `sliceMs`, and at most `calmSliceMs` while the queue keeps emptying, `maxSliceMs` once it
 * has not emptied for `behindAfterMs`. On a quiet thread slices stay short, so a request that arrives waits a few ms
 * at most; on one busy elsewhere ingest still gets half of it and keeps up. The calm cap keeps a slice that follows a
 * long stretch elsewhere (a major GC's pause, a first sort) from doubling a request's wait when nothing is behind;
 * a sync, or churn that outruns the slices, is behind within a second and gets the long ones. (Fixed 5 ms slices against a poll phase busy parsing fifty clusters' lists made a 100,000-HPA sync take 100 s
 * instead of 40; the rule before this one, 50 ms slices once the queue had not emptied for 100 ms, held requests for
 * 50 ms at a time whenever the churn came in bursts, which it does: a controller pass writes a cluster's statuses at once.)
 */
export interface IngestQueueOptions {
  /** The shortest slice (ms). */
  sliceMs: number;
  /** The longest slice while the queue keeps emptying (ms). */
  calmSliceMs: number;
  /** The longest slice once the queue has held work for `behindAfterMs` without emptying (ms). */
  maxSliceMs: number;
  behindAfterMs: number;
  /** The clock slices are timed by (tests pass their own). */
  now: () => number;
}

const defaults: IngestQueueOptions = {
  sliceMs: 5,
  calmSliceMs: 20,
  maxSliceMs: 50,
  behindAfterMs: 1_000,
  now: () => performance.now(),
};

export class IngestQueue {
  private work: ((() => void) | undefined)[] = [];
  private next = 0;
  /**
   * Work pushed by a task run `childrenFirst`, run before `work`'s (`front[frontNext]` on): a list page's objects, applied
   * right after the page is parsed rather than behind every page parsed meanwhile.
   */
  private front: ((() => void) | undefined)[] = [];
  private frontNext = 0;
  /** While a `childrenFirst` task runs, what it pushes (put at the front once it returns). */
  private children: (() => void)[] | null = null;
  private scheduled = false;
  /** When the last slice ended with work left (null: the queue emptied, and a new burst starts with a short slice). */
  private lastSliceEnd: number | null = null;
  /** Since when the queue has held work without emptying (null: empty). */
  private busySince: number | null = null;
  private readonly options: IngestQueueOptions;

  constructor(
    private readonly onError: (error: unknown) => void,
    options: Partial<IngestQueueOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  private now(): number {
    return this.options.now();
  }

  /** How many pieces of work wait. */
  get pending(): number {
    return this.work.length - this.next + this.front.length - this.frontNext;
  }

  /**
   * Queues `work` behind everything waiting. With `childrenFirst`, what it pushes while it runs is run next, before
   * everything that was waiting (else behind it, as any push is): the informer parses a list page in the queue, and the
   * page's objects are applied at once after, while they are young. Parsed where they arrived and applied in turn,
   * a cold start's pages waited behind up to fifty thousand objects of other clusters' pages, and most of what they
   * held was promoted to V8's old space before it was let go (docs/performance.md, 2026-11-30, fourth session).
   */
  push(work: () => void, childrenFirst = false): void {
    this.enqueue(childrenFirst ? () => this.runChildrenFirst(work) : work, this.children ?? this.work);
  }

  private enqueue(task: () => void, into: (() => void)[] | ((() => void) | undefined)[]): void {
    this.busySince ??= this.now();
    into.push(task);
    this.schedule();
  }

  private runChildrenFirst(work: () => void): void {
    const outer = this.children;
    const children: (() => void)[] = [];
    this.children = children;
    try {
      work();
    } finally {
      this.children = outer;
      if (children.length > 0) {
        if (outer) outer.push(...children);
        else {
          this.front = this.frontNext < this.front.length ? children.concat(this.front.slice(this.frontNext) as (() => void)[]) : children;
          this.frontNext = 0;
        }
      }
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.slice);
  }

  /**
   * A mark behind everything pushed so far: the function returned says whether all of that has been applied (work
   * pushed after the mark may still wait), and `onReached` runs then. Readiness asks it about what the first lists
   * delivered.
   */
  marker(onReached?: () => void): () => boolean {
    let reached = false;
    // Behind everything, also what a running `childrenFirst` task has pushed: never among its children.
    this.enqueue(() => {
      reached = true;
      onReached?.();
    }, this.work);
    return () => reached;
  }

  /** Runs everything waiting now (a process that stops applies what it was handed before closing history). */
  drain(): void {
    this.runFor(Number.POSITIVE_INFINITY);
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    const now = this.now();
    const elsewhere = this.lastSliceEnd === null ? 0 : now - this.lastSliceEnd;
    const { sliceMs, calmSliceMs, maxSliceMs, behindAfterMs } = this.options;
    const behind = this.busySince !== null && now - this.busySince >= behindAfterMs;
    this.runFor(Math.min(behind ? maxSliceMs : calmSliceMs, Math.max(sliceMs, elsewhere)));
    if (this.pending > 0) {
      this.lastSliceEnd = this.now();
      this.schedule();
    }
  };

  private runFor(budgetMs: number): void {
    const started = this.now();
    while (this.frontNext < this.front.length || this.next < this.work.length) {
      let work: (() => void) | undefined;
      if (this.frontNext < this.front.length) {
        work = this.front[this.frontNext];
        this.front[this.frontNext++] = undefined;
      } else {
        work = this.work[this.next];
        this.work[this.next++] = undefined;
      }
      try {
        work?.();
      } catch (error) {
        this.onError(error);
      }
      if (this.now() - started >= budgetMs) break;
    }
    if (this.frontNext >= this.front.length) {
      this.front = [];
      this.frontNext = 0;
    }
    if (this.pending === 0) {
      this.work = [];
      this.next = 0;
      this.lastSliceEnd = null;
      this.busySince = null;
    } else if (this.next > 65_536) {
      // Long backlogs (a sync) are compacted now and then, not shifted per item.
      this.work = this.work.slice(this.next);
      this.next = 0;
    }
  }
}

/**
 * Readiness's question of the queue: has the index taken in what the watchers' first lists delivered? Once every
 * watcher has listed, all of that is in the queue (a list's objects and its sync are pushed before its cluster's state
 * moves), so a mark behind it says when it is applied; watch events queued after the mark are changes newer than the
 * lists, applied as they always are (client-go's HasSynced counts the list popped, not the watch drained). A watcher
 * added after the mark (a Karmada member found in its control plane's Cluster list, itself applied before the mark)
 * queues its list behind it, so a mark counts only for the watchers there were when it was queued. Once applied, it
 * stays so: a cluster added later does not make the process unready.
 *
 * Until 2026-11-29 readiness waited for the queue to be empty, and under a 100,000-HPA fleet's churn that was the
 * lists and then 4-7 s of the events queued while they were applied (docs/performance.md).
 */
export class FirstLists {
  private mark: { watchers: number; reached: () => boolean } | undefined;
  private done = false;

  constructor(
    private readonly queue: IngestQueue,
    /** Called when a mark is reached (readiness asks again then, rather than at the next probe). */
    private readonly onMarkReached: () => void,
  ) {}

  /** `listed`: every watcher has listed once; `watchersAdded`: how many watchers have been made so far. */
  applied(listed: boolean, watchersAdded: number): boolean {
    if (this.done) return true;
    if (!listed) return false;
    if (this.mark?.watchers !== watchersAdded) this.mark = { watchers: watchersAdded, reached: this.queue.marker(this.onMarkReached) };
    this.done = this.mark.reached();
    return this.done;
  }
}
