'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AutoscalerKind } from '@/lib/api';
import { formatTimestamp } from '@/lib/format/time';
import type { AutoscalerRef } from '../api/paths';
import { historyQuery } from '../queries/keys';
import { QueryError, Skeleton } from '../ui/query-state';
import { useNow, useTimeZone } from '../ui/time-zone';
import { ConditionTimeline } from './condition-timeline';
import { EventLane } from './event-lane';
import styles from './history.module.css';
import { replicasAt, toReplicaSteps } from './replica-steps';
import { ReplicasChart } from './replicas-chart';
import { LABEL_WIDTH, RIGHT_GAP, TimeAxisFrame } from './time-axis-frame';
import { formatTick, fractionOf, timeTicks, zoneName } from './time-scale';
import type { TimeWindow } from './use-time-window';
import { MIN_SPAN_MS, useTimeWindow, WINDOW_PRESETS } from './use-time-window';

const iso = (t: number): string => new Date(t).toISOString();

function WindowPicker({
  window,
  onPreset,
  onZoomOut,
  onReset,
  zone,
}: {
  window: TimeWindow | null;
  onPreset: (p: (typeof WINDOW_PRESETS)[number]) => void;
  onZoomOut: () => void;
  onReset: () => void;
  zone: string;
}): React.JSX.Element {
  const { timeZone } = useTimeZone();
  return (
    <div className={styles.toolbar}>
      <div role="group" aria-label="Time window" className={styles.segmented}>
        {WINDOW_PRESETS.map((p) => (
          <button key={p} type="button" aria-pressed={!!window && !window.zoomed && window.preset === p} onClick={() => onPreset(p)}>
            {p}
          </button>
        ))}
      </div>
      {window?.zoomed ? (
        <span className={styles.zoomInfo} data-testid="zoom-range">
          Zoomed to <span className="num">{formatTimestamp(iso(window.from), timeZone)}</span> –{' '}
          <span className="num">{formatTimestamp(iso(window.to), timeZone)}</span>
          <button type="button" onClick={onZoomOut}>
            Zoom out
          </button>
          <button type="button" onClick={onReset}>
            Back to last {window.preset}
          </button>
        </span>
      ) : (
        <span className="muted">Drag across the timeline or the chart to zoom; click a segment to zoom to it.</span>
      )}
      <span className={`${styles.zone} muted`}>Times in {zone}</span>
    </div>
  );
}

/**
 * "Since when, and what happened?": the condition timeline, the events and the replicas chart on one time axis,
 * with the window (`?window=`) and the zoom (`?from=&to=`) in the URL.
 */
