/**
 * The one time axis of the autoscaler page: ticks and their labels, shared by the condition timeline, the event
 * lane and the replicas chart so all three line up and zoom together. Pure: times are epoch milliseconds.
 */

export interface TimeRange {
  from: number;
  to: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  15_000,
  30_000,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/** The offset of `timeZone` from UTC at `t` (positive east of Greenwich); the browser's zone when undefined. */
export function zoneOffsetMs(t: number, timeZone: string | undefined): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(t));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** The step between ticks: the smallest that keeps at most `maxTicks` of them in the range. */
export function tickStep(range: TimeRange, maxTicks: number): number {
  const span = Math.max(1, range.to - range.from);
  return STEPS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
}

/** Ticks on round local times (whole minutes, hours, midnights in `timeZone`) inside the range. */
export function timeTicks(range: TimeRange, timeZone: string | undefined, maxTicks = 8): { step: number; ticks: number[] } {
  const step = tickStep(range, maxTicks);
  const offset = zoneOffsetMs(range.from, timeZone);
  const ticks: number[] = [];
  for (let t = Math.ceil((range.from + offset) / step) * step - offset; t <= range.to && ticks.length <= maxTicks + 1; t += step)
    ticks.push(t);
  return { step, ticks };
}

/** "14:05", "Nov 21 14:00" where the date changes, "Nov 21" for day steps. */
export function formatTick(t: number, step: number, previous: number | null, timeZone: string | undefined): string {
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, month: 'short', day: 'numeric' }).format(t);
  if (step >= DAY) return date;
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    ...(step < MINUTE ? { second: '2-digit' } : {}),
  }).format(t);
  const newDay =
    previous === null
      ? false
      : new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(previous) !==
        new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(t);
  return newDay ? `${date} ${clock}` : clock;
}

/** "CET", "UTC", "GMT+5:30": the zone as the axis caption names it. */
export function zoneName(t: number, timeZone: string | undefined): string {
  return (
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' }).formatToParts(new Date(t)).find((p) => p.type === 'timeZoneName')
      ?.value ?? 'local'
  );
}

/** Where `t` falls in the range, 0…1 (clamped). */
export function fractionOf(t: number, range: TimeRange): number {
  const span = range.to - range.from;
  if (span <= 0) return 0;
  return Math.min(1, Math.max(0, (t - range.from) / span));
}
