import { describe, expect, it } from 'vitest';

import type { AssignReplicasInput } from '@/lib/api/federation';
import { assignReplicas } from '@/lib/federation/assign-replicas';

const candidates = (...allocatable: number[]) => allocatable.map((n, i) => ({ name: `member${i + 1}`, allocatableReplicas: n }));
const weighted = (...weights: (number | undefined)[]) => weights.map((w, i) => ({ name: `member${i + 1}`, staticWeight: w }));
const clusters = (entries: Record<string, number>) => Object.entries(entries).map(([name, replicas]) => ({ name, replicas }));

// upstream: pkg/scheduler/core/assignment_test.go Test_assignByStaticWeightStrategy (v1.8–v1.15 table → divider 'legacy').
// The Webster column is the same input under v1.16+ (specs/federation.md §3.3 gives 3:2:1, N=14 → 7/5/2).
describe('assignReplicas StaticWeight — upstream Test_assignByStaticWeightStrategy', () => {
  it.each([
    ['replica 12, weight 3:2:1', weighted(3, 2, 1), 12, { member1: 6, member2: 4, member3: 2 }, { member1: 6, member2: 4, member3: 2 }],
    ['replica 12, default weight', weighted(undefined, undefined, undefined), 12, { member1: 4, member2: 4, member3: 4 }, { member1: 4, member2: 4, member3: 4 }],
    ['replica 14, weight 3:2:1', weighted(3, 2, 1), 14, { member1: 8, member2: 4, member3: 2 }, { member1: 7, member2: 5, member3: 2 }],
    // upstream asserts the raw [member1 0, member2 0]; removeZeroReplicasCluster then drops both.
    ['insufficient replica assignment should get 0 replica', weighted(1, 1), 0, {}, {}],
    ['selected cluster without weight should be ignored', weighted(1, undefined), 2, { member1: 2 }, { member1: 2 }],
    // Two entries match member1 (weights 1 and 2): the caller passes the max, 2.
    ['cluster with multiple weights', weighted(2, 1), 3, { member1: 2, member2: 1 }, { member1: 2, member2: 1 }],
  ])('Test_assignByStaticWeightStrategy/%s', (_name, cands, replicas, legacy, webster) => {
    const base: AssignReplicasInput = { strategy: 'StaticWeight', replicas, candidates: cands, previousClusters: [], uid: '' };
    expect(assignReplicas({ ...base, divider: 'legacy' })).toMatchObject({ clusters: clusters(legacy), notes: [] });
    expect(assignReplicas({ ...base, divider: 'webster' })).toMatchObject({ clusters: clusters(webster), notes: [] });
  });
});

