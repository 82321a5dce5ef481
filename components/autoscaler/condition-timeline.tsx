'use client';

import type { AutoscalerKind, HistoryResponse } from '@/lib/api';
import { formatDuration, formatTimestamp } from '@/lib/format/time';
import { healthLabel } from '../ui/health';
import { useTimeZone } from '../ui/time-zone';
import styles from './history.module.css';
import { spanStyle, useTimeAxis } from './time-axis-frame';
import type { LanePiece } from './timeline-model';
import { coalesceSlivers, laneOrder, toLanePieces, unknownCauseText } from './timeline-model';

function SegmentTooltip({ type, piece, timeZone }: { type: string; piece: LanePiece; timeZone: string | undefined }): React.JSX.Element {
  const end = piece.kind === 'state' && piece.open ? 'now (still open)' : formatTimestamp(new Date(piece.end).toISOString(), timeZone);
  return (
    <>
      {piece.kind === 'cluster' ? (
        <>
          <div className={styles.tipTitle}>
            <span className={`health-${piece.worst}`} aria-hidden="true">
              <span className="health-dot" />
            </span>{' '}
            {type}: <strong>{piece.count} changes</strong> <span className="muted">· worst {healthLabel[piece.worst]}</span>
          </div>
          <div className={styles.tipMessage}>{piece.reasons.join(' · ')}</div>
          <div className="muted">Too close together to draw apart: click to zoom in.</div>
        </>
      ) : piece.kind === 'state' ? (
        <>
          <div className={styles.tipTitle}>
            <span className={`health-${piece.segment.meaning}`} aria-hidden="true">
              <span className="health-dot" />
            </span>{' '}
            {type}={piece.segment.status} <strong>{piece.segment.reason ?? '(no reason)'}</strong>{' '}
            <span className="muted">· {healthLabel[piece.segment.meaning]}</span>
          </div>
          {piece.segment.message ? <div className={styles.tipMessage}>{piece.segment.message}</div> : null}
        </>
      ) : (
        <div className={styles.tipTitle}>
          {type}: unknown <span className="muted">· {unknownCauseText[piece.cause]}</span>
        </div>
      )}
      <dl className={styles.tipFacts}>
        <dt>Start</dt>
        <dd>{formatTimestamp(new Date(piece.start).toISOString(), timeZone)}</dd>
        <dt>End</dt>
        <dd>{end}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(piece.end - piece.start)}</dd>
      </dl>
    </>
  );
}

function segmentLabel(type: string, piece: LanePiece, timeZone: string | undefined): string {
  const span = `from ${formatTimestamp(new Date(piece.start).toISOString(), timeZone)} to ${piece.kind === 'state' && piece.open ? 'now' : formatTimestamp(new Date(piece.end).toISOString(), timeZone)} (${formatDuration(piece.end - piece.start)})`;
  if (piece.kind === 'unknown') return `${type} unknown: ${unknownCauseText[piece.cause]}, ${span}`;
  if (piece.kind === 'cluster')
    return `${type}: ${piece.count} changes (worst ${healthLabel[piece.worst]}: ${piece.reasons.join(', ')}), ${span}; zoom in to see them`;
  const s = piece.segment;
  return `${type} ${s.status}${s.reason ? ` ${s.reason}` : ''} (${healthLabel[s.meaning]}), ${span}${s.message ? `: ${s.message}` : ''}`;
}

/**
 * One swimlane per condition type (docs/ui.md order), segments coloured by `meaning` with the status and reason
 * written inside when they fit; missing history hatched as unknown. A segment is a button: it zooms to itself.
 */
export function ConditionTimeline({
  kind,
  history,
  now,
}: {
  kind: AutoscalerKind;
  history: HistoryResponse;
  now: number;
}): React.JSX.Element {
  const { range, showTooltip, hideTooltip, consumeDrag, zoomTo } = useTimeAxis();
  const { timeZone } = useTimeZone();
  const byType = new Map(history.conditions.map((c) => [c.type, c.segments]));
  const lanes = laneOrder(kind, [...byType.keys()]);

  return (
    <div role="group" aria-label="Condition timeline" className={styles.lanes}>
      {lanes.map((type) => {
        const pieces = coalesceSlivers(
          toLanePieces(byType.get(type) ?? [], history.gaps, history.firstSeen, range, now),
          range.to - range.from,
        );
        return (
          <div key={type} className={styles.lane} role="group" aria-label={`${type} lane`} data-testid="timeline-lane" data-type={type}>
            <div className={`${styles.laneLabel} mono`}>{type}</div>
            <div className={styles.track}>
              {pieces.map((piece) => {
                const label = segmentLabel(type, piece, timeZone);
                const tip = <SegmentTooltip type={type} piece={piece} timeZone={timeZone} />;
                if (piece.kind === 'unknown') {
                  return (
                    <div
                      key={`u-${piece.start}`}
                      role="img"
                      aria-label={label}
                      className={styles.unknown}
                      style={spanStyle(piece.start, piece.end, range)}
                      data-testid="timeline-unknown"
                      data-cause={piece.cause}
                      onPointerEnter={(e) => showTooltip(e, tip)}
                      onPointerLeave={hideTooltip}
                    >
                      <span className={styles.segText}>unknown</span>
                    </div>
                  );
                }
                const zoomToPiece = (): void => {
                  if (consumeDrag()) return;
                  const pad = Math.max(30_000, (piece.end - piece.start) * 0.1);
                  zoomTo(piece.start - pad, piece.end + pad);
                };
                if (piece.kind === 'cluster') {
                  return (
                    <button
                      key={`c-${piece.start}`}
                      type="button"
                      aria-label={label}
                      className={`${styles.segment} ${styles.cluster} health-${piece.worst}`}
                      style={spanStyle(piece.start, piece.end, range)}
                      data-testid="timeline-cluster"
                      data-type={type}
                      data-health={piece.worst}
                      onPointerEnter={(e) => showTooltip(e, tip)}
                      onPointerLeave={hideTooltip}
                      onFocus={(e) => showTooltip(e.currentTarget, tip)}
                      onBlur={hideTooltip}
                      onClick={zoomToPiece}
                    >
                      <span className={styles.segText}>{piece.count} changes</span>
                    </button>
                  );
                }
                const s = piece.segment;
                return (
                  <button
                    key={`s-${piece.start}`}
                    type="button"
                    aria-label={label}
                    className={`${styles.segment} health-${s.meaning}`}
                    style={spanStyle(piece.start, piece.end, range)}
                    data-testid="timeline-segment"
                    data-type={type}
                    data-status={s.status}
                    data-reason={s.reason ?? ''}
                    data-health={s.meaning}
                    onPointerEnter={(e) => showTooltip(e, tip)}
                    onPointerLeave={hideTooltip}
                    onFocus={(e) => showTooltip(e.currentTarget, tip)}
                    onBlur={hideTooltip}
                    onClick={zoomToPiece}
                  >
                    <span className={styles.segText}>
                      {s.status}
                      {s.reason ? ` · ${s.reason}` : ''}
                    </span>
                  </button>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}
