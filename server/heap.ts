import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8's full collection, asked for from JavaScript. Node has no API for it; `--expose-gc` set at run time gives a new
 * context a `gc` function (the global of this process stays without one). Null where V8 refuses the flag.
 */
let collector: (() => void) | null | undefined;

export function fullGc(): (() => void) | null {
  if (collector === undefined) {
    v8.setFlagsFromString('--expose-gc');
    collector = vm.runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
  }
  return collector;
}

/** V8's old space: committed (what the process holds) and used (what live objects take), in bytes. */
export function oldSpace(): { committed: number; used: number } {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  return { committed: space?.space_size ?? 0, used: space?.space_used_size ?? 0 };
}

export interface Compaction {
  ms: number;
  before: { committed: number; used: number };
  /** After the plain full collection that goes first. */
  collected: { committed: number; used: number };
  after: { committed: number; used: number };
}

/**
 * One full collection that compacts the whole old space, and gives what it frees back to the system.
 *
 * Why: a cold start promotes to the old space what the lists and their mapping allocate, and most of it dies there
 * once the index holds its DTOs; the long-lived objects are left spread over pages that are mostly free. V8 compacts
 * only the most fragmented few pages in a collection, so those pages stay committed for the life of the process: at
 * 100,000 HPAs the old space held 417–477 MiB for 260–281 MiB of live objects (docs/performance.md), ~1.8 KiB of RSS an
 * autoscaler. V8's own memory reducer, which would compact them, runs only when the process allocates little, which a
 * fleet's churn never lets it. A collection with V8's `--compact-on-every-full-gc` set moves every live object to
 * fresh pages; the flag is set for that one collection and cleared after it.
 *
 * It stops the process for as long as it takes (about a second at 100,000 autoscalers on a small machine), so it runs
 * once, as the index first becomes whole and before the process says it is ready (runtime.ts): no reader is waiting
 * for a process that is not ready yet.
 */
export function compactHeap(): Compaction | null {
  const gc = fullGc();
  if (!gc) return null;
  const before = oldSpace();
  const started = performance.now();
  // A plain full collection first gives back the pages with nothing live on them, so the compaction, which copies
  // every live object to new pages before it frees the old ones, starts from fewer: the process's peak is lower.
  gc();
  const collected = oldSpace();
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return { ms: performance.now() - started, before, collected, after: oldSpace() };
}
