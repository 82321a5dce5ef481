import 'server-only';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { log } from './log';

/**
 * Whether V8's old space is compacted in windows and kept from growing far past its live size once the index is whole
 * (AUTOSCOPE_V8_FAVOR): `memory` (the default) or `speed` (V8 left as it started).
 *
 * Why: a cold start parses every cluster's lists and maps each object into the index, hundreds of megabytes of
 * short-lived objects allocated among the long-lived ones the index keeps. Many outlive a scavenge and die in the old
 * generation, so after the sync V8's old space is committed at about twice what is live, with live objects on nearly
 * every page. In V8's default mode a full collection moves the survivors off at most ~4 MiB of pages (and only pages
 * 70% empty); the memory reducer that would compact the rest waits for the allocation rate to drop, which a churning
 * fleet's watches never let it do, so those pages stay resident for many minutes (at 100,000 autoscalers ~150 MiB,
 * 1.5 KiB an autoscaler). With `--optimize-for-size` each full collection moves the survivors off pages 20% empty (up
 * to 6 MiB a time) and the heap grows by a smaller factor, so full collections come often and the old space shrinks
 * to its live size within a minute. Kept on, that mode costs the churn ~3× its CPU (more full collections, and V8's
 * other size-for-speed trades), and from the process' start it made a 100,000-autoscaler cold start 2.7× slower. So
 * it is a window: entered after a full collection that leaves the old space fragmented (committed > 1.3 × live +
 * 16 MiB), left once it is compact (≤ 1.15 × live + 8 MiB) or after a minute, and not entered again for two
 * minutes (twice as long after each window that ended without compacting, up to an hour). Under the bench's churn the
 * old space fragments again by ~15 MiB a minute after a window, under its requests by ~35 (a request through Next.js
 * promotes ~40 KiB), so with five minutes between windows the RSS drifted up to ~1.3 KiB an autoscaler above what a
 * window leaves; a window lasts ~15 s. docs/performance.md has the measurements.
 *
 * Between windows the old generation may grow only `HEAP_GROWING_PERCENT` past what a full collection left live before
 * the next one (`--heap-growing-percent`, also from the end of the sync on, never during it). V8's own factor comes
 * from its collector's speed against the allocation rate, and on this heap it let the old space grow ~1.7× its live
 * size between full collections; what the requests and the churn promoted meanwhile landed on new pages among the
 * index's survivors, so a figure read two minutes after a window found ~120 MiB committed past the live heap at
 * 100,000 autoscalers. At 20% the free space a full collection leaves is reused before the space grows: the old space
 * stayed at ~1.25× its live size (run CP, docs/performance.md), for full collections ~4× as often under churn alone
 * (4 in 15 s, 156 ms of the thread, at 3,500 watch events a second) and as often as before under requests.
 *
 * V8 reads these flags while it runs (Node leaves V8's flags unfrozen after start, for `v8.setFlagsFromString`), on
 * Node 20, 22 and 24 alike.
 */
export type V8Favor = 'memory' | 'speed';

const MiB = 2 ** 20;

/** How far past its live size the old generation grows before a full collection, once the index is whole (see above). */
export const HEAP_GROWING_PERCENT = 20;

/** The old space after a full collection: bytes committed (pages V8 holds) and used (live objects on them). */
export interface OldSpace {
  committed: number;
  used: number;
}

export const windowPolicy = {
  /** A full collection that leaves more than this committed opens a window. */
  enterAbove: (s: OldSpace): boolean => s.committed > 1.3 * s.used + 16 * MiB,
  /** In a window, a full collection that leaves this little committed closes it. */
  compact: (s: OldSpace): boolean => s.committed <= 1.15 * s.used + 8 * MiB,
  longestMs: 60_000,
  /** No window for this long after one that left the space compact… */
  cooldownMs: 120_000,
  /** …and twice as long after each one that did not (a heap its live objects fragment), up to this. */
  longestCooldownMs: 3_600_000,
};

/** The windows' decisions, fed the old space after each full collection; V8's flag set through `setFlags`. */
export class CompactionWindows {
  private openSince: number | null = null;
  private closedAt = -Infinity;
  private cooldownMs = windowPolicy.cooldownMs;
  /** Windows opened so far. */
  opened = 0;

  constructor(
    private readonly setFlags: (flags: string) => void,
    private readonly now: () => number = () => performance.now(),
    /** Told as each window closes, whether the space was compact (else the minute ran out). */
    private readonly onClosed: (compact: boolean) => void = () => {},
  ) {}

  get open(): boolean {
    return this.openSince !== null;
  }

  afterFullCollection(space: OldSpace): void {
    const t = this.now();
    const figures = { committedMiB: Math.round(space.committed / MiB), liveMiB: Math.round(space.used / MiB) };
    if (this.openSince !== null) {
      const compact = windowPolicy.compact(space);
      if (!compact && t - this.openSince < windowPolicy.longestMs) return;
      this.setFlags('--no-optimize-for-size');
      const seconds = Math.round((t - this.openSince) / 1000);
      this.cooldownMs = compact ? windowPolicy.cooldownMs : Math.min(2 * this.cooldownMs, windowPolicy.longestCooldownMs);
      log.info('v8 old space compaction window closed', { ...figures, seconds, compact, nextInMinutes: this.cooldownMs / 60_000 });
      this.openSince = null;
      this.closedAt = t;
      this.onClosed(compact);
    } else if (t - this.closedAt >= this.cooldownMs && windowPolicy.enterAbove(space)) {
      this.setFlags('--optimize-for-size');
      this.openSince = t;
      this.opened += 1;
      log.info('v8 old space compaction window opened', figures);
    }
  }

  /** Leaves V8 in its default mode. */
  close(): void {
    if (this.openSince === null) return;
    this.setFlags('--no-optimize-for-size');
    this.openSince = null;
  }
}

function oldSpace(): OldSpace {
  const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
  return { committed: s?.space_size ?? 0, used: s?.space_used_size ?? 0 };
}

/**
 * Starts the windows for `favor` (nothing for `speed` or unset), and the old generation's smaller growth between full
 * collections: each full collection's end is read from Node's `gc` performance entries; `onClosed` is told how each
 * window closed (the metrics count them). Returns what stops them, leaving V8 in its default mode.
 */
export function startCompactionWindows(
  favor: V8Favor | undefined,
  onClosed?: (compact: boolean) => void,
  setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags),
): () => void {
  if (favor !== 'memory') return () => {};
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const windows = new CompactionWindows(setFlags, () => performance.now(), onClosed);
  const observer = new PerformanceObserver((list) => {
    if (
      list
        .getEntries()
        .some((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
    )
      windows.afterFullCollection(oldSpace());
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    windows.close();
    setFlags('--heap-growing-percent=0');
  };
}
