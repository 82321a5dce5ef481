import { describe, expect, it } from 'vitest';

import { previewPeriodOptimization } from '@/lib/federation/preview-period-optimization';

describe('previewPeriodOptimization', () => {
  it('§4.8 StaticWeighted 2:1:1, current 6/6/6, max 7/8/7: pool 4, shares 2/1/1, new max 8/7/7 (matches the seed; its scope note contradicts it)', () => {
    const result = previewPeriodOptimization({
      policy: 'StaticWeighted',
      clusters: [
        { name: 'cluster1', staticWeight: 2, currentReplicas: 6, maxReplicas: 7 },
        { name: 'cluster2', staticWeight: 1, currentReplicas: 6, maxReplicas: 8 },
        { name: 'cluster3', staticWeight: 1, currentReplicas: 6, maxReplicas: 7 },
      ],
    });
    expect(result.pool).toBe(4);
    expect(result.shares).toEqual({ cluster1: 2, cluster2: 1, cluster3: 1 });
    expect(result.newMax).toEqual({ cluster1: 8, cluster2: 7, cluster3: 7 });
    expect(result.notes).toContainEqual(expect.stringContaining('"This only works for Aggregated/DynamicWeighted/Prioritized policy"'));
  });

  it('keeps Σmax and never drops a max below the current count (Aggregated fills by availableReplicas)', () => {
    const clusters = [
      { name: 'a', availableReplicas: 2, currentReplicas: 3, maxReplicas: 10 },
      { name: 'b', availableReplicas: 9, currentReplicas: 5, maxReplicas: 6 },
    ];
    const result = previewPeriodOptimization({ policy: 'Aggregated', clusters });
    // pool 7 + 1 = 8; fill b 8 (available 9).
    expect(result.shares).toEqual({ a: 0, b: 8 });
    expect(result.newMax).toEqual({ a: 3, b: 13 });
    expect(Object.values(result.newMax).reduce((x, y) => x + y, 0)).toBe(16);
  });

  it('does not apply to Duplicated', () => {
    const result = previewPeriodOptimization({ policy: 'Duplicated', clusters: [{ name: 'a', currentReplicas: 2, maxReplicas: 5 }] });
    expect(result.newMax).toEqual({ a: 5 });
    expect(result.shares).toEqual({ a: 0 });
    expect(result.notes).toContainEqual(expect.stringContaining('does not apply to Duplicated'));
  });
});
