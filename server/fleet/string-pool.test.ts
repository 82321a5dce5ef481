import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleet, hpas, NOW, US } from '@/lib/triage/__fixtures__/fleet';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import { StringPool } from './string-pool';

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
});