// upstream: pkg/scheduler/core/assignment_test.go Test_dynamicScale (v1.8–v1.15 → divider 'legacy'). Candidates carry
// `pods` allocatable N with empty requests, i.e. allocatableReplicas N. The Webster column follows §3.2: seats
// start at the previous result (hand-checked: equal votes fill the emptiest cluster first, etc.).
describe('assignReplicas DynamicWeight/Aggregated — upstream Test_dynamicScale', () => {
  it.each([
    ['replica 12 -> 6, dynamic weighted 1:1:1', 'DynamicWeight', candidates(1, 1, 1), { member1: 2, member2: 4, member3: 6 }, 6, { member1: 1, member2: 2, member3: 3 }, { member1: 1, member2: 2, member3: 3 }],
    ['replica 12 -> 24, dynamic weighted 10:10:10', 'DynamicWeight', candidates(10, 10, 10), { member1: 2, member2: 4, member3: 6 }, 24, { member1: 6, member2: 8, member3: 10 }, { member1: 8, member2: 8, member3: 8 }],
    ['replica 12 -> 6, aggregated 1:1:1', 'Aggregated', candidates(1, 1, 1), { member1: 4, member2: 8 }, 6, { member2: 6 }, { member2: 6 }],
    ['replica 12 -> 8, aggregated 100:100', 'Aggregated', candidates(100, 100), { member1: 4, member2: 8 }, 8, { member2: 8 }, { member2: 8 }],
    ['replica 12 -> 24, aggregated 4:6:8', 'Aggregated', candidates(4, 6, 8), { member1: 4, member2: 8 }, 24, { member1: 6, member2: 12, member3: 6 }, { member1: 5, member2: 8, member3: 11 }],
    ['replica 12 -> 24, aggregated 6:6:20', 'Aggregated', candidates(6, 6, 20), { member1: 4, member2: 8 }, 24, { member1: 10, member2: 14 }, { member1: 12, member2: 12 }],
  ] as const)('Test_dynamicScale/%s', (_name, strategy, cands, previous, replicas, legacy, webster) => {
    const base: AssignReplicasInput = { strategy, replicas, candidates: [...cands], previousClusters: clusters(previous), uid: '' };
    expect(assignReplicas({ ...base, divider: 'legacy' })).toMatchObject({ clusters: clusters(legacy) });
    expect(assignReplicas({ ...base, divider: 'webster' })).toMatchObject({ clusters: clusters(webster) });
  });

  it('Test_dynamicScale/replica 12 -> 24, aggregated 4:8:12, with cluster2 disappeared and cluster4 appeared', () => {
    const base: AssignReplicasInput = {
      strategy: 'Aggregated',
      replicas: 24,
      candidates: [
        { name: 'member1', allocatableReplicas: 4 },
        { name: 'member3', allocatableReplicas: 8 },
        { name: 'member4', allocatableReplicas: 12 },
      ],
      previousClusters: clusters({ member1: 4, member2: 8 }),
      uid: '',
    };
    expect(assignReplicas({ ...base, divider: 'legacy' })).toMatchObject({ clusters: clusters({ member1: 7, member3: 6, member4: 11 }), notes: [] });
  });

  it.each([
    ['replica 12 -> 24, dynamic weighted 1:1:1', 'DynamicWeight', 'failed to scale up: Clusters available replicas 3 are not enough to schedule.'],
    ['replica 12 -> 24, aggregated 1:1:1', 'Aggregated', 'failed to scale up: Clusters available replicas 3 are not enough to schedule.'],
  ] as const)('Test_dynamicScale/%s fails like the scheduler', (_name, strategy, error) => {
    for (const divider of ['legacy', 'webster'] as const) {
      expect(
        assignReplicas({ strategy, replicas: 24, candidates: candidates(1, 1, 1), previousClusters: clusters({ member1: 2, member2: 4, member3: 6 }), uid: '', divider }),
      ).toEqual({ error });
    }
  });

  it('Webster scale-up can exceed a cluster\'s headroom because previous replicas count as seats, and says so', () => {
    const result = assignReplicas({ strategy: 'Aggregated', replicas: 24, candidates: candidates(4, 6, 8), previousClusters: clusters({ member1: 4, member2: 8 }), uid: '' });
    expect(result).toMatchObject({ clusters: clusters({ member1: 5, member2: 8, member3: 11 }) });
    expect('notes' in result && result.notes).toEqual([expect.stringContaining('member3 gains 11 replicas, more than its estimated headroom 8')]);
  });
});

// upstream: pkg/scheduler/core/assignment_test.go Test_dynamicScaleUp (v1.8–v1.15 → divider 'legacy'; `wants` lists the random outcomes).
describe('assignReplicas — upstream Test_dynamicScaleUp', () => {
  it.each([
    ['replica 12, dynamic weight 6:8:10', 'DynamicWeight', candidates(6, 8, 10), [{ member1: 3, member2: 4, member3: 5 }]],
    ['replica 12, dynamic weight 8:8:10', 'DynamicWeight', candidates(8, 8, 10), [{ member1: 4, member2: 3, member3: 5 }, { member1: 3, member2: 4, member3: 5 }]],
    ['replica 12, aggregated 6:8:10', 'Aggregated', candidates(6, 8, 10), [{ member2: 5, member3: 7 }]],
    ['replica 12, aggregated 12:8:10', 'Aggregated', candidates(12, 8, 10), [{ member1: 12 }]],
  ] as const)('Test_dynamicScaleUp/%s', (_name, strategy, cands, wants) => {
    const result = assignReplicas({ strategy, replicas: 12, candidates: [...cands], previousClusters: [], uid: '', divider: 'legacy' });
    expect(wants.map(clusters)).toContainEqual('clusters' in result ? result.clusters : result);
    if (wants.length > 1) expect('notes' in result && result.notes[0]).toContain('at random');
  });

  it.each([
    ['replica 12, dynamic weight 3:3:3', 'DynamicWeight'],
    ['replica 12, aggregated 3:3:3', 'Aggregated'],
  ] as const)('Test_dynamicScaleUp/%s is unschedulable', (_name, strategy) => {
    expect(assignReplicas({ strategy, replicas: 12, candidates: candidates(3, 3, 3), previousClusters: [], uid: '', divider: 'legacy' })).toEqual({
      error: 'failed to scale up: Clusters available replicas 9 are not enough to schedule.',
    });
  });

  it('Test_dynamicScaleUp/replica 12, dynamic weight 3:3, with cluster3 disappeared and cluster2 appeared', () => {
    const base: AssignReplicasInput = { strategy: 'DynamicWeight', replicas: 12, candidates: candidates(3, 3), previousClusters: clusters({ member1: 6, member3: 6 }), uid: '' };
    expect(assignReplicas({ ...base, divider: 'legacy' })).toMatchObject({ clusters: clusters({ member1: 9, member2: 3 }), notes: [] });
    // v1.16+: member1's 6 seats count, so Webster evens out to 6/6 (member2 then exceeds its headroom 3).
    expect(assignReplicas({ ...base, divider: 'webster' })).toMatchObject({ clusters: clusters({ member1: 6, member2: 6 }) });
  });
});

