import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toAutoscalerId } from '@/lib/api';
import { ClusterIds } from './cluster-ids';

// Names whose order differs from their ids' order (`a` < `a-b`, but `a/…` > `a-b/…`), ones that encode (a space, a
// Karmada member's `/`, a `%`), and characters either side of `/` and `%`.
const clusterNames = ['a', 'a-b', 'a.b', 'a b', 'a/m1', 'a%', 'a0', 'b', 'Z', 'ä'];
const op = fc.record({
  remove: fc.boolean(),
  cluster: fc.constantFrom(...clusterNames),
  namespace: fc.constantFrom('default', 'ns', 'ns-1', 'ns.a'),
  name: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,6}$/),
});

describe('ClusterIds', () => {
  it('reads every id in sorted order, and each cluster’s, through adds and removes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const ids = new ClusterIds();
        const model = new Map<string, string>(); // id -> cluster
        for (const o of ops) {
          const id = toAutoscalerId(o.cluster, 'HorizontalPodAutoscaler', o.namespace, o.name);
          if (o.remove) {
            expect(ids.delete(o.cluster, id)).toBe(model.delete(id));
          } else if (!model.has(id)) {
            ids.add(o.cluster, id);
            model.set(id, o.cluster);
          }
        }
        expect([...ids.inIdOrder()]).toEqual([...model.keys()].sort());
        const clusters = [...new Set(model.values())].sort();
        expect(ids.names()).toEqual(clusters);
        for (const c of clusterNames) {
          const mine = [...model].filter(([, cluster]) => cluster === c).map(([id]) => id);
          expect([...ids.of(c)].sort()).toEqual(mine.sort());
          expect(ids.sortedOf(c)).toEqual(mine.sort());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('takes a cluster whole, and forgets it', () => {
    const ids = new ClusterIds();
    ids.add('a', 'a/HorizontalPodAutoscaler/ns/x');
    ids.add('a', 'a/HorizontalPodAutoscaler/ns/w');
    ids.add('b', 'b/HorizontalPodAutoscaler/ns/y');
    expect([...ids.take('a')].sort()).toEqual(['a/HorizontalPodAutoscaler/ns/w', 'a/HorizontalPodAutoscaler/ns/x']);
    expect(ids.names()).toEqual(['b']);
    expect([...ids.inIdOrder()]).toEqual(['b/HorizontalPodAutoscaler/ns/y']);
    expect(ids.take('a')).toEqual([]);
    expect(ids.delete('a', 'a/HorizontalPodAutoscaler/ns/x')).toBe(false);
  });
});
