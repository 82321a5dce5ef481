import { describe, expect, it } from 'vitest';

import { KARMADA_PINNED_COMMIT, TEST_DYNAMIC_DIVIDE_REPLICAS } from '@/lib/federation/__fixtures__/karmada-assignment-tables';
import { divideReplicas } from '@/lib/federation/divide-replicas';

const members = (...replicas: number[]) => replicas.map((r, i) => ({ name: `member${i + 1}`, replicas: r }));

// upstream: pkg/scheduler/core/division_algorithm_test.go Test_dynamicDivideReplicas, verbatim in
// __fixtures__/karmada-assignment-tables.ts: `want` at the pinned commit (Webster), `legacyWant` at d698ee591^.
describe(`divideReplicas — upstream Test_dynamicDivideReplicas (karmada ${KARMADA_PINNED_COMMIT.slice(0, 9)})`, () => {
  it.each(TEST_DYNAMIC_DIVIDE_REPLICAS.map((c) => [c.name, c] as const))('Test_dynamicDivideReplicas/%s', (_name, c) => {
    const base = {
      strategy: c.strategy,
      targetReplicas: c.targetReplicas,
      availableClusters: c.availableClusters.map(([name, replicas]) => ({ name, replicas })),
      scheduledClusters: [],
    };
    expect(divideReplicas({ ...base, divider: 'webster' })).toMatchObject({ replicas: c.want, notes: [] });
    expect(divideReplicas({ ...base, divider: 'legacy', legacyVariant: 'v1.5' })).toMatchObject({ replicas: c.legacyWant, notes: [] });
  });
});

describe('divideReplicas — dynamicDivideReplicas behaviour', () => {
  it("fails with the scheduler's UnschedulableError message when Σ available < target", () => {
    expect(
      divideReplicas({
        strategy: 'DynamicWeight',
        targetReplicas: 12,
        availableClusters: members(3, 3, 3),
        scheduledClusters: [],
        divider: 'webster',
      }),
    ).toEqual({
      error: 'Clusters available replicas 9 are not enough to schedule.',
    });
  });

  it('Aggregated puts previously scheduled clusters first, then keeps the shortest prefix that fits', () => {
    const input = {
      strategy: 'Aggregated' as const,
      targetReplicas: 5,
      availableClusters: members(10, 8, 4),
      scheduledClusters: [{ name: 'member3', replicas: 2 }],
    };
    // Order member3 (scheduled), member1, member2; prefix member3 4 + member1 10 ≥ 5. member2 is never tried.
    // Webster divides the 5 new replicas by 4:10 alone (1/4), then adds member3's previous 2.
    expect(divideReplicas({ ...input, divider: 'webster' })).toMatchObject({ replicas: { member1: 4, member3: 3 }, notes: [] });
    // Legacy: 5 by 10:4 → floor 3/1, remainder to member1; merged onto member3's 2.
    expect(divideReplicas({ ...input, divider: 'legacy', legacyVariant: 'v1.5' })).toMatchObject({
      replicas: { member3: 3, member1: 4 },
      notes: [],
    });
  });

  it('docs/engines/federation.md §5 counter-example: proportional-within-prefix Aggregated can give min 10 > max 8 (available 10/10/10)', () => {
    const divide = (targetReplicas: number) =>
      divideReplicas({
        strategy: 'Aggregated',
        targetReplicas,
        availableClusters: members(10, 10, 10),
        scheduledClusters: [],
        divider: 'webster',
      });
    expect(divide(10)).toMatchObject({ replicas: { member1: 10 }, notes: [] });
    expect(divide(15)).toMatchObject({ replicas: { member1: 8, member2: 7 }, notes: [] });
  });

  it('sorts candidates by available replicas descending, keeping candidate order among equals', () => {
    const result = divideReplicas({
      strategy: 'Aggregated',
      targetReplicas: 6,
      availableClusters: [
        { name: 'b', replicas: 6 },
        { name: 'a', replicas: 6 },
        { name: 'c', replicas: 9 },
      ],
      scheduledClusters: [],
      divider: 'webster',
    });
    expect(result).toMatchObject({ replicas: { c: 6 }, notes: [] });
  });

  it("the binding UID picks Webster's tie direction (odd FNV-32a → descending)", () => {
    const input = {
      strategy: 'DynamicWeight' as const,
      targetReplicas: 5,
      availableClusters: members(5, 5),
      scheduledClusters: [],
      divider: 'webster' as const,
    };
    expect(divideReplicas({ ...input, uid: 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c' })).toMatchObject({
      replicas: { member1: 2, member2: 3 },
      notes: [],
    });
    expect(divideReplicas({ ...input, uid: '4858ca61-3ff8-4095-8267-f3d059d8074c' })).toMatchObject({
      replicas: { member1: 3, member2: 2 },
      notes: [],
    });
  });

  it('legacy v1.8 lists the random outcomes in notes', () => {
    const result = divideReplicas({
      strategy: 'DynamicWeight',
      targetReplicas: 12,
      availableClusters: members(8, 8, 10),
      scheduledClusters: [],
      divider: 'legacy',
    });
    expect(result).toMatchObject({ replicas: { member1: 4, member2: 3, member3: 5 } });
    expect('notes' in result && result.notes[0]).toContain('member1 4, member2 3 | member1 3, member2 4');
  });

  it('warns that sort.Sort is unstable for more than 12 Aggregated candidates with equal availability', () => {
    const result = divideReplicas({
      strategy: 'Aggregated',
      targetReplicas: 3,
      availableClusters: Array.from({ length: 13 }, (_, i) => ({ name: `m${String(i).padStart(2, '0')}`, replicas: 2 })),
      scheduledClusters: [],
      divider: 'webster',
    });
    expect(result).toMatchObject({ replicas: { m00: 2, m01: 1 } });
    expect('notes' in result && result.notes[0]).toContain('not stable');
  });

  it('rejects duplicate cluster names, naming the field', () => {
    expect(() =>
      divideReplicas({
        strategy: 'Aggregated',
        targetReplicas: 1,
        availableClusters: [
          { name: 'a', replicas: 1 },
          { name: 'a', replicas: 2 },
        ],
        scheduledClusters: [],
        divider: 'webster',
      }),
    ).toThrow(/availableClusters/);
  });
});