// upstream: pkg/scheduler/core/assignment_test.go Test_assignByDuplicatedStrategy.
describe('assignReplicas Duplicated — upstream Test_assignByDuplicatedStrategy', () => {
  it.each([
    ['test with multiple cluster', ['cluster1', 'cluster2'], 2, { cluster1: 2, cluster2: 2 }],
    ['the target cluster is null', [], 2, {}],
    // upstream asserts [cluster1 0, cluster2 0]; spec.clusters drops zero entries.
    ['replicas is null', ['cluster1', 'cluster2'], 0, {}],
  ])('Test_assignByDuplicatedStrategy/%s', (_name, names, replicas, expected) => {
    expect(assignReplicas({ strategy: 'Duplicated', replicas, candidates: names.map((name) => ({ name })), previousClusters: [], uid: '' })).toEqual({
      clusters: clusters(expected),
      notes: [],
      explanation: [`Duplicated: every candidate gets spec.replicas ${replicas}.`],
    });
  });
});

describe('assignReplicas — modes and edge cases', () => {
  it('keeps the previous result when the total is unchanged (Steady)', () => {
    expect(
      assignReplicas({ strategy: 'DynamicWeight', replicas: 12, candidates: candidates(100, 100, 100), previousClusters: clusters({ member1: 2, member2: 4, member3: 6 }), uid: '' }),
    ).toMatchObject({ clusters: clusters({ member1: 2, member2: 4, member3: 6 }), notes: [] });
  });

  it('Fresh mode divides the total by headroom plus previous replicas, ignoring the old split', () => {
    // Weights: member1 0+2, member2 0+4, member3 6+6 = 2:4:12; 12 seats → 1/3/8 (Webster).
    const result = assignReplicas({
      strategy: 'DynamicWeight',
      mode: 'Fresh',
      replicas: 12,
      candidates: candidates(0, 0, 6),
      previousClusters: clusters({ member1: 2, member2: 4, member3: 6 }),
      uid: '',
    });
    expect(result).toMatchObject({ clusters: clusters({ member1: 1, member2: 3, member3: 8 }), notes: [] });
  });

  it('a candidate without an estimate counts spec.replicas as its headroom (upstream MaxInt32 → spec.replicas)', () => {
    expect(assignReplicas({ strategy: 'Aggregated', replicas: 7, candidates: [{ name: 'member1' }, { name: 'member2', allocatableReplicas: 3 }], previousClusters: [], uid: '' })).toMatchObject({
      clusters: clusters({ member1: 7 }),
      notes: [],
    });
  });

  it('scale-down divides by the whole previous spec.clusters, including a cluster that is no longer a candidate, and says so', () => {
    const result = assignReplicas({ strategy: 'DynamicWeight', replicas: 4, candidates: candidates(10), previousClusters: clusters({ member1: 6, member2: 6 }), uid: '' });
    expect(result).toMatchObject({ clusters: clusters({ member1: 2, member2: 2 }) });
    expect('notes' in result && result.notes[0]).toContain('member2 is no longer a candidate');
  });

  it('explains each step: previous result, scale direction, Aggregated prefix, divider', () => {
    const result = assignReplicas({ strategy: 'Aggregated', replicas: 24, candidates: candidates(6, 6, 20), previousClusters: clusters({ member1: 4, member2: 8 }), uid: '', divider: 'legacy' });
    expect('explanation' in result && result.explanation).toEqual([
      'Aggregated with legacy TakeByWeight (v1.8–v1.15); previous result on candidates: member1 4, member2 8 (Σ 12).',
      'Scale up 12 → 24: divide the 12 new replicas by estimator headroom.',
      'Available replicas, descending: member3 20, member1 6, member2 6 (Σ 32 ≥ target 12).',
      'Aggregated keeps the shortest prefix that covers 12 (previously scheduled clusters first): member1 6, member2 6.',
      'Legacy TakeByWeight (v1.8) floors 12 × available / Σ and hands the remainder out in weight order, then adds the previous result member1 4, member2 8: member1 10, member2 14.',
      'Result (zero entries dropped): member1 10, member2 14.',
    ]);
  });

  it('validates candidates and previous clusters, naming the field', () => {
    expect(() => assignReplicas({ strategy: 'StaticWeight', replicas: 1, candidates: [{ name: 'Member_1' }], previousClusters: [], uid: '' })).toThrow(/candidates/);
    expect(() =>
      assignReplicas({ strategy: 'StaticWeight', replicas: 1, candidates: [{ name: 'a' }], previousClusters: clusters({ a: 1 }).concat(clusters({ a: 2 })), uid: '' }),
    ).toThrow(/previousClusters/);
  });
});
