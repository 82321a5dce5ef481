import { describe, expect, it } from 'vitest';
import { assignClusters } from '@/lib/sharding/assign-clusters';

const clusters = Array.from({ length: 10 }, (_, i) => `cluster-${String(i + 1).padStart(2, '0')}`);

function loads(assignment: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const replica of Object.values(assignment)) out[replica] = (out[replica] ?? 0) + 1;
  return out;
}

function moved(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((c) => before[c] !== after[c]);
}

describe('assignClusters', () => {
  it('gives every cluster exactly one live replica, loads within one of each other', () => {
    for (const n of [1, 2, 3, 4, 7]) {
      const replicas = Array.from({ length: n }, (_, i) => `r${i}`);
      const a = assignClusters({ clusters, replicas, current: {} });
      expect(Object.keys(a).sort()).toEqual(clusters);
      const l = Object.values(loads(a));
      expect(l.length).toBe(Math.min(n, clusters.length));
      expect(Math.max(...l) - Math.min(...l)).toBeLessThanOrEqual(1);
    }
  });

  it('assigns nothing when no replica is live', () => {
    expect(assignClusters({ clusters, replicas: [], current: {} })).toEqual({});
  });

  it('is the same whatever order the inputs come in', () => {
    const a = assignClusters({ clusters, replicas: ['a', 'b', 'c'], current: {} });
    const b = assignClusters({ clusters: [...clusters].reverse(), replicas: ['c', 'a', 'b'], current: {} });
    expect(b).toEqual(a);
  });

  it('keeps the assignment it is given when it is already balanced (no churn between ticks)', () => {
    const a = assignClusters({ clusters, replicas: ['a', 'b', 'c'], current: {} });
    expect(assignClusters({ clusters, replicas: ['a', 'b', 'c'], current: a })).toEqual(a);
  });

  it("moves only the leaving replica's clusters when a replica leaves", () => {
    const before = assignClusters({ clusters, replicas: ['a', 'b', 'c'], current: {} });
    const after = assignClusters({ clusters, replicas: ['a', 'c'], current: before });
    expect(moved(before, after).sort()).toEqual(clusters.filter((c) => before[c] === 'b'));
    expect(Object.values(after)).not.toContain('b');
    expect(Object.values(loads(after)).sort()).toEqual([5, 5]);
  });

  it('moves only what the joining replica needs to reach its share when a replica joins', () => {
    const before = assignClusters({ clusters, replicas: ['a', 'b', 'c'], current: {} });
    const after = assignClusters({ clusters, replicas: ['a', 'b', 'c', 'd'], current: before });
    const m = moved(before, after);
    expect(m.every((c) => after[c] === 'd')).toBe(true);
    expect(m.length).toBe(2); // 10 clusters over 4 replicas: 3, 3, 2, 2
    expect(Object.values(loads(after)).sort()).toEqual([2, 2, 3, 3]);
  });

  it('ignores a current owner that is not live, and a cluster no longer configured', () => {
    const a = assignClusters({ clusters: ['x', 'y'], replicas: ['a'], current: { x: 'gone', z: 'a' } });
    expect(a).toEqual({ x: 'a', y: 'a' });
  });

  it('spreads a large fleet evenly from scratch', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `c${i}`);
    const a = assignClusters({ clusters: many, replicas: ['a', 'b', 'c'], current: {} });
    expect(Object.values(loads(a)).sort()).toEqual([333, 333, 334]);
  });
});
