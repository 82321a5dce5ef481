import { describe, expect, it } from 'vitest';

import { previewPrioritizedScaleDown } from '@/lib/federation/preview-prioritized-scale-down';

describe('previewPrioritizedScaleDown — seed example (§4.7)', () => {
  it('§4.7 target 50%, all at 25%: total 9, excess 8, final cluster1 4, cluster2 4, cluster3 1 (seed: names swapped, stalls at 4/9/2)', () => {
    const result = previewPrioritizedScaleDown({
      targetUtilization: 50,
      clusters: [
        { name: 'cluster1', currentReplicas: 4, minReplicas: 1, maxReplicas: 4, currentUtilization: 25, priority: 3 },
        { name: 'cluster2', currentReplicas: 9, minReplicas: 1, maxReplicas: 100, currentUtilization: 25, priority: 2 },
        { name: 'cluster3', currentReplicas: 4, minReplicas: 1, maxReplicas: 100, currentUtilization: 25, priority: 1 },
      ],
    });
    expect(result.totalLoad).toBe(425);
    expect(result.totalDesiredReplicas).toBe(9);
    expect(result.excessReplicas).toBe(8);
    expect(result.removalOrder).toEqual(['cluster3', 'cluster2']);
    expect(result.final).toEqual([
      { name: 'cluster1', replicas: 4 },
      { name: 'cluster2', replicas: 4 },
      { name: 'cluster3', replicas: 1 },
    ]);
    expect(result.notes).toContainEqual(
      expect.stringContaining("cluster3's HPA settles at 2 (equal load sharing), leaving 15 pods where 9 would do"),
    );
    expect(result.notes).toContainEqual(expect.stringContaining('so the names are swapped'));
  });
});

describe('previewPrioritizedScaleDown — rules', () => {
  it("stops at every cluster's min and reports the excess it cannot remove", () => {
    const result = previewPrioritizedScaleDown({
      targetUtilization: 80,
      clusters: [
        { name: 'a', currentReplicas: 5, minReplicas: 4, maxReplicas: 10, currentUtilization: 10, priority: 1 },
        { name: 'b', currentReplicas: 5, minReplicas: 3, maxReplicas: 10, currentUtilization: 10, priority: 2 },
      ],
    });
    // load 100 → desired 2, excess 8; a −1, b −2, 5 left over.
    expect(result.excessReplicas).toBe(8);
    expect(result.final).toEqual([
      { name: 'a', replicas: 4 },
      { name: 'b', replicas: 3 },
    ]);
    expect(result.explanation).toContainEqual('5 excess replicas remain: every cluster is at its minReplicas.');
  });

  it('removes nothing when the load needs every replica, and the hand-over note stays silent', () => {
    const result = previewPrioritizedScaleDown({
      targetUtilization: 50,
      clusters: [
        { name: 'a', currentReplicas: 2, minReplicas: 1, maxReplicas: 10, currentUtilization: 60, priority: 1 },
        { name: 'b', currentReplicas: 2, minReplicas: 1, maxReplicas: 10, currentUtilization: 60, priority: 2 },
      ],
    });
    expect(result.totalDesiredReplicas).toBe(5);
    expect(result.excessReplicas).toBe(0);
    expect(result.removalOrder).toEqual([]);
    expect(result.notes).toEqual([]);
  });

  it('breaks equal priorities by name descending, like the to-zero order', () => {
    const result = previewPrioritizedScaleDown({
      targetUtilization: 50,
      clusters: [
        { name: 'a', currentReplicas: 3, minReplicas: 1, maxReplicas: 10, currentUtilization: 25, priority: 1 },
        { name: 'b', currentReplicas: 3, minReplicas: 1, maxReplicas: 10, currentUtilization: 25, priority: 1 },
      ],
    });
    expect(result.removalOrder).toEqual(['b', 'a']);
    expect(result.final).toEqual([
      { name: 'a', replicas: 2 },
      { name: 'b', replicas: 1 },
    ]);
  });

  it('rejects min > max, naming the field', () => {
    expect(() =>
      previewPrioritizedScaleDown({
        targetUtilization: 50,
        clusters: [{ name: 'a', currentReplicas: 3, minReplicas: 5, maxReplicas: 4, currentUtilization: 1, priority: 1 }],
      }),
    ).toThrow(/minReplicas/);
  });
});
