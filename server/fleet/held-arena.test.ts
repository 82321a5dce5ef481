import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArenaHolder, Slab } from './held-arena';
import { HeldArena } from './held-arena';

/** A holder as `HeldJson` is one: where its bytes are, told when they move. */
class Holder implements ArenaHolder {
  slab: Slab | null = null;
  at = 0;
  length = 0;
  slot = 0;
  movedTo(slab: Slab, at: number, length: number, slot: number): void {
    this.slab = slab;
    this.at = at;
    this.length = length;
    this.slot = slot;
  }
  read(): number[] {
    return [...(this.slab as Slab).bytes.subarray(this.at, this.at + this.length)];
  }
}

const bytesOf = (seed: number, length: number) => Uint8Array.from({ length }, (_, i) => (seed * 31 + i) & 255);

function put(arena: HeldArena, seed: number, length: number): Holder {
  const h = new Holder();
  arena.put(h, bytesOf(seed, length));
  return h;
}

describe('HeldArena', () => {
  it('packs bytes back to back in one slab, and starts another when it is full', () => {
    const arena = new HeldArena(400);
    const hs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => put(arena, i, 50));
    expect(hs.map((h) => [h.at, h.slot])).toEqual(hs.map((_, i) => [50 * i, i]));
    expect(new Set(hs.map((h) => h.slab)).size).toBe(1);
    const next = put(arena, 9, 10);
    expect(next.slab).not.toBe(hs[0]?.slab);
    expect([next.at, next.slot]).toEqual([0, 0]);
    expect(arena.counts).toEqual({ slabs: 2, bytes: 800, emptied: 0 });
    expect(hs.map((h) => h.read())).toEqual(hs.map((_, i) => [...bytesOf(i, 50)]));
  });

  it('empties a slab no longer filled once less than half of it is alive: the live bytes move, the let-go ones stay readable where they were', () => {
    const arena = new HeldArena(400);
    const first = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => put(arena, i, 50));
    const second = put(arena, 9, 50);
    const oldSlab = first[0]?.slab;
    const letGo = (h: Holder) => arena.letGo(h.slab as Slab, h.slot, h.length);
    for (const h of first.slice(0, 4)) letGo(h);
    expect(arena.counts.emptied).toBe(0);
    letGo(first[4] as Holder);
    expect(arena.counts.emptied).toBe(1);
    expect(first.slice(5).map((h) => [h.slab === second.slab, h.at, h.slot])).toEqual([
      [true, 50, 1],
      [true, 100, 2],
      [true, 150, 3],
    ]);
    expect(first.map((h) => h.read())).toEqual(first.map((_, i) => [...bytesOf(i, 50)]));
    expect(first.slice(0, 5).every((h) => h.slab === oldSlab)).toBe(true);
    expect(arena.counts).toEqual({ slabs: 1, bytes: 400, emptied: 1 });
  });

  it('never empties the slab being filled, but empties it once full if less than half of it is alive', () => {
    const arena = new HeldArena(400);
    const hs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => put(arena, i, 50));
    for (const h of hs.slice(0, 5)) arena.letGo(h.slab as Slab, h.slot, h.length);
    expect(arena.counts.emptied).toBe(0);
    const next = put(arena, 9, 10);
    expect(arena.counts.emptied).toBe(1);
    expect(hs.slice(5).map((h) => [h.slab === next.slab, h.at])).toEqual([
      [true, 0],
      [true, 50],
      [true, 100],
    ]);
    expect(next.at).toBe(150);
    expect([...hs, next].map((h) => h.read())).toEqual([...hs.map((_, i) => [...bytesOf(i, 50)]), [...bytesOf(9, 10)]]);
  });

  it('gives bytes longer than an eighth of a slab a slab of their own, dropped when they are let go', () => {
    const arena = new HeldArena(80);
    const small = put(arena, 1, 10);
    const big = put(arena, 2, 11);
    expect(big.slab).not.toBe(small.slab);
    expect(arena.counts).toEqual({ slabs: 2, bytes: 91, emptied: 0 });
    arena.letGo(big.slab as Slab, big.slot, big.length);
    expect(arena.counts).toEqual({ slabs: 1, bytes: 80, emptied: 1 });
    expect(big.read()).toEqual([...bytesOf(2, 11)]);
  });

  it('under any sequence of writes and let-gos, every holder reads its own bytes and the arena keeps at most about twice what lives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ put: fc.integer({ min: 0, max: 40 }) }), fc.record({ letGo: fc.nat() })), { maxLength: 300 }),
        (ops) => {
          const size = 128;
          const arena = new HeldArena(size);
          const live: [Holder, number][] = [];
          const gone: [Holder, number][] = [];
          let seed = 0;
          for (const op of ops) {
            if ('put' in op) live.push([put(arena, ++seed, op.put), seed]);
            else if (live.length > 0) {
              const [h, s] = live.splice(op.letGo % live.length, 1)[0] as [Holder, number];
              arena.letGo(h.slab as Slab, h.slot, h.length);
              gone.push([h, s]);
            }
          }
          for (const [h, s] of [...live, ...gone]) expect(h.read()).toEqual([...bytesOf(s, h.length)]);
          const liveBytes = live.reduce((n, [h]) => n + h.length, 0);
          // Each slab not filling is at least half alive in the bytes it used, and loses at most an item's length at its end.
          expect(arena.counts.bytes).toBeLessThanOrEqual(2 * liveBytes * (size / (size - size / 8)) + size + 1);
        },
      ),
    );
  });
});
