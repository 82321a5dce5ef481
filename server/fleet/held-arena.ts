/**
 * Where an index's deflated HPAs keep their bytes: packed one after another into large slabs, not an ArrayBuffer each.
 *
 * An ArrayBuffer is not just its bytes: V8 gives it an object on the heap (88 bytes), a backing store and an extension
 * that its collector sweeps, and malloc a block with its own header; for the ~150 bytes of a deflated HPA that came to
 * ~420 bytes of RSS each in a scratch measurement (100,000 of them, against ~150 packed into one buffer), and every
 * status write of every HPA made and dropped one. Packed, an HPA is an offset into a slab its holder points at.
 *
 * A slab is written once, front to back, and never reused: a holder that lets go of its bytes (a newer version replaced
 * it) only counts them as dead, and once less than half of a slab that is no longer being filled is alive, what is
 * alive is copied into the slab being filled and the old one is dropped. A holder that was let go keeps pointing at
 * the slab it was in, so an old version a request still holds reads the same bytes until it is collected along with
 * them. The copying is at most once more per version written on average: a slab is left when half of it has died.
 */

/** What holds bytes in a slab: where they are, and told when they move (a slab emptied into another). */
export interface ArenaHolder {
  /** Where its bytes start in its slab, and how many there are. */
  readonly at: number;
  readonly length: number;
  /** Its `length` bytes now live at `at` in `slab`, as the slab's `slot`-th holder. */
  movedTo(slab: Slab, at: number, length: number, slot: number): void;
}

export class Slab {
  readonly bytes: Uint8Array;
  /** Bytes written, from the start. */
  used = 0;
  /** Bytes of holders not let go. */
  live = 0;
  /** Its holders, in the order they were written; a slot is emptied when its holder lets go. */
  readonly holders: (ArenaHolder | undefined)[] = [];

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
}

/** Large enough that a slab's own cost is nothing beside its bytes, small enough that one half-dead costs little. */
export const SLAB_BYTES = 1 << 20;

export class HeldArena {
  private filling: Slab;
  /** Slabs it keeps and their bytes, and how many it has emptied into another (the metrics, the tests). */
  readonly counts = { slabs: 0, bytes: 0, emptied: 0 };

  constructor(private readonly slabBytes = SLAB_BYTES) {
    this.filling = this.made(slabBytes);
  }

  private made(size: number): Slab {
    this.counts.slabs++;
    this.counts.bytes += size;
    return new Slab(size);
  }

  /**
   * `bytes` copied in for `holder`, which is told where (`movedTo`) before this returns. Bytes longer than an eighth of
   * a slab get a slab of their own, which is dropped when they are let go.
   */
  put(holder: ArenaHolder, bytes: Uint8Array): void {
    const length = bytes.length;
    if (length > this.slabBytes / 8) {
      this.write(this.made(length), holder, bytes);
      return;
    }
    if (this.filling.used + length > this.filling.bytes.length) {
      const full = this.filling;
      this.filling = this.made(this.slabBytes);
      // Mostly let go of while it was filled: nothing would empty it later.
      if (full.live * 2 < full.used) this.empty(full);
    }
    this.write(this.filling, holder, bytes);
  }

  private write(slab: Slab, holder: ArenaHolder, bytes: Uint8Array): void {
    const at = slab.used;
    slab.bytes.set(bytes, at);
    slab.used += bytes.length;
    slab.live += bytes.length;
    slab.holders.push(holder);
    holder.movedTo(slab, at, bytes.length, slab.holders.length - 1);
  }

  /** The holder in `slot` of `slab` no longer needs its `length` bytes; a slab mostly dead is emptied into the one filling. */
  letGo(slab: Slab, slot: number, length: number): void {
    slab.holders[slot] = undefined;
    slab.live -= length;
    if (slab !== this.filling && slab.live * 2 < slab.used) this.empty(slab);
  }

  /** What is alive in `slab` copied into the slab filling; the arena keeps nothing of it after. */
  private empty(slab: Slab): void {
    this.counts.emptied++;
    this.counts.slabs--;
    this.counts.bytes -= slab.bytes.length;
    for (const holder of slab.holders.splice(0)) if (holder) this.put(holder, slab.bytes.subarray(holder.at, holder.at + holder.length));
    slab.live = 0;
  }
}
