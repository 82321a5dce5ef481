import 'server-only';
import { performance } from 'node:perf_hooks';

/**
 * What the watches hand the index, applied in the order it arrived, in slices of at most `sliceMs` per turn of the
 * event loop. A watch stream's chunk is handed over line by line in one callback, and in one poll of the event loop
 * every cluster's ready chunk is: mapped, recorded and journalled on the spot, fifty clusters' chunks held a request
 * that arrived meanwhile for tens of ms (the list's p90 was 20–30 ms under the bench's churn, on every route alike).
 * Queued here, a chunk costs its parsing in the poll; its mapping runs in slices between which requests are answered.
 *
 * Everything a cluster's watcher reports — objects, finished lists, state changes — goes through the one queue, so a
 * state that follows a list is applied after the list's objects. Work that throws is logged by `onError` and the
 * queue goes on.
 *
 * A queue that has not emptied for `catchUpAfterMs` (a sync, a burst) runs slices of `catchUpSliceMs`: with 5 ms
 * slices against a poll phase busy parsing fifty clusters' lists, a 100,000-HPA sync took 100 s instead of 40.
 */
export class IngestQueue {
  private work: ((() => void) | undefined)[] = [];
  private next = 0;
  private scheduled = false;
  /** When the queue last went from empty to not (null while empty). */
  private busySince: number | null = null;

  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly sliceMs = 5,
    private readonly catchUpAfterMs = 100,
    private readonly catchUpSliceMs = 50,
  ) {}

  /** How many pieces of work wait. */
  get pending(): number {
    return this.work.length - this.next;
  }

  push(work: () => void): void {
    this.busySince ??= performance.now();
    this.work.push(work);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.slice);
  }

  /** Runs everything waiting now (a process that stops applies what it was handed before closing history). */
  drain(): void {
    this.runFor(Number.POSITIVE_INFINITY);
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    const behind = this.busySince !== null && performance.now() - this.busySince >= this.catchUpAfterMs;
    this.runFor(behind ? this.catchUpSliceMs : this.sliceMs);
    if (this.pending > 0) this.schedule();
  };

  private runFor(budgetMs: number): void {
    const started = performance.now();
    while (this.next < this.work.length) {
      const work = this.work[this.next];
      this.work[this.next++] = undefined;
      try {
        work?.();
      } catch (error) {
        this.onError(error);
      }
      if (performance.now() - started >= budgetMs) break;
    }
    if (this.next >= this.work.length) {
      this.work = [];
      this.next = 0;
      this.busySince = null;
    } else if (this.next > 65_536) {
      // Long backlogs (a sync) are compacted now and then, not shifted per item.
      this.work = this.work.slice(this.next);
      this.next = 0;
    }
  }
}
