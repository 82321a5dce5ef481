import { describe, expect, it } from 'vitest';
import { compactHeap, fullGc, oldSpace } from './heap';

/** Objects spread over the old space with most of each page dead around them, as a cold start leaves it. */
function fragmented(): { i: number }[] {
  const kept: { i: number }[] = [];
  let young: { i: number; s: string }[][] = [];
  for (let round = 0; round < 8; round++) {
    const batch: { i: number; s: string }[] = [];
    for (let i = 0; i < 60_000; i++) batch.push({ i, s: `x${i}` });
    young.push(batch);
    // Batches live long enough to be promoted, then all but one object in eight die.
    if (young.length > 3) for (const [n, o] of (young.shift() ?? []).entries()) if (n % 8 === 0) kept.push(o);
  }
  young = [];
  return kept;
}

describe('compactHeap', () => {
  it('gives back the old space a full collection leaves committed around scattered survivors', () => {
    const kept = fragmented();
    fullGc()?.();
    const afterFullGc = oldSpace();
    // The set-up holds: a plain full collection leaves most of what the old space committed unused.
    expect(afterFullGc.committed).toBeGreaterThan(1.5 * afterFullGc.used);
    const compaction = compactHeap();
    expect(compaction).not.toBeNull();
    const { before, after } = compaction as NonNullable<typeof compaction>;
    expect(before.committed).toBe(afterFullGc.committed);
    expect(after.committed).toBeLessThan(1.2 * after.used);
    expect(after.committed).toBeLessThan(before.committed / 1.4);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('leaves later full collections as V8 makes them (the flag is cleared)', () => {
    const kept = fragmented();
    compactHeap();
    const compacted = oldSpace();
    const more = fragmented();
    fullGc()?.();
    const later = oldSpace();
    // Without the flag a full collection does not compact everything: the new survivors' pages stay spread out.
    expect(later.committed).toBeGreaterThan(1.3 * later.used);
    expect(later.used).toBeGreaterThan(compacted.used);
    expect(kept.length + more.length).toBeGreaterThan(0);
  });
});
