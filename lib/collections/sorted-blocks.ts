/**
 * A sorted sequence kept as a list of blocks of a few hundred items, so one insertion or removal moves at most a
 * block's worth of items instead of half of a 100,000-item array. Under churn a kept sort order takes every change of
 * the fleet: spliced into one flat array, a change cost ~0.3 ms at 100,000 (one `splice` out and one in), and a
 * request that caught up with 40 changes paid ~13 ms before reading its page (docs/performance.md). Here a change
 * costs two binary searches and a splice within a block (microseconds).
 *
 * The order `cmp` must be total and each item's key must not change while it is held (the index stores a new DTO
 * on every change), so an item is found again by binary search. Written here rather than taken from a library: the
 * views need exactly this (ordered insert/remove of object references, a walk from a monotone predicate in either
 * direction) and the sorted-container packages on npm either copy on write or keep sizes per node we do not need.
 */
export class SortedBlocks<T> {
  private readonly blocks: T[][] = [];
  private count = 0;

  /** `sorted` must already be in `cmp` order; it is copied. */
  constructor(
    private readonly cmp: (x: T, y: T) => number,
    sorted: readonly T[] = [],
    private readonly blockSize = 512,
  ) {
    for (let i = 0; i < sorted.length; i += blockSize) this.blocks.push(sorted.slice(i, i + blockSize));
    this.count = sorted.length;
  }

  get size(): number {
    return this.count;
  }

  /** The first block whose last item is not before `item`: the block that holds it, or would. */
  private blockFor(item: T): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid] as T[];
      if (this.cmp(block[block.length - 1] as T, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexIn(block: readonly T[], item: T): number {
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(block[mid] as T, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(item: T): void {
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      this.count = 1;
      return;
    }
    // After every item: it goes at the end of the last block.
    const b = Math.min(this.blockFor(item), this.blocks.length - 1);
    const block = this.blocks[b] as T[];
    block.splice(this.indexIn(block, item), 0, item);
    this.count += 1;
    if (block.length >= 2 * this.blockSize) this.blocks.splice(b, 1, block.slice(0, this.blockSize), block.slice(this.blockSize));
  }

  /**
   * Puts `now` where `old` is held when the order cannot tell the two apart (`cmp` 0: a change that keeps its place,
   * as a status write does in every order but the one it moves in), with one search and no splice; otherwise, or when
   * `old` is not held, the same as `remove(old)` and `insert(now)`.
   */
  replace(old: T, now: T): void {
    if (this.cmp(old, now) === 0) {
      const block = this.blocks[this.blockFor(old)];
      if (block) {
        const i = this.indexIn(block, old);
        if (block[i] === old) {
          block[i] = now;
          return;
        }
      }
    } else this.remove(old);
    this.insert(now);
  }

  /**
   * Removes this very item (found by its place in the order), or with `same` the held item at that place that `same`
   * says is the one (a probe with the item's key); false when it is not held.
   */
  remove(item: T, same: (held: T, probe: T) => boolean = (held, probe) => held === probe): boolean {
    const b = this.blockFor(item);
    const block = this.blocks[b];
    if (!block) return false;
    const i = this.indexIn(block, item);
    const held = block[i];
    if (held === undefined || !same(held, item)) return false;
    block.splice(i, 1);
    this.count -= 1;
    if (block.length === 0) this.blocks.splice(b, 1);
    else if (block.length < this.blockSize >> 3) this.mergeWithNext(b);
    return true;
  }

  /** Joins a block that shrank with the next one, when the two fit in one block. */
  private mergeWithNext(b: number): void {
    const block = this.blocks[b] as T[];
    const next = this.blocks[b + 1];
    if (next && block.length + next.length < 2 * this.blockSize) this.blocks.splice(b, 2, block.concat(next));
  }

  /**
   * Calls `visit` with the items in ascending order (or descending), from the first for which `start` holds — a
   * predicate that is false and then true along that order, like "comes after the cursor" — or from the first
   * item without one, until `visit` returns false.
   */
  walk(descending: boolean, start: ((item: T) => boolean) | undefined, visit: (item: T) => boolean): void {
    const blocks = this.blocks;
    if (!descending) {
      let b = 0;
      let i = 0;
      if (start) {
        b = firstTrue(blocks.length, (k) => start(last(blocks[k] as T[])));
        if (b < blocks.length) {
          const block = blocks[b] as T[];
          i = firstTrue(block.length, (k) => start(block[k] as T));
        }
      }
      for (; b < blocks.length; b++, i = 0) {
        const block = blocks[b] as T[];
        for (; i < block.length; i++) if (!visit(block[i] as T)) return;
      }
      return;
    }
    // Descending, `start` is true and then false along the ascending order: begin at the last item it holds for.
    let b = blocks.length - 1;
    let i = -1;
    if (start) {
      b = firstTrue(blocks.length, (k) => !start((blocks[k] as T[])[0] as T)) - 1;
      if (b >= 0) {
        const block = blocks[b] as T[];
        i = firstTrue(block.length, (k) => !start(block[k] as T)) - 1;
      }
    }
    for (; b >= 0; b--, i = -1) {
      const block = blocks[b] as T[];
      if (i < 0) i = block.length - 1;
      for (; i >= 0; i--) if (!visit(block[i] as T)) return;
    }
  }

  /** Every item, in order. */
  toArray(): T[] {
    const out: T[] = [];
    for (const block of this.blocks) for (const item of block) out.push(item);
    return out;
  }
}

function last<T>(block: readonly T[]): T {
  return block[block.length - 1] as T;
}

/** The first k in [0, n) for which `holds(k)` is true (it is false and then true), or n. */
function firstTrue(n: number, holds: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
