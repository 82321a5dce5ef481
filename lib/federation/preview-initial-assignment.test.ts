import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';

import type { InitialAssignmentInput } from '@/lib/api/federation';
import { previewInitialAssignment } from '@/lib/federation/preview-initial-assignment';

const bounds = (...pairs: [string, number, number][]) =>
  Object.fromEntries(pairs.map(([name, min, max]) => [name, { minReplicas: min, maxReplicas: max }]));
const binding = (entries: Record<string, number>) => Object.entries(entries).map(([name, replicas]) => ({ name, replicas }));

// The seed's worked examples (karmada-federated-hpa-proposal.md) with the numbers docs/engines/federation.md §4 settles on.
describe('previewInitialAssignment — seed examples (§4.1–§4.5)', () => {
  it('§4.1 Duplicated, min 3 max 10: HPA [3,10] everywhere, binding 3/4/10/3, member4 removed (matches the seed)', () => {
    const result = previewInitialAssignment({
      policy: 'Duplicated',
      federatedMinReplicas: 3,
      federatedMaxReplicas: 10,
      clusters: [{ name: 'member1' }, { name: 'member2' }, { name: 'member3' }, { name: 'member5' }],
      previousBinding: binding({ member1: 1, member2: 4, member3: 20, member4: 5 }),
    });
    expect(result.hpa).toEqual(bounds(['member1', 3, 10], ['member2', 3, 10], ['member3', 3, 10], ['member5', 3, 10]));
    expect(result.resourceBinding).toEqual(binding({ member1: 3, member2: 4, member3: 10, member5: 3 }));
    expect(result.removedFromBinding).toEqual(['member4']);
    expect(result.excludedClusters).toEqual([]);
    // The seed labels its HPA block "member 1/2/3" although member5 is selected too.
    expect(result.notes).toContainEqual(expect.stringContaining('"member 1/2/3"'));
    expect(result.notes).toContainEqual(expect.stringContaining('Σ minReplicas is 12 for federatedMinReplicas 3'));
  });

  const staticWeighted: InitialAssignmentInput = {
    policy: 'StaticWeighted',
    federatedMinReplicas: 2,
    federatedMaxReplicas: 10,
    clusters: [
      { name: 'member1', staticWeight: 1 },
      { name: 'member2', staticWeight: 2 },
      { name: 'member3', staticWeight: 3 },
    ],
    previousBinding: binding({ member1: 1, member2: 4 }),
  };

  it('§4.2 StaticWeighted 1:2:3, min 2 max 10, ScaleToZero=false: HPA [1,2]/[1,3]/[1,5], binding 1/3/1 (seed prints max 1/4/5 and binding 1/4/1)', () => {
    const result = previewInitialAssignment({ ...staticWeighted, scaleToZero: false });
    expect(result.hpa).toEqual(bounds(['member1', 1, 2], ['member2', 1, 3], ['member3', 1, 5]));
    expect(result.resourceBinding).toEqual(binding({ member1: 1, member2: 3, member3: 1 }));
    expect(result.notes).toContainEqual(
      expect.stringContaining(
        'prints maxReplicas 1/4/5; no standard rounding rule yields that: Webster gives 2/3/5, largest remainder 2/3/5, legacy TakeByWeight 1/3/6',
      ),
    );
    expect(result.notes).toContainEqual('member2 ran 4 replicas, above its new maxReplicas 3: the binding clamps it to 3.');
    // Legacy min 2 → 0/0/2 would not match the seed's 1/1/1; Webster's 0/1/1 lifted to 1/1/1 does.
    expect(result.notes).toContainEqual(expect.stringContaining('minReplicas 2 as 0/0/2'));
  });

  it('§4.2 StaticWeighted, ScaleToZero=true: binding 1/3/0, Σ 4 ≥ 2 (seed prints 1/4/0)', () => {
    const result = previewInitialAssignment({ ...staticWeighted, scaleToZero: true });
    expect(result.resourceBinding).toEqual(binding({ member1: 1, member2: 3, member3: 0 }));
    expect(result.notes).toContainEqual(expect.stringContaining('member3 is new to the binding and starts dormant'));
    expect(result.notes).toContainEqual(expect.stringContaining('smallest static weight (member1)'));
  });

  it('§4.3 DynamicWeighted available 1:5:2, min 8 max 24: min 1/5/2, max 3/15/6, binding 1/5/2 (matches the seed)', () => {
    const input: InitialAssignmentInput = {
      policy: 'DynamicWeighted',
      federatedMinReplicas: 8,
      federatedMaxReplicas: 24,
      clusters: [
        { name: 'member1', availableReplicas: 1 },
        { name: 'member2', availableReplicas: 5 },
        { name: 'member3', availableReplicas: 2 },
      ],
    };
    const result = previewInitialAssignment(input);
    expect(result.hpa).toEqual(bounds(['member1', 1, 3], ['member2', 5, 15], ['member3', 2, 6]));
    expect(result.resourceBinding).toEqual(binding({ member1: 1, member2: 5, member3: 2 }));
    expect(result.notes).toContainEqual(expect.stringContaining("This matches the proposal's DynamicWeighted example"));
    expect(result.notes).toContainEqual(expect.stringContaining('refuse 24 (Clusters available replicas 8 are not enough to schedule.)'));
    // ScaleToZero: all start at 0 and wake by availableReplicas descending until Σ ≥ 8 → 1/5/2 again.
    expect(previewInitialAssignment({ ...input, scaleToZero: true }).resourceBinding).toEqual(
      binding({ member1: 1, member2: 5, member3: 2 }),
    );
  });

  const aggregated: InitialAssignmentInput = {
    policy: 'Aggregated',
    federatedMinReplicas: 8,
    federatedMaxReplicas: 24,
    clusters: [
      { name: 'member1', availableReplicas: 8 },
      { name: 'member2', availableReplicas: 2 },
      { name: 'member3', availableReplicas: 2 },
    ],
  };

  it('§4.4 Aggregated available 8/2/2, min 8 max 24: HPA [8,20]/[1,2]/[1,2], binding 8/1/1 (seed prints max 18, Σ 22 ≠ 24)', () => {
    const result = previewInitialAssignment(aggregated);
    expect(result.hpa).toEqual(bounds(['member1', 8, 20], ['member2', 1, 2], ['member3', 1, 2]));
    expect(result.resourceBinding).toEqual(binding({ member1: 8, member2: 1, member3: 1 }));
    expect(result.notes).toContainEqual(expect.stringContaining('prints maxReplicas 18/2/2, whose sum 22 ≠ 24'));
    expect(result.notes).toContainEqual(expect.stringContaining('leaving 24 − 12 = 12'));
    // Karmada's real Aggregated scheduler: 8 → member1 alone, 24 → error (12 available).
    expect(result.notes).toContainEqual(expect.stringContaining('place 8 as member1 8 and refuse 24 (Clusters available replicas 12'));
  });

  it('§4.4 Aggregated with ScaleToZero: binding 8/0/0, member1 alone covers min 8', () => {
    expect(previewInitialAssignment({ ...aggregated, scaleToZero: true }).resourceBinding).toEqual(
      binding({ member1: 8, member2: 0, member3: 0 }),
    );
  });

  const prioritized: InitialAssignmentInput = {
    policy: 'Prioritized',
    federatedMinReplicas: 8,
    federatedMaxReplicas: 24,
    clusters: [
      { name: 'member1', priority: 2, availableReplicas: 20 },
      { name: 'member2', priority: 1, availableReplicas: 1 },
      { name: 'member3' },
    ],
    previousBinding: binding({ member1: 15 }),
  };

  it('§4.5 Prioritized: member1 [8,23], member2 [1,1], member3 excluded, binding 15/1 (seed prints max 20/4)', () => {
    const result = previewInitialAssignment(prioritized);
    expect(result.hpa).toEqual(bounds(['member1', 8, 23], ['member2', 1, 1]));
    expect(result.excludedClusters).toEqual(['member3']);
    expect(result.resourceBinding).toEqual(binding({ member1: 15, member2: 1 }));
    expect(result.notes).toContainEqual(expect.stringContaining('prints maxReplicas 20/4'));
    expect(result.explanation).toContainEqual('member3 is excluded: no priority entry matches it.');
  });

  it('§4.5 Prioritized with ScaleToZero: member2 is new and dormant → binding 15/0', () => {
    expect(previewInitialAssignment({ ...prioritized, scaleToZero: true }).resourceBinding).toEqual(binding({ member1: 15, member2: 0 }));
  });

  it("§4.5 typo hypothesis: with member2 availableReplicas 4 the seed's [8,20]/[1,4] is reproduced and no leftover note appears", () => {
    const result = previewInitialAssignment({
      ...prioritized,
      clusters: [
        { name: 'member1', priority: 2, availableReplicas: 20 },
        { name: 'member2', priority: 1, availableReplicas: 4 },
      ],
    });
    expect(result.hpa).toEqual(bounds(['member1', 8, 20], ['member2', 1, 4]));
    expect(result.notes.some((note) => note.includes('do not fit'))).toBe(false);
  });
});

