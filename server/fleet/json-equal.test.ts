import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import { jsonEqual } from './json-equal';

/** JSON with every object's keys sorted: equal text means equal JSON up to key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
      : v,
  );
}

describe('jsonEqual', () => {
  it('says what comparing the JSON (keys sorted) says, for any two JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
        expect(jsonEqual(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells every changed field of a DTO, treats undefined as absent, and skips the key it is told to', () => {
    const dtos = fleet();
    fc.assert(
      fc.property(fc.constantFrom(...dtos), fc.constantFrom(...dtos), (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
    const dto = dtos[0];
    if (!dto) throw new Error('fixture is empty');
    expect(jsonEqual(dto, { ...dto, stale: !dto.stale }, 'stale')).toBe(true);
    expect(jsonEqual(dto, { ...dto, stale: !dto.stale })).toBe(false);
    expect(jsonEqual(dto, { ...dto, extra: undefined })).toBe(true);
    expect(jsonEqual([1, undefined], [1, null])).toBe(true);
  });
});
