import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleet, hpas, NOW, US } from '@/lib/triage/__fixtures__/fleet';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import { sameInOrder, StringPool } from './string-pool';

describe('StringPool', () => {
  it('leaves any JSON value byte-for-byte the same (keys, order, values)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 4 }), (values) => {
        const pool = new StringPool(8);
        for (const value of values) {
          const before = JSON.stringify(value);
          expect(JSON.stringify(pool.internDeep(value))).toBe(before);
        }
      }),
    );
  });

  it('leaves every fixture DTO byte-for-byte the same', () => {
    const pool = new StringPool();
    for (const dto of fleet()) {
      const before = JSON.stringify(dto);
      expect(JSON.stringify(pool.internDeep(dto))).toBe(before);
    }
  });

  it('keeps one entry per distinct string, and starts afresh past its limit', () => {
    const pool = new StringPool(2);
    const a = ['re', 'ason'].join('');
    expect(pool.intern(a)).toBe('reason');
    expect(pool.size).toBe(1);
    expect(pool.intern('reason')).toBe('reason');
    expect(pool.size).toBe(1);
    pool.intern('b');
    expect(pool.size).toBe(2);
    pool.intern('c');
    expect(pool.size).toBe(1);
  });

  it('shares the repeated strings of two DTOs mapped from separately parsed objects, not their unique ones', () => {
    const h = hpas(US)[0];
    if (!h) throw new Error('fixture has no HPA');
    const text = JSON.stringify(h);
    const pool = new StringPool();
    const a = pool.internDeep(toHpaAutoscaler(US, JSON.parse(text) as typeof h, { stale: false }, NOW));
    const b = pool.internDeep(toHpaAutoscaler(US, JSON.parse(text) as typeof h, { stale: false }, NOW));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(pool.size).toBeGreaterThan(3);
    // Unique values (id, name, uid) are never pooled: after two DTOs the pool holds none of them.
    const probe = new StringPool();
    probe.internDeep(a);
    const size = probe.size;
    probe.intern(a.id);
    probe.intern(a.name);
    expect(probe.size).toBe(size + 2);
    probe.intern(a.cluster);
    expect(probe.size).toBe(size + 2);
  });

  describe('internDeepSharing', () => {
    it('leaves any JSON value byte-for-byte the same, whatever the previous version', () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), (value, previous) => {
          const before = JSON.stringify(value);
          expect(JSON.stringify(new StringPool(8).internDeepSharing(value, previous))).toBe(before);
        }),
      );
    });

    it("takes the previous version's equal objects and arrays, and keeps its own where they differ", () => {
      const h = hpas(US)[0];
      if (!h) throw new Error('fixture has no HPA');
      const pool = new StringPool();
      const previous = pool.internDeep(toHpaAutoscaler(US, structuredClone(h), { stale: false }, NOW));
      const changed = structuredClone(h);
      changed.status = { ...changed.status, currentReplicas: (changed.status?.currentReplicas ?? 0) + 1 };
      const next = toHpaAutoscaler(US, changed, { stale: false }, NOW);
      const expected = JSON.stringify(next);
      pool.internDeepSharing(next, previous);
      expect(JSON.stringify(next)).toBe(expected);
      expect(next.currentReplicas).not.toBe(previous.currentReplicas);
      // What the replica count does not reach is the previous version's very object.
      expect(next.target).toBe(previous.target);
      expect(next.conditions).toBe(previous.conditions);
      expect(next.metrics).toBe(previous.metrics);
    });

    it('shares element by element inside an array that changed, and descends into objects that changed', () => {
      const previous = {
        conditions: [
          { type: 'A', at: '1' },
          { type: 'B', at: '1' },
        ],
        spec: { target: { n: 1 }, max: 3 },
      };
      const next = {
        conditions: [
          { type: 'A', at: '1' },
          { type: 'B', at: '2' },
        ],
        spec: { target: { n: 1 }, max: 4 },
      };
      new StringPool().internDeepSharing(next, previous);
      expect(next.conditions).not.toBe(previous.conditions);
      expect(next.conditions[0]).toBe(previous.conditions[0]);
      expect(next.conditions[1]).not.toBe(previous.conditions[1]);
      expect(next.spec).not.toBe(previous.spec);
      expect(next.spec.target).toBe(previous.spec.target);
    });

    it('does not take an equal object whose keys come in another order (its JSON would differ)', () => {
      const previous = { target: { kind: 'Deployment', name: 'web' } };
      const next = { target: { name: 'web', kind: 'Deployment' } };
      new StringPool().internDeepSharing(next, previous);
      expect(next.target).not.toBe(previous.target);
      expect(JSON.stringify(next)).toBe('{"target":{"name":"web","kind":"Deployment"}}');
    });
  });

  it('shared: an equal value pooled earlier stands in for a new one; a different one is pooled in turn, up to its limit', () => {
    const pool = new StringPool(8, 3);
    const a = [{ key: 'Resource/cpu', current: { averageUtilization: 45 } }];
    expect(pool.shared(a)).toBe(a);
    expect(pool.shared(structuredClone(a))).toBe(a);
    // Equal up to key order is not equal: the JSON would differ.
    const reordered = [{ current: { averageUtilization: 45 }, key: 'Resource/cpu' }];
    expect(pool.shared(reordered)).toBe(reordered);
    const b = [{ key: 'Resource/cpu', current: { averageUtilization: 46 } }];
    expect(pool.shared(b)).toBe(b);
    expect(pool.shared(structuredClone(b))).toBe(b);
    expect(pool.valueCount).toBe(3);
    const empty: unknown[] = [];
    expect(pool.shared(empty)).toBe(empty);
    expect(pool.valueCount).toBe(1);
    expect(pool.shared([])).toBe(empty);
  });

  it('sameInOrder holds exactly when two JSON values serialize alike without reordering', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        if (sameInOrder(a, b)) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(sameInOrder(a, structuredClone(a))).toBe(true);
      }),
    );
    expect(sameInOrder({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameInOrder([1, { a: 'x' }], [1, { a: 'x' }])).toBe(true);
    expect(sameInOrder({ a: undefined }, {})).toBe(false);
  });
});
