import { describe, expect, it } from 'vitest';

import type { ScaleUpInput } from '@/lib/api/federation';
import { previewScaleUp } from '@/lib/federation/preview-scale-up';

// §4.6: cluster1 is blocked at max 4 with 4 replicas at 100% for a 50% target: deficit ceil(4·100/50) − 4 = 4.
const blockedCluster = { name: 'cluster1', currentReplicas: 4, maxReplicas: 4, currentUtilization: 100 };

describe('previewScaleUp — seed examples (§4.6, all consistent with the seed)', () => {
  it.each<[string, ScaleUpInput['policy'], ScaleUpInput['eligibleClusters'], Record<string, number>]>([
    [
      'StaticWeighted, weights cluster2 3, cluster3 1 → 3/1',
      'StaticWeighted',
      [
        { name: 'cluster2', currentReplicas: 8, maxReplicas: 100, currentUtilization: 50, staticWeight: 3 },
        { name: 'cluster3', currentReplicas: 8, maxReplicas: 100, currentUtilization: 50, staticWeight: 1 },
      ],
      { cluster2: 3, cluster3: 1 },
    ],
    [
      'DynamicWeighted, available 50/50 → 2/2',
      'DynamicWeighted',
      [
        { name: 'cluster2', currentReplicas: 8, maxReplicas: 100, currentUtilization: 50, availableReplicas: 50 },
        { name: 'cluster3', currentReplicas: 8, maxReplicas: 100, currentUtilization: 50, availableReplicas: 50 },
      ],
      { cluster2: 2, cluster3: 2 },
    ],
    [
      'Aggregated, available cluster2 3, cluster3 1 → 3/1',
      'Aggregated',
      [
        { name: 'cluster2', currentReplicas: 9, maxReplicas: 100, currentUtilization: 50, availableReplicas: 3 },
        { name: 'cluster3', currentReplicas: 3, maxReplicas: 100, currentUtilization: 50, availableReplicas: 1 },
      ],
      { cluster2: 3, cluster3: 1 },
    ],
    [
      'Prioritized, cluster2 p2 available 3, cluster3 p1 available 1 → 3/1',
      'Prioritized',
      [
        { name: 'cluster2', currentReplicas: 9, maxReplicas: 100, currentUtilization: 50, availableReplicas: 3, priority: 2 },
        { name: 'cluster3', currentReplicas: 3, maxReplicas: 100, currentUtilization: 50, availableReplicas: 1, priority: 1 },
      ],
      { cluster2: 3, cluster3: 1 },
    ],
    [
      'Duplicated (derived): all 4 to the cluster with the most available',
      'Duplicated',
      [
        { name: 'cluster2', currentReplicas: 8, maxReplicas: 100, availableReplicas: 6 },
        { name: 'cluster3', currentReplicas: 8, maxReplicas: 100, availableReplicas: 20 },
      ],
      { cluster2: 0, cluster3: 4 },
    ],
  ])('§4.6 %s', (_name, policy, eligibleClusters, increments) => {
    const result = previewScaleUp({ policy, targetUtilization: 50, blockedCluster, eligibleClusters });
    expect(result.blockedDesiredReplicas).toBe(8);
    expect(result.deficit).toBe(4);
    expect(result.increments).toEqual(increments);
    expect(result.unplaced).toBe(0);
    expect(result.notes[0]).toContain("competes with that member's own HPA");
  });
});

describe('previewScaleUp — room, overflow and pending pods', () => {
  it('re-splits Webster overflow among clusters that still have room, and reports what fits nowhere', () => {
    const result = previewScaleUp({
      policy: 'StaticWeighted',
      targetUtilization: 50,
      blockedCluster: { name: 'a', currentReplicas: 10, maxReplicas: 10, currentUtilization: 100 },
      eligibleClusters: [
        { name: 'b', currentReplicas: 5, maxReplicas: 6, staticWeight: 3 },
        { name: 'c', currentReplicas: 5, maxReplicas: 8, staticWeight: 1 },
        { name: 'd', currentReplicas: 1, maxReplicas: 3, staticWeight: 1 },
      ],
    });
    // Deficit 10; room b 1, c 3, d 2 → everything that fits (6), 4 unplaced.
    expect(result.deficit).toBe(10);
    expect(result.increments).toEqual({ b: 1, c: 3, d: 2 });
    expect(result.unplaced).toBe(4);
    expect(result.notes).toContainEqual("4 replicas fit in no eligible cluster's room and stay unplaced.");
  });

  it('caps room at availableReplicas except under StaticWeighted', () => {
    const eligibleClusters = [{ name: 'b', currentReplicas: 2, maxReplicas: 20, availableReplicas: 1, staticWeight: 1 }];
    const base = {
      targetUtilization: 50,
      blockedCluster: { name: 'a', currentReplicas: 2, maxReplicas: 2, currentUtilization: 150 },
      eligibleClusters,
    };
    expect(previewScaleUp({ ...base, policy: 'StaticWeighted' }).increments).toEqual({ b: 4 });
    expect(previewScaleUp({ ...base, policy: 'DynamicWeighted' }).increments).toEqual({ b: 1 });
  });

  it('uses pending pods when they exceed the metric deficit', () => {
    const result = previewScaleUp({
      policy: 'Aggregated',
      targetUtilization: 80,
      blockedCluster: { name: 'a', currentReplicas: 6, maxReplicas: 6, currentUtilization: 80, pendingReplicas: 2 },
      eligibleClusters: [{ name: 'b', currentReplicas: 1, maxReplicas: 10, availableReplicas: 5 }],
    });
    expect(result.blockedDesiredReplicas).toBe(6);
    expect(result.deficit).toBe(2);
    expect(result.increments).toEqual({ b: 2 });
  });

  it('does not let floating-point noise add a replica (3 × 70 / 30 is exactly 7)', () => {
    const result = previewScaleUp({
      policy: 'Aggregated',
      targetUtilization: 30,
      blockedCluster: { name: 'a', currentReplicas: 3, maxReplicas: 3, currentUtilization: 70 },
      eligibleClusters: [{ name: 'b', currentReplicas: 1, maxReplicas: 10, availableReplicas: 10 }],
    });
    expect(result.blockedDesiredReplicas).toBe(7);
    expect(result.deficit).toBe(4);
  });

  it('rejects the blocked cluster among the eligible ones', () => {
    expect(() =>
      previewScaleUp({
        policy: 'Aggregated',
        targetUtilization: 50,
        blockedCluster,
        eligibleClusters: [{ name: 'cluster1', currentReplicas: 1, maxReplicas: 2 }],
      }),
    ).toThrow(/eligibleClusters/);
  });
});
