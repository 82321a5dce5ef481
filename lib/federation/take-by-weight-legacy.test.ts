import { describe, expect, it } from 'vitest';

import { takeByWeightLegacy } from '@/lib/federation/take-by-weight-legacy';

// upstream: pkg/scheduler/core/division_algorithm_test.go Test_dispenser_takeByWeight (the pre-Webster dispenser).
describe('takeByWeightLegacy — upstream Test_dispenser_takeByWeight', () => {
  const weights = { A: 1, B: 2, C: 3 };
  const initial = { A: 1, B: 2, C: 3 };
  it.each([
    ['Scale up 6 replicas', 6, { A: 2, B: 4, C: 6 }],
    ['Scale up 3 replicas', 3, { A: 1, B: 3, C: 5 }],
    ['Scale up 2 replicas', 2, { A: 1, B: 2, C: 5 }],
  ])('Test_dispenser_takeByWeight/%s (v1.5 and v1.8 agree: distinct weights)', (_name, numReplicas, expected) => {
    for (const variant of ['v1.5', 'v1.8'] as const) {
      const result = takeByWeightLegacy({ numReplicas, weights, initial, variant });
      expect(result.replicas).toEqual(expected);
      expect(result.alternatives).toEqual([expected]);
      expect(result.notes).toEqual([]);
    }
  });
});

// docs/engines/federation.md §3.3: the legacy column of the legacy → Webster table (Karmada's own test vectors).
describe('takeByWeightLegacy — §3.3 legacy column', () => {
  it.each([
    ['weights 2:1, N=2', 2, { A: 2, B: 1 }, { A: 2, B: 0 }],
    ['weights 170:110:60, N=5', 5, { A: 170, B: 110, C: 60 }, { A: 3, B: 2, C: 0 }],
    ['weights 170:110:60, N=6', 6, { A: 170, B: 110, C: 60 }, { A: 4, B: 1, C: 1 }],
    ['weights 3:2:1, N=14', 14, { member1: 3, member2: 2, member3: 1 }, { member1: 8, member2: 4, member3: 2 }],
    ['dynamic weights 20:12:6, N=12', 12, { member1: 20, member2: 12, member3: 6 }, { member1: 7, member2: 4, member3: 1 }],
  ])('%s', (_name, numReplicas, weights, expected) => {
    expect(takeByWeightLegacy({ numReplicas, weights, variant: 'v1.5' }).replicas).toEqual(expected);
  });

  it('is not house-monotone: 170:110:60 gives B 2 replicas for N=5 but 1 for N=6 (Karmada issue #6735)', () => {
    const five = takeByWeightLegacy({ numReplicas: 5, weights: { A: 170, B: 110, C: 60 }, variant: 'v1.5' }).replicas;
    const six = takeByWeightLegacy({ numReplicas: 6, weights: { A: 170, B: 110, C: 60 }, variant: 'v1.5' }).replicas;
    expect(five.B).toBe(2);
    expect(six.B).toBe(1);
  });
});

// upstream (v1.8–v1.15): pkg/util/helper/binding_test.go TestDispenseReplicasByTargetClusters lists several wanted
// results where ClusterWeightInfoList.Less breaks ties with crypto/rand.
describe('takeByWeightLegacy — v1.8 random ties', () => {
  it('TestDispenseReplicasByTargetClusters/3 cluster, 1:1:1, 10 sum: every upstream outcome is listed', () => {
    const result = takeByWeightLegacy({ numReplicas: 10, weights: { member1: 5, member2: 5, member3: 5 }, variant: 'v1.8' });
    const wants = [
      { member1: 4, member2: 3, member3: 3 },
      { member1: 3, member2: 4, member3: 3 },
      { member1: 3, member2: 3, member3: 4 },
    ];
    expect(result.replicas).toEqual(wants[0]);
    expect(result.alternatives).toEqual(wants);
    expect(result.alternativeCount).toBe(3);
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain('member1, member2, member3');
    expect(result.notes[0]).toContain('at random');
  });

  it('Test_dynamicScaleUp/replica 12, dynamic weight 8:8:10: the tie between the two 8s is random', () => {
    const result = takeByWeightLegacy({ numReplicas: 12, weights: { member1: 8, member2: 8, member3: 10 }, variant: 'v1.8' });
    expect(result.alternatives).toEqual([
      { member1: 4, member2: 3, member3: 5 },
      { member1: 3, member2: 4, member3: 5 },
    ]);
  });

  it('orders equal weights by lastReplicas descending before the coin flip', () => {
    const result = takeByWeightLegacy({ numReplicas: 3, weights: { a: 1, b: 1 }, lastReplicas: { a: 1, b: 2 }, variant: 'v1.8' });
    expect(result.replicas).toEqual({ a: 1, b: 2 });
    expect(result.alternatives).toHaveLength(1);
  });

  it('v1.5 breaks the same tie by name ascending, deterministically', () => {
    const result = takeByWeightLegacy({ numReplicas: 10, weights: { member1: 5, member2: 5, member3: 5 }, variant: 'v1.5' });
    expect(result.replicas).toEqual({ member1: 4, member2: 3, member3: 3 });
    expect(result.alternatives).toHaveLength(1);
    expect(result.notes).toEqual([]);
  });

  it('counts all outcomes but lists at most 16 when many clusters tie', () => {
    const weights = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`c${String(i).padStart(2, '0')}`, 1]));
    const result = takeByWeightLegacy({ numReplicas: 10, weights, variant: 'v1.8' });
    expect(result.alternativeCount).toBe(184756);
    expect(result.alternatives).toHaveLength(16);
    expect(result.notes[0]).toContain('and 184740 more');
  });
});

describe('takeByWeightLegacy — Dispenser guards', () => {
  it('Done(): nothing to dispense and an initial result keeps the initial result', () => {
    expect(takeByWeightLegacy({ numReplicas: 0, weights: { a: 1 }, initial: { a: 3 } }).replicas).toEqual({ a: 3 });
  });

  it('a zero weight sum dispenses nothing', () => {
    expect(takeByWeightLegacy({ numReplicas: 4, weights: { a: 0, b: 0 }, initial: { a: 1 } }).replicas).toEqual({ a: 1 });
  });

  it('merges new replicas onto the initial result, including clusters only in the initial result', () => {
    expect(takeByWeightLegacy({ numReplicas: 4, weights: { a: 1, b: 1 }, initial: { c: 2 }, variant: 'v1.5' }).replicas).toEqual({
      c: 2,
      a: 2,
      b: 2,
    });
  });
});
