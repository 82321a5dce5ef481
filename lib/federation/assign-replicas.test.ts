import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { AssignReplicasInput } from '@/lib/api/federation';
import { assignReplicas } from '@/lib/federation/assign-replicas';
import {
  KARMADA_LEGACY_COMMIT,
  KARMADA_PINNED_COMMIT,
  TEST_DYNAMIC_SCALE,
  TEST_DYNAMIC_SCALE_UP,
  type AssignmentCase,
} from '@/lib/federation/__fixtures__/karmada-assignment-tables';

const candidates = (...allocatable: number[]) => allocatable.map((n, i) => ({ name: `member${i + 1}`, allocatableReplicas: n }));
const weighted = (...weights: (number | undefined)[]) => weights.map((w, i) => ({ name: `member${i + 1}`, staticWeight: w }));
const clusters = (entries: Record<string, number>) => Object.entries(entries).map(([name, replicas]) => ({ name, replicas }));

// upstream: pkg/scheduler/core/assignment_test.go Test_assignByStaticWeightStrategy (v1.8–v1.15 table → divider 'legacy').
// The Webster column is the same input under v1.16+ (docs/engines/federation.md §3.3 gives 3:2:1, N=14 → 7/5/2).
describe('assignReplicas StaticWeight — upstream Test_assignByStaticWeightStrategy', () => {
  it.each([
    ['replica 12, weight 3:2:1', weighted(3, 2, 1), 12, { member1: 6, member2: 4, member3: 2 }, { member1: 6, member2: 4, member3: 2 }],
    [
      'replica 12, default weight',
      weighted(undefined, undefined, undefined),
      12,
      { member1: 4, member2: 4, member3: 4 },
      { member1: 4, member2: 4, member3: 4 },
    ],
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

// upstream: pkg/scheduler/core/assignment_test.go Test_dynamicScale and Test_dynamicScaleUp, verbatim in
// __fixtures__/karmada-assignment-tables.ts: `want` at the pinned commit (divider 'webster', v1.16+), `legacyWants` at
// d698ee591^ (divider 'legacy', v1.8–v1.15; a tie that upstream broke at random lists every outcome).
const upstreamInput = (c: AssignmentCase, divider: 'webster' | 'legacy'): AssignReplicasInput => ({
  strategy: c.strategy,
  replicas: c.replicas,
  candidates: c.candidates.map(([name, allocatableReplicas]) => ({ name, allocatableReplicas })),
  previousClusters: clusters(c.previous),
  uid: '',
  divider,
});

describe.each([
  ['Test_dynamicScale', TEST_DYNAMIC_SCALE],
  ['Test_dynamicScaleUp', TEST_DYNAMIC_SCALE_UP],
] as const)(`assignReplicas DynamicWeight/Aggregated — upstream %s (karmada ${KARMADA_PINNED_COMMIT.slice(0, 9)})`, (test, table) => {
  it.each(table.filter((c) => !c.wantErr).map((c) => [c.name, c] as const))(`${test}/%s`, (_name, c) => {
    expect(assignReplicas(upstreamInput(c, 'webster'))).toMatchObject({ clusters: clusters(c.want ?? {}), notes: [] });
  });

  it.each(table.filter((c) => !c.wantErr).map((c) => [c.name, c] as const))(
    `${test}/%s (legacy divider, karmada ${KARMADA_LEGACY_COMMIT.slice(0, 9)})`,
    (_name, c) => {
      const result = assignReplicas(upstreamInput(c, 'legacy'));
      expect((c.legacyWants ?? []).map(clusters)).toContainEqual('clusters' in result ? result.clusters : result);
      if ((c.legacyWants ?? []).length > 1) expect('notes' in result && result.notes[0]).toContain('at random');
    },
  );

  it.each(table.filter((c) => c.wantErr).map((c) => [c.name, c] as const))(`${test}/%s fails like the scheduler`, (_name, c) => {
    const available = c.candidates.reduce((sum, [, n]) => sum + n, 0);
    for (const divider of ['webster', 'legacy'] as const) {
      expect(assignReplicas(upstreamInput(c, divider))).toEqual({
        error: `failed to scale up: Clusters available replicas ${available} are not enough to schedule.`,
      });
    }
  });
});

describe('assignReplicas — Steady scale-up divides only the new replicas (v1.16+, d698ee591)', () => {
  it("Karmada's example: previous 2/4/6, headroom 10/10/10, 24 replicas → 6/8/10, explained step by step", () => {
    const result = assignReplicas({
      strategy: 'DynamicWeight',
      replicas: 24,
      candidates: candidates(10, 10, 10),
      previousClusters: clusters({ member1: 2, member2: 4, member3: 6 }),
      uid: '',
    });
    const explanation = [
      'DynamicWeight with Webster (v1.16+); previous result on candidates: member1 2, member2 4, member3 6 (Σ 12).',
      'Scale up 12 → 24: divide the 12 new replicas by estimator headroom and add them onto the previous result.',
      'Available replicas, descending: member1 10, member2 10, member3 10 (Σ 30 ≥ target 12).',
      'Webster divides the 12 replicas by available replicas alone (the previous result is not a starting seat count): member1 4, member2 4, member3 4; ' +
        'added onto the previous result member1 2, member2 4, member3 6: member1 6, member2 8, member3 10.',
      'Result (zero entries dropped): member1 6, member2 8, member3 10.',
    ];
    const all = ['member1', 'member2', 'member3'];
    expect(result).toEqual({
      clusters: clusters({ member1: 6, member2: 8, member3: 10 }),
      notes: [],
      explanation,
      // The same steps as data: what each computes and which clusters it is about (a page traces by these, not the text).
      steps: [
        { text: explanation[0], clusters: all, field: 'rule' },
        { text: explanation[1], clusters: [], field: 'rule' },
        { text: explanation[2], clusters: all, field: 'rule' },
        { text: explanation[3], clusters: all, field: 'shares' },
        { text: explanation[4], clusters: all, field: 'result' },
      ],
    });
  });

  it('no cluster gains more than its estimated headroom, for either divider (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('DynamicWeight' as const, 'Aggregated' as const),
        fc.constantFrom('webster' as const, 'legacy' as const),
        fc.array(fc.record({ headroom: fc.integer({ min: 0, max: 30 }), previous: fc.integer({ min: 0, max: 20 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 60 }),
        (strategy, divider, list, extra) => {
          const previous = list.map((c, i) => ({ name: `c${i}`, replicas: c.previous })).filter((c) => c.replicas > 0);
          const assigned = previous.reduce((sum, c) => sum + c.replicas, 0);
          const result = assignReplicas({
            strategy,
            replicas: assigned + extra,
            candidates: list.map((c, i) => ({ name: `c${i}`, allocatableReplicas: c.headroom })),
            previousClusters: previous,
            uid: '',
            divider,
            legacyVariant: 'v1.5',
          });
          if ('error' in result) return;
          const before = new Map(previous.map((c) => [c.name, c.replicas]));
          for (const c of result.clusters) {
            const gain = c.replicas - (before.get(c.name) ?? 0);
            expect(gain).toBeGreaterThanOrEqual(0);
            expect(gain).toBeLessThanOrEqual(list[Number(c.name.slice(1))]?.headroom ?? 0);
          }
          expect(result.clusters.reduce((sum, c) => sum + c.replicas, 0)).toBe(assigned + extra);
        },
      ),
    );
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
    expect(
      assignReplicas({ strategy: 'Duplicated', replicas, candidates: names.map((name) => ({ name })), previousClusters: [], uid: '' }),
    ).toEqual({
      clusters: clusters(expected),
      notes: [],
      explanation: [`Duplicated: every candidate gets spec.replicas ${replicas}.`],
      steps: [{ text: `Duplicated: every candidate gets spec.replicas ${replicas}.`, clusters: [], field: 'result' }],
    });
  });
});

describe('assignReplicas — modes and edge cases', () => {
  it('keeps the previous result when the total is unchanged (Steady)', () => {
    expect(
      assignReplicas({
        strategy: 'DynamicWeight',
        replicas: 12,
        candidates: candidates(100, 100, 100),
        previousClusters: clusters({ member1: 2, member2: 4, member3: 6 }),
        uid: '',
      }),
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
    expect(
      assignReplicas({
        strategy: 'Aggregated',
        replicas: 7,
        candidates: [{ name: 'member1' }, { name: 'member2', allocatableReplicas: 3 }],
        previousClusters: [],
        uid: '',
      }),
    ).toMatchObject({
      clusters: clusters({ member1: 7 }),
      notes: [],
    });
  });

  it('scale-down (v1.17+, 799fa4b32) divides by the previous split on candidates only; a dropped cluster gets nothing, and the v1.16.x difference is noted', () => {
    const base: AssignReplicasInput = {
      strategy: 'DynamicWeight',
      replicas: 4,
      candidates: candidates(10),
      previousClusters: clusters({ member1: 6, member2: 6 }),
      uid: '',
    };
    const result = assignReplicas(base);
    expect(result).toMatchObject({ clusters: clusters({ member1: 4 }) });
    expect('notes' in result && result.notes).toEqual([
      expect.stringContaining('member2 is no longer a candidate, so it gets nothing; Karmada v1.16.x'),
    ]);
  });

  it('legacy scale-down (v1.5–v1.15) divides by the whole previous spec.clusters, including a cluster that is no longer a candidate, and says so', () => {
    const result = assignReplicas({
      strategy: 'DynamicWeight',
      replicas: 4,
      candidates: candidates(10),
      previousClusters: clusters({ member1: 6, member2: 6 }),
      uid: '',
      divider: 'legacy',
      legacyVariant: 'v1.5',
    });
    expect(result).toMatchObject({ clusters: clusters({ member1: 2, member2: 2 }) });
    expect('notes' in result && result.notes[0]).toContain('member2 is no longer a candidate');
  });

  it('explains each step: previous result, scale direction, Aggregated prefix, divider', () => {
    const result = assignReplicas({
      strategy: 'Aggregated',
      replicas: 24,
      candidates: candidates(6, 6, 20),
      previousClusters: clusters({ member1: 4, member2: 8 }),
      uid: '',
      divider: 'legacy',
    });
    expect('explanation' in result && result.explanation).toEqual([
      'Aggregated with legacy TakeByWeight (v1.8–v1.15); previous result on candidates: member1 4, member2 8 (Σ 12).',
      'Scale up 12 → 24: divide the 12 new replicas by estimator headroom and add them onto the previous result.',
      'Available replicas, descending: member3 20, member1 6, member2 6 (Σ 32 ≥ target 12).',
      'Aggregated keeps the shortest prefix that covers 12 (previously scheduled clusters first): member1 6, member2 6.',
      'Legacy TakeByWeight (v1.8) floors 12 × available / Σ and hands the remainder out in weight order, then adds the previous result member1 4, member2 8: member1 10, member2 14.',
      'Result (zero entries dropped): member1 10, member2 14.',
    ]);
  });

  it('validates candidates and previous clusters, naming the field', () => {
    expect(() =>
      assignReplicas({ strategy: 'StaticWeight', replicas: 1, candidates: [{ name: 'Member_1' }], previousClusters: [], uid: '' }),
    ).toThrow(/candidates/);
    expect(() =>
      assignReplicas({
        strategy: 'StaticWeight',
        replicas: 1,
        candidates: [{ name: 'a' }],
        previousClusters: clusters({ a: 1 }).concat(clusters({ a: 2 })),
        uid: '',
      }),
    ).toThrow(/previousClusters/);
  });
});
