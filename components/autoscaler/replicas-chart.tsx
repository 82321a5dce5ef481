'use client';

import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, XAxis, YAxis } from 'recharts';
import type { EventDto } from '@/lib/api';
import type { EventTone } from './event-marks';
import { toEventMarks } from './event-marks';
import styles from './history.module.css';
import type { ReplicaPoint } from './replica-steps';
import { LABEL_WIDTH, RIGHT_GAP, useTimeAxis } from './time-axis-frame';

const toneColor: Record<EventTone, string> = {
  rescale: 'var(--chart-1)',
  failed: 'var(--bad)',
  warning: 'var(--warn)',
  normal: 'var(--chart-muted)',
};
export const CHART_HEIGHT = 190;

/**
 * Current and desired replicas as step lines inside the min–max band, with SuccessfulRescale and Failed* events
 * marked, on the page's shared time axis (its plot starts at `LABEL_WIDTH` like the lanes above it).
 */
export function ReplicasChart({
  points,
  events,
  ticks,
  formatTick,
  summary,
}: {
  points: readonly ReplicaPoint[];
  events: readonly EventDto[];
  ticks: number[];
  formatTick: (t: number) => string;
  summary: string;
}): React.JSX.Element {
  const { range } = useTimeAxis();
  const marks = toEventMarks(events, range).filter((m) => m.tone === 'rescale' || m.tone === 'failed');
  const top = Math.max(1, ...points.flatMap((p) => [p.current ?? 0, p.desired ?? 0, p.max ?? 0]));
  return (
    <div className={styles.chartRow} data-readout="replicas" data-testid="replicas-chart">
      <div role="img" aria-label={summary} style={{ height: CHART_HEIGHT }}>
        <ComposedChart
          responsive
          style={{ width: '100%', height: CHART_HEIGHT }}
          data={points}
          margin={{ top: 8, right: RIGHT_GAP, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={[range.from, range.to]}
            allowDataOverflow
            ticks={ticks}
            tickFormatter={formatTick}
            stroke="var(--border)"
            tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
            height={24}
          />
          <YAxis
            width={LABEL_WIDTH}
            allowDecimals={false}
            domain={[0, Math.ceil(top * 1.1)]}
            stroke="var(--border)"
            tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
            label={{ value: 'replicas', angle: -90, position: 'insideLeft', offset: 40, fill: 'var(--fg-muted)', fontSize: 12 }}
          />
          {/* A repeated event is known only at its first and last occurrence: a line at each, nothing between. */}
          {marks.flatMap((m) =>
            (m.end > m.start ? [m.start, m.end] : [m.start]).map((x) => (
              <ReferenceLine
                key={`${m.event.uid}-${x}`}
                x={x}
                stroke={toneColor[m.tone]}
                strokeDasharray="3 3"
                strokeOpacity={0.8}
                ifOverflow="hidden"
              />
            )),
          )}
          <Area
            dataKey="band"
            type="stepAfter"
            fill="var(--chart-muted)"
            fillOpacity={0.22}
            stroke="var(--chart-muted)"
            strokeOpacity={0.6}
            isAnimationActive={false}
            connectNulls={false}
          />
          <Line
            dataKey="desired"
            type="stepAfter"
            stroke="var(--chart-2)"
            strokeWidth={2}
            strokeDasharray="6 3"
            dot={false}
            isAnimationActive={false}
          />
          <Line dataKey="current" type="stepAfter" stroke="var(--chart-1)" strokeWidth={2} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </div>
    </div>
  );
}
