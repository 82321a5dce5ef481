import type { EventDto } from '@/lib/api';
import type { TimeRange } from './time-scale';

/** How an event is drawn on the time axis: rescales and failures are the ones the replicas chart marks. */
export type EventTone = 'rescale' | 'failed' | 'warning' | 'normal';

export function eventTone(e: Pick<EventDto, 'type' | 'reason'>): EventTone {
  if (e.reason === 'SuccessfulRescale') return 'rescale';
  if (e.reason.startsWith('Failed')) return 'failed';
  return e.type === 'Warning' ? 'warning' : 'normal';
}

export interface EventMark {
  event: EventDto;
  tone: EventTone;
  /** First and last occurrence (a repeated event spans a range; `count` says how often). */
  start: number;
  end: number;
}

/** The events inside the range, oldest first, clipped to it. */
export function toEventMarks(events: readonly EventDto[], range: TimeRange): EventMark[] {
  return events
    .flatMap((event): EventMark[] => {
      const first = Date.parse(event.firstSeen ?? event.lastSeen ?? '');
      const last = Date.parse(event.lastSeen ?? event.firstSeen ?? '');
      if (Number.isNaN(first) || Number.isNaN(last)) return [];
      if (last < range.from || first > range.to) return [];
      return [{ event, tone: eventTone(event), start: Math.max(range.from, first), end: Math.min(range.to, Math.max(first, last)) }];
    })
    .sort((a, b) => a.start - b.start);
}