export function HistoryPanel({ autoscalerRef, kind }: { autoscalerRef: AutoscalerRef; kind: AutoscalerKind }): React.JSX.Element {
  const { window, setPreset, zoomTo, resetZoom } = useTimeWindow();
  const now = useNow();
  const { timeZone } = useTimeZone();
  const from = window?.from ?? null;
  const to = window?.to ?? null;
  const range = useMemo(() => (from !== null && to !== null ? { from, to } : null), [from, to]);
  const query = useQuery({
    ...historyQuery(autoscalerRef, range ? { from: iso(range.from), to: iso(range.to) } : { from: '', to: '' }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
  const zone = zoneName(range?.to ?? now, timeZone);

  const zoomOut = (): void => {
    if (!range) return;
    const span = Math.max(MIN_SPAN_MS, range.to - range.from);
    zoomTo(range.from - span / 2, Math.min(now || range.to + span / 2, range.to + span / 2));
  };

  let body: React.ReactNode;
  if (!range || query.isPending) body = <Skeleton rows={6} height={22} />;
  else if (query.error) body = <QueryError error={query.error} retry={() => void query.refetch()} />;
  else {
    const history = query.data;
    const effectiveNow = now || range.to;
    const { step, ticks } = timeTicks(range, timeZone);
    const labelOf = (t: number): string => formatTick(t, step, ticks[ticks.indexOf(t) - 1] ?? null, timeZone);
    const points = toReplicaSteps(history.replicas, range, effectiveNow);
    const last = points[points.length - 1];
    const changes = new Set(points.map((p) => `${p.current}/${p.desired}`)).size;
    const summary = last
      ? `Replicas over the window: ${points.length} samples, ${changes} distinct current/desired pairs; at the end current ${last.current ?? 'unknown'}, desired ${last.desired ?? 'unknown'}, min ${last.min ?? '—'}, max ${last.max ?? '—'}.`
      : 'No replica samples in this window.';
    const firstSeen = history.firstSeen ? Date.parse(history.firstSeen) : range.from;
    const showFirstSeen = history.firstSeen !== null && firstSeen > range.from && firstSeen < range.to;
    body = (
      <TimeAxisFrame
        range={range}
        onZoom={zoomTo}
        readout={(t) => {
          const p = replicasAt(points, t);
          return (
            <>
              <div className={styles.tipTitle}>{formatTimestamp(iso(t), timeZone)}</div>
              {p ? (
                <dl className={styles.tipFacts}>
                  <dt>Current</dt>
                  <dd className="num">{p.current ?? 'unknown'}</dd>
                  <dt>Desired</dt>
                  <dd className="num">{p.desired ?? 'unknown'}</dd>
                  <dt>Min – max</dt>
                  <dd className="num">
                    {p.min ?? '—'} – {p.max ?? '—'}
                  </dd>
                </dl>
              ) : (
                <div className="muted">No sample yet at this time.</div>
              )}
            </>
          );
        }}
      >
        <div className={styles.axisRow} aria-hidden="true" style={{ marginLeft: LABEL_WIDTH, marginRight: RIGHT_GAP }}>
          <span className={styles.axisZone} style={{ left: -LABEL_WIDTH, width: LABEL_WIDTH }}>
            Time ({zone})
          </span>
          {ticks.map((t) =>
            // The "first seen" flag takes its place on the axis; a tick label under it would be unreadable.
            showFirstSeen && Math.abs(fractionOf(t, range) - fractionOf(firstSeen, range)) < 0.07 ? null : (
              <span key={t} className={styles.tick} style={{ left: `${fractionOf(t, range) * 100}%` }}>
                {labelOf(t)}
              </span>
            ),
          )}
          {showFirstSeen ? (
            <span
              className={`${styles.firstSeen} ${fractionOf(firstSeen, range) > 0.85 ? styles.firstSeenLeft : ''}`}
              style={{ left: `${fractionOf(firstSeen, range) * 100}%` }}
              title={`Autoscope first saw this object at ${formatTimestamp(history.firstSeen, timeZone)}`}
            >
              first seen
            </span>
          ) : null}
        </div>
        <div className={styles.lanesBlock}>
          <div className={styles.gridLines} aria-hidden="true" style={{ left: LABEL_WIDTH, right: RIGHT_GAP }}>
            {ticks.map((t) => (
              <span key={t} style={{ left: `${fractionOf(t, range) * 100}%` }} />
            ))}
          </div>
          <ConditionTimeline kind={kind} history={history} now={effectiveNow} />
          <EventLane events={history.events} />
        </div>
        {points.length ? (
          <ReplicasChart points={points} events={history.events} ticks={ticks} formatTick={labelOf} summary={summary} />
        ) : (
          <p className={`${styles.chartEmpty} muted`} style={{ marginLeft: LABEL_WIDTH }}>
            No replica samples in this window: Autoscope records a sample whenever current, desired, min or max change.
          </p>
        )}
      </TimeAxisFrame>
    );
  }

  return (
    <section className="card" aria-labelledby="history-title" data-testid="history-panel">
      <div className={styles.head}>
        <h2 id="history-title" className={styles.title}>
          Since when, and what happened
        </h2>
        {query.isFetching && !query.isPending ? <span className="muted">Updating…</span> : null}
      </div>
      <WindowPicker window={window} onPreset={setPreset} onZoomOut={zoomOut} onReset={resetZoom} zone={zone} />
      {body}
      <ul className={styles.legend} aria-label="Legend">
        <li>
          <span className={`${styles.swatch} ${styles.swatchOk}`} aria-hidden="true" /> ok
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchDegraded}`} aria-hidden="true" /> degraded
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchFailing}`} aria-hidden="true" /> failing
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchUnknown}`} aria-hidden="true" /> unknown / no history
        </li>
        <li>
          <span className={styles.lineCurrent} aria-hidden="true" /> current replicas
        </li>
        <li>
          <span className={styles.lineDesired} aria-hidden="true" /> desired replicas
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchBand}`} aria-hidden="true" /> min–max
        </li>
        <li>
          <span className={`${styles.markLine} ${styles['tone-rescale']}`} aria-hidden="true" /> SuccessfulRescale
        </li>
        <li>
          <span className={`${styles.markLine} ${styles['tone-failed']}`} aria-hidden="true" /> Failed*
        </li>
      </ul>
    </section>
  );
}
