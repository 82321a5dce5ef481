import { describe, expect, it } from 'vitest';

import { previewTriggerOptimization } from '@/lib/federation/preview-trigger-optimization';

describe('previewTriggerOptimization', () => {
  it('§4.9 StaticWeighted: cluster1 max 10, current 8, 3 pending → max 5, freed 5 → cluster2 10, cluster3 9, Σmax 24 (literal reading: 24 → 27)', () => {
    const result = previewTriggerOptimization({
      policy: 'StaticWeighted',
      blockedCluster: { name: 'cluster1', currentReplicas: 8, pendingReplicas: 3, maxReplicas: 10, staticWeight: 1 },
      otherClusters: [
        { name: 'cluster2', currentReplicas: 7, maxReplicas: 7, staticWeight: 1 },
        { name: 'cluster3', currentReplicas: 7, maxReplicas: 7, staticWeight: 1 },
      ],
    });
    expect(result.blockedNewMax).toBe(5);
    expect(result.freed).toBe(5);
    expect(result.shares).toEqual({ cluster2: 3, cluster3: 2 });
    expect(result.newMax).toEqual({ cluster2: 10, cluster3: 9 });
    expect(result.sumMaxBefore).toBe(24);
    expect(result.sumMaxAfter).toBe(24);
    expect(result.notes).toContainEqual(expect.stringContaining('Σmax would go from 24 to 27'));
  });

  it('never sets the blocked max below its minReplicas (an HPA needs min ≤ max)', () => {
    const result = previewTriggerOptimization({
      policy: 'DynamicWeighted',
      blockedCluster: { name: 'a', currentReplicas: 3, pendingReplicas: 3, maxReplicas: 6, minReplicas: 2 },
      otherClusters: [{ name: 'b', currentReplicas: 1, maxReplicas: 4, availableReplicas: 10 }],
    });
    expect(result.blockedNewMax).toBe(2);
    expect(result.freed).toBe(4);
    expect(result.newMax).toEqual({ b: 8 });
    expect(result.sumMaxAfter).toBe(result.sumMaxBefore);
  });

  it('rejects more pending pods than replicas', () => {
    expect(() =>
      previewTriggerOptimization({
        policy: 'Aggregated',
        blockedCluster: { name: 'a', currentReplicas: 1, pendingReplicas: 2, maxReplicas: 3 },
        otherClusters: [],
      }),
    ).toThrow(/pendingReplicas/);
  });
});

describe('previewTriggerOptimization — no other cluster', () => {
  it('keeps the blocked max when nobody can take the capacity', () => {
    const result = previewTriggerOptimization({
      policy: 'Aggregated',
      blockedCluster: { name: 'a', currentReplicas: 4, pendingReplicas: 2, maxReplicas: 6 },
      otherClusters: [],
    });
    expect(result.blockedNewMax).toBe(6);
    expect(result.freed).toBe(0);
    expect(result.sumMaxAfter).toBe(6);
    expect(result.notes[0]).toContain('No other cluster');
  });
});
