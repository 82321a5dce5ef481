import type { EventDto } from '@/lib/api';
import { ClockText } from '../ui/time-zone';
import { eventTone } from './event-marks';
import styles from './panels.module.css';

/** The autoscaler's events as Autoscope kept them (Kubernetes drops events after an hour), newest first. */
export function EventsTable({
  events,
  self,
}: {
  events: readonly EventDto[];
  /** `Kind/name` of the autoscaler: events about anything else name it. */ self: string;
}): React.JSX.Element {
  const sorted = [...events].sort((a, b) => (b.lastSeen ?? b.firstSeen ?? '').localeCompare(a.lastSeen ?? a.firstSeen ?? ''));
  return (
    <section className="card" aria-labelledby="events-title" data-testid="events">
      <h2 id="events-title" className={styles.h2}>
        Events <span className="muted num">{events.length}</span>
      </h2>
      <p className={`${styles.note} muted`}>Kept by Autoscope: the Kubernetes API drops events after one hour.</p>
      {sorted.length === 0 ? (
        <p className="muted">No events recorded for this autoscaler since Autoscope started watching it.</p>
      ) : (
        <div className={`${styles.tableWrap} ${styles.eventsWrap}`} tabIndex={0} role="region" aria-label="Events, scrollable">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Reason</th>
                <th scope="col">Message</th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col">First</th>
                <th scope="col">Last</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((e) => (
                <tr key={e.uid} data-testid="event-row" data-reason={e.reason}>
                  <td>
                    <span className={styles.eventType} data-tone={eventTone(e)}>
                      {e.type}
                    </span>
                  </td>
                  <td className="mono">{e.reason}</td>
                  <td className={styles.messageCell} title={e.message}>
                    {e.regarding !== self ? <span className="chip">{e.regarding}</span> : null}
                    <span>{e.message}</span>
                  </td>
                  <td className="num">{e.count}</td>
                  <td>
                    <ClockText at={e.firstSeen} />
                  </td>
                  <td>
                    <ClockText at={e.lastSeen} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
