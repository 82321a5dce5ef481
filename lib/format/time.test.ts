import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, formatSince, formatTimestamp } from './time';

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [45_000, '45 s'],
    [125_000, '2 min 5 s'],
    [12 * 60_000, '12 min'],
    [3 * 3600_000 + 12 * 60_000 + 30_000, '3 h 12 min'],
    [3 * 3600_000, '3 h'],
    [2 * 86_400_000 + 4 * 3600_000, '2 d 4 h'],
    [-5_000, '0 s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatSince / formatClock / formatTimestamp', () => {
  const now = Date.parse('2026-11-22T14:00:00Z');
  it('measures from an RFC 3339 time and answers null when unknown', () => {
    expect(formatSince('2026-11-22T12:30:00Z', now)).toBe('1 h 30 min');
    expect(formatSince(null, now)).toBeNull();
    expect(formatSince('not a time', now)).toBeNull();
  });
  it('prints the clock with the zone, and the date when not today', () => {
    expect(formatClock('2026-11-22T13:02:00Z', now, 'UTC')).toBe('13:02 UTC');
    expect(formatClock('2026-11-20T13:02:00Z', now, 'UTC')).toBe('20 Nov, 13:02 UTC');
    expect(formatClock('2026-11-22T13:02:00Z', now, 'Europe/Paris')).toBe('14:02 CET');
  });
  it('prints full timestamps for tooltips', () => {
    expect(formatTimestamp('2026-11-22T13:02:11Z', 'UTC')).toBe('2026-11-22 13:02:11 UTC');
  });
});
