'use client';

import type { EventDto } from '@/lib/api';
import { formatTimestamp } from '@/lib/format/time';
import { useTimeZone } from '../ui/time-zone';
import type { EventMark } from './event-marks';
import { toEventMarks } from './event-marks';
import styles from './history.module.css';
import { spanStyle, useTimeAxis } from './time-axis-frame';

const ROWS = 3;

/** Greedy rows so that marks closer than 1 % of the axis do not cover each other. */
function toRows(marks: readonly EventMark[], span: number): EventMark[][] {
  const rows: EventMark[][] = Array.from({ length: ROWS }, () => []);
  for (const m of marks) {
    const row = rows.find((r) => {
      const last = r[r.length - 1];
      return !last || m.start - last.end > span * 0.01;
    });
    (row ?? rows[ROWS - 1] ?? []).push(m);
  }
  return rows.filter((r) => r.length > 0);
}

export function EventTooltip({ mark, timeZone }: { mark: EventMark; timeZone: string | undefined }): React.JSX.Element {
  const e = mark.event;
  return (
    <>
      <div className={styles.tipTitle}>
        <span className={`${styles.toneDot} ${styles[`tone-${mark.tone}`]}`} aria-hidden="true" /> {e.type} <strong>{e.reason}</strong>
        {e.count > 1 ? <span className="muted"> ×{e.count}</span> : null}
      </div>
      <div className={styles.tipMessage}>{e.message}</div>
      <dl className={styles.tipFacts}>
        <dt>First</dt>
        <dd>{formatTimestamp(e.firstSeen, timeZone)}</dd>
        <dt>Last</dt>
        <dd>{formatTimestamp(e.lastSeen, timeZone)}</dd>
        {e.source ? (
          <>
            <dt>Source</dt>
            <dd>{e.source}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

/** The events on the shared axis: a tick per occurrence, a bar from first to last for repeated ones. */
export function EventLane({ events }: { events: readonly EventDto[] }): React.JSX.Element {
  const { range, showTooltip, hideTooltip, consumeDrag, zoomTo } = useTimeAxis();
  const { timeZone } = useTimeZone();
  const marks = toEventMarks(events, range);
  const rows = toRows(marks, range.to - range.from);
  return (
    <div className={styles.lane} role="group" aria-label="Events lane" data-testid="event-lane">
      <div className={styles.laneLabel}>
        Events <span className="muted num">{marks.length}</span>
      </div>
      <div className={`${styles.track} ${styles.eventTrack}`} style={{ height: Math.max(1, rows.length) * 11 + 8 }}>
        {marks.length === 0 ? <span className={`${styles.laneEmpty} muted`}>No events in this window</span> : null}
        {rows.map((row, i) =>
          row.map((m) => {
            const tip = <EventTooltip mark={m} timeZone={timeZone} />;
            const e = m.event;
            return (
              <button
                key={e.uid}
                type="button"
                className={`${styles.eventMark} ${styles[`tone-${m.tone}`]}`}
                style={{ ...spanStyle(m.start, m.end, range), top: 4 + i * 11 }}
                aria-label={`${e.type} ${e.reason}${e.count > 1 ? ` ×${e.count}` : ''}, ${formatTimestamp(e.firstSeen, timeZone)}${e.count > 1 ? ` to ${formatTimestamp(e.lastSeen, timeZone)}` : ''}: ${e.message}`}
                data-testid="event-mark"
                data-reason={e.reason}
                onPointerEnter={(ev) => showTooltip(ev, tip)}
                onPointerLeave={hideTooltip}
                onFocus={(ev) => showTooltip(ev.currentTarget, tip)}
                onBlur={hideTooltip}
                onClick={() => {
                  if (consumeDrag()) return;
                  const pad = Math.max(60_000, (m.end - m.start) * 0.5);
                  zoomTo(m.start - pad, m.end + pad);
                }}
              />
            );
          }),
        )}
      </div>
    </div>
  );
}
