import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedBlocks } from '@/lib/collections/sorted-blocks';

/**
 * SortedBlocks against a plain sorted array, with blocks of 1 to 6 items so that every split, merge and walk across
 * block boundaries happens: any sequence of inserts and removes leaves the same items in the same order, and a walk
 * from any cursor, either way, visits what the array holds from there. A replacement (a new version of a held item,
 * as a change brings) keeps its place when its key is the same and moves when it is not.
 */
interface Item {
  key: number;
  id: number;
}
const cmp = (x: Item, y: Item): number => x.key - y.key || x.id - y.id;

const opArb = fc.oneof(
  fc.record({ insert: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ remove: fc.nat() }),
  fc.record({ removeAbsent: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ replace: fc.nat(), key: fc.option(fc.integer({ min: 0, max: 30 })) }),
);

describe('SortedBlocks', () => {
  it('holds what a sorted array holds, and walks it the same from any cursor, either way', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 }),
        fc.array(opArb, { maxLength: 80 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.record({ cursor: fc.integer({ min: -1, max: 31 }), descending: fc.boolean(), limit: fc.integer({ min: 0, max: 50 }) }),
          {
            maxLength: 5,
          },
        ),
        (initial, ops, blockSize, walks) => {
          let nextId = 0;
          const reference = initial.map((key) => ({ key, id: nextId++ })).sort(cmp);
          const blocks = new SortedBlocks(cmp, reference, blockSize);
          for (const op of ops) {
            if ('insert' in op) {
              const item = { key: op.insert, id: nextId++ };
              blocks.insert(item);
              reference.push(item);
              reference.sort(cmp);
            } else if ('remove' in op) {
              if (reference.length === 0) continue;
              const [item] = reference.splice(op.remove % reference.length, 1);
              expect(blocks.remove(item as Item)).toBe(true);
            } else if ('replace' in op) {
              if (reference.length === 0) continue;
              // A new version of a held item (a new object, the same id): under the same key (null) or another one.
              const i = op.replace % reference.length;
              const held = reference[i] as Item;
              const item = { key: op.key ?? held.key, id: held.id };
              blocks.replace(held, item);
              reference.splice(i, 1, item);
              reference.sort(cmp);
            } else {
              // An equal-looking item that is not held is not removed.
              expect(blocks.remove({ key: op.removeAbsent, id: -1 })).toBe(false);
            }
            expect(blocks.size).toBe(reference.length);
          }
          expect(blocks.toArray()).toEqual(reference);
          for (const { cursor, descending, limit } of walks) {
            // "Comes after the cursor" in the walk's direction: false, then true along it.
            const after = descending ? (a: Item) => a.key < cursor : (a: Item) => a.key > cursor;
            const expected = (descending ? [...reference].reverse() : reference).filter(after).slice(0, limit);
            const seen: Item[] = [];
            blocks.walk(descending, after, (a) => {
              if (seen.length >= limit) return false;
              seen.push(a);
              return true;
            });
            expect(seen).toEqual(expected);
            const all: Item[] = [];
            blocks.walk(descending, undefined, (a) => all.push(a) > 0);
            expect(all).toEqual(descending ? [...reference].reverse() : reference);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('removes by a probe with the same key when told how to recognise the held item, and only then', () => {
    const held = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ key: id % 3, id }));
    const blocks = new SortedBlocks(cmp, [...held].sort(cmp), 2);
    const probe = { key: 2, id: 5 };
    // Not the same object: the default (identity) finds nothing to remove.
    expect(blocks.remove(probe)).toBe(false);
    expect(blocks.remove(probe, (h, p) => h.id === p.id && h.key === p.key)).toBe(true);
    expect(blocks.toArray().map((x) => x.id)).toEqual([3, 6, 1, 4, 7, 2]);
    expect(blocks.size).toBe(6);
    // A key no item has: nothing is removed whatever `same` says.
    expect(blocks.remove({ key: 9, id: 1 }, () => true)).toBe(false);
    expect(blocks.size).toBe(6);
  });

  it('replaces in place only the very item held: a version it does not hold is inserted beside what it holds', () => {
    const held = [1, 2, 3].map((id) => ({ key: id, id }));
    const blocks = new SortedBlocks(cmp, held, 2);
    const stranger = { key: 2, id: 2 };
    blocks.replace(stranger, { key: 2, id: 2 });
    expect(blocks.size).toBe(4);
    expect(blocks.toArray().filter((x) => x.id === 2)).toHaveLength(2);
    // The held one, same key: swapped for the new object where it was.
    const now = { key: 3, id: 3 };
    blocks.replace(held[2] as Item, now);
    expect(blocks.toArray()[3]).toBe(now);
    expect(blocks.size).toBe(4);
  });
});
