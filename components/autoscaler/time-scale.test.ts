import { describe, expect, it } from 'vitest';
import { formatTick, fractionOf, timeTicks, zoneName, zoneOffsetMs } from './time-scale';

const t = (iso: string): number => Date.parse(iso);

describe('time scale', () => {
  it('ticks on whole local hours of the zone', () => {
    const { step, ticks } = timeTicks({ from: t('2026-11-22T01:10:00Z'), to: t('2026-11-22T07:10:00Z') }, 'Asia/Kolkata');
    expect(step).toBe(3_600_000);
    // Kolkata is UTC+5:30: local whole hours fall on :30 UTC.
    expect(new Date(ticks[0] ?? 0).toISOString()).toBe('2026-11-22T01:30:00.000Z');
    expect(ticks).toHaveLength(6);
  });

  it('labels clocks, with the date where the day changes', () => {
    const step = 6 * 3_600_000;
    expect(formatTick(t('2026-11-22T12:00:00Z'), step, t('2026-11-22T06:00:00Z'), 'UTC')).toBe('12:00');
    expect(formatTick(t('2026-11-23T00:00:00Z'), step, t('2026-11-22T18:00:00Z'), 'UTC')).toBe('23 Nov 00:00');
    expect(formatTick(t('2026-11-23T00:00:00Z'), 86_400_000, null, 'UTC')).toBe('23 Nov');
  });

  it('names and measures zones', () => {
    expect(zoneName(t('2026-11-22T12:00:00Z'), 'UTC')).toBe('UTC');
    expect(zoneOffsetMs(t('2026-11-22T12:00:00Z'), 'Europe/Berlin')).toBe(3_600_000);
    expect(fractionOf(150, { from: 100, to: 200 })).toBe(0.5);
    expect(fractionOf(500, { from: 100, to: 200 })).toBe(1);
  });
});