describe('previewInitialAssignment — §5 rules beyond the examples', () => {
  it('StaticWeighted without any weight splits equally, like Karmada', () => {
    const result = previewInitialAssignment({
      policy: 'StaticWeighted',
      federatedMinReplicas: 3,
      federatedMaxReplicas: 9,
      clusters: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    });
    expect(result.hpa).toEqual(bounds(['a', 1, 3], ['b', 1, 3], ['c', 1, 3]));
  });

  it('a cluster whose max share is 0 gets no HPA and leaves the binding', () => {
    const result = previewInitialAssignment({
      policy: 'DynamicWeighted',
      federatedMinReplicas: 1,
      federatedMaxReplicas: 2,
      clusters: [
        { name: 'big', availableReplicas: 100 },
        { name: 'tiny', availableReplicas: 1 },
      ],
      previousBinding: binding({ tiny: 3 }),
    });
    expect(result.hpa).toEqual(bounds(['big', 1, 2]));
    expect(result.excludedClusters).toEqual(['tiny']);
    expect(result.removedFromBinding).toEqual(['tiny']);
    expect(result.resourceBinding).toEqual(binding({ big: 1 }));
  });

  it('docs/engines/federation.md §5 counter-example: legacy 170:110:60 would give B min 2 > max 1 (min 5, max 6); Webster keeps min ≤ max', () => {
    const result = previewInitialAssignment({
      policy: 'StaticWeighted',
      federatedMinReplicas: 5,
      federatedMaxReplicas: 6,
      clusters: [
        { name: 'a', staticWeight: 170 },
        { name: 'b', staticWeight: 110 },
        { name: 'c', staticWeight: 60 },
      ],
    });
    expect(result.hpa).toEqual(bounds(['a', 2, 3], ['b', 2, 2], ['c', 1, 1]));
    expect(result.notes).toContainEqual(expect.stringContaining('b would get minReplicas 2 > maxReplicas 1'));
  });

  it('the UID picks the Webster tie direction when tieBreak is unset; tieBreak overrides it', () => {
    const input: InitialAssignmentInput = {
      policy: 'StaticWeighted',
      federatedMinReplicas: 1,
      federatedMaxReplicas: 5,
      clusters: [
        { name: 'a', staticWeight: 1 },
        { name: 'b', staticWeight: 1 },
      ],
    };
    expect(previewInitialAssignment(input).hpa).toEqual(bounds(['a', 1, 3], ['b', 1, 2]));
    expect(previewInitialAssignment({ ...input, uid: 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c' }).hpa).toEqual(
      bounds(['a', 1, 2], ['b', 1, 3]),
    );
    expect(previewInitialAssignment({ ...input, uid: 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c', tieBreak: 'nameAsc' }).hpa).toEqual(
      bounds(['a', 1, 3], ['b', 1, 2]),
    );
  });

  it.each([
    [{ federatedMinReplicas: 5, federatedMaxReplicas: 4 }, 'federatedMinReplicas'],
    [{ federatedMinReplicas: 0 }, 'federatedMinReplicas'],
    [{ clusters: [{ name: 'a' }, { name: 'a' }] }, 'clusters.1.name'],
    [{ clusters: [{ name: 'a', staticWeight: -1 }] }, 'clusters.0.staticWeight'],
    [{ clusters: [{ name: 'Not_DNS' }] }, 'clusters.0.name'],
    [{ policy: 'RoundRobin' }, 'policy'],
  ])('rejects %j at %s', (patch, path) => {
    const input = { policy: 'StaticWeighted', federatedMinReplicas: 1, federatedMaxReplicas: 4, clusters: [{ name: 'a' }], ...patch };
    let caught: unknown;
    try {
      previewInitialAssignment(input as InitialAssignmentInput);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZodError);
    expect((caught as ZodError).issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});
