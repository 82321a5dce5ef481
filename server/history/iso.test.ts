import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from './recorder';

/** What `iso` must return for every input: the time through a `Date`, as it was written before its fast path. */
const throughDate = (t: string | null | undefined): string | null => {
  if (!t) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

describe('iso: stored times in toISOString form', () => {
  it('keeps the API shape and the stored shape as written, rolls over nothing by itself', () => {
    expect(iso('2026-11-25T03:14:25Z')).toBe('2026-11-25T03:14:25.000Z');
    expect(iso('2026-11-25T03:14:25.123Z')).toBe('2026-11-25T03:14:25.123Z');
    expect(iso('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    // Date.parse rolls these over; the fast path must not keep them as written.
    expect(iso('2026-02-29T00:00:00Z')).toBe('2026-03-01T00:00:00.000Z');
    expect(iso('2026-01-01T24:00:00Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(iso('2026-11-25T04:14:25+01:00')).toBe('2026-11-25T03:14:25.000Z');
    expect(iso('not a time')).toBeNull();
    expect(iso('')).toBeNull();
    expect(iso(null)).toBeNull();
  });

  it('agrees with a Date round trip on generated times, valid and not', () => {
    const field = (min: number, max: number, width: number) => fc.integer({ min, max }).map((n) => pad(n, width));
    const time = fc
      .tuple(
        fc.oneof(field(0, 9999, 4), fc.constantFrom('1900', '2000', '2100', '2024', '2026')),
        field(0, 13, 2),
        field(0, 32, 2),
        fc.constantFrom('T', 't', ' '),
        field(0, 25, 2),
        field(0, 61, 2),
        field(0, 61, 2),
        fc.oneof(
          fc.constant(''),
          field(0, 999, 3).map((ms) => `.${ms}`),
          fc.constantFrom('.5', '.1234', '.'),
        ),
        fc.constantFrom('Z', 'z', '+00:00', '-05:30', ''),
      )
      .map(([y, mo, d, sep, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${zone}`);
    fc.assert(
      fc.property(fc.oneof({ weight: 8, arbitrary: time }, { weight: 1, arbitrary: fc.string({ maxLength: 26 }) }), (t) => {
        expect(iso(t)).toBe(throughDate(t));
      }),
      { numRuns: 20_000 },
    );
  });
});
