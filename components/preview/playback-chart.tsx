'use client';

import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { PlaybackStep } from '@/lib/api';
import styles from './preview.module.css';

interface Point {
  t: number;
  factor: number;
  before: number;
  after: number;
  band: [number, number];
  step: PlaybackStep;
}

export function formatOffset(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m ? `${m}:${String(s).padStart(2, '0')}` : `${s}s`;
}

function Side({ label, side, strong }: { label: string; side: PlaybackStep['before']; strong?: boolean }): React.JSX.Element {
  return (
    <tr>
      <td>{label}</td>
      <td className="num">{strong ? <strong>{side.replicas}</strong> : side.replicas}</td>
      <td className="num">{side.desired}</td>
      <td>
        {side.limited ? (
          <span className="health-badge health-degraded">ScalingLimited {side.limited}</span>
        ) : (
          <span className="muted">within range</span>
        )}
      </td>
    </tr>
  );
}

function PlaybackTooltip({ point }: { point: Point }): React.JSX.Element {
  return (
    <div className={styles.chartTooltip}>
      <strong>
        +{formatOffset(point.t)} · load ×{point.factor}
      </strong>
      <table>
        <thead>
          <tr>
            <td />
            <td className="num muted">replicas</td>
            <td className="num muted">desired</td>
            <td />
          </tr>
        </thead>
        <tbody>
          <Side label="Before" side={point.step.before} />
          <Side label="After" side={point.step.after} strong />
        </tbody>
      </table>
      <span className="muted">
        edited bounds {point.band[0]}–{point.band[1]}
      </span>
    </div>
  );
}

/**
 * Replicas over a played load curve (docs/ui.md "Previews"): step lines, before muted and after solid, inside the
 * edited min–max band, with the load factor on its own axis and a tooltip with exact values and the ScalingLimited reason.
 */
export function PlaybackChart({
  steps,
  min,
  max,
  beforeMin,
  beforeMax,
  height = 260,
}: {
  steps: readonly PlaybackStep[];
  min: number;
  max: number;
  beforeMin: number;
  beforeMax: number;
  height?: number;
}): React.JSX.Element {
  const data: Point[] = steps.map((s) => ({
    t: s.t,
    factor: s.factor,
    before: s.before.replicas,
    after: s.after.replicas,
    band: [min, max],
    step: s,
  }));
  const top = Math.max(1, max, beforeMax, ...steps.flatMap((s) => [s.before.replicas, s.after.replicas]));
  const topFactor = Math.max(1, ...steps.map((s) => s.factor));
  const last = steps.at(-1);
  const summary = last
    ? `Over ${steps.length} syncs (${formatOffset(last.t)}), replicas go from ${steps[0]?.before.replicas ?? '—'} to ${last.before.replicas} before the change and to ${last.after.replicas} after it; peak ${Math.max(...steps.map((s) => s.before.replicas))} before, ${Math.max(...steps.map((s) => s.after.replicas))} after.`
    : 'No playback.';
  return (
    <figure style={{ margin: 0 }} data-testid="playback-chart">
      <ul className={styles.legend} aria-hidden="true">
        <li>
          <span className={`${styles.swatch} ${styles.swatchLine}`} style={{ background: 'var(--chart-muted)' }} /> Replicas before
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchLine}`} style={{ background: 'var(--chart-1)' }} /> Replicas after
        </li>
        <li>
          <span className={styles.swatch} style={{ background: 'var(--chart-muted)', opacity: 0.35 }} /> Edited min–max
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchLine}`} style={{ background: 'var(--chart-2)' }} /> Load factor (right axis)
        </li>
      </ul>
      <div role="img" aria-label={summary} style={{ height }}>
        <ComposedChart
          responsive
          style={{ width: '100%', height }}
          data={data}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis
            dataKey="t"
            type="number"
            domain={['dataMin', 'dataMax']}
            tickFormatter={formatOffset}
            stroke="var(--border)"
            tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
            height={24}
          />
          <YAxis
            yAxisId="replicas"
            allowDecimals={false}
            domain={[0, Math.ceil(top * 1.1)]}
            width={40}
            stroke="var(--border)"
            tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
          />
          <YAxis
            yAxisId="load"
            orientation="right"
            domain={[0, Math.ceil(topFactor * 1.1 * 10) / 10]}
            width={36}
            stroke="var(--border)"
            tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
            tickFormatter={(v: number) => `×${v}`}
          />
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload }) => {
              const point = active ? (payload[0]?.payload as Point | undefined) : undefined;
              return point ? <PlaybackTooltip point={point} /> : null;
            }}
          />
          <Area
            yAxisId="replicas"
            dataKey="band"
            type="stepAfter"
            fill="var(--chart-muted)"
            fillOpacity={0.18}
            stroke="none"
            isAnimationActive={false}
          />
          {beforeMax !== max ? (
            <ReferenceLine
              yAxisId="replicas"
              y={beforeMax}
              stroke="var(--chart-muted)"
              strokeDasharray="4 4"
              label={{ value: `max before ${beforeMax}`, position: 'insideTopLeft', fill: 'var(--fg-muted)', fontSize: 11 }}
            />
          ) : null}
          {beforeMin !== min ? (
            <ReferenceLine
              yAxisId="replicas"
              y={beforeMin}
              stroke="var(--chart-muted)"
              strokeDasharray="4 4"
              label={{ value: `min before ${beforeMin}`, position: 'insideBottomLeft', fill: 'var(--fg-muted)', fontSize: 11 }}
            />
          ) : null}
          <Line
            yAxisId="load"
            dataKey="factor"
            type="stepAfter"
            stroke="var(--chart-2)"
            strokeWidth={1}
            strokeDasharray="2 3"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="replicas"
            dataKey="before"
            type="stepAfter"
            stroke="var(--chart-muted)"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="replicas"
            dataKey="after"
            type="stepAfter"
            stroke="var(--chart-1)"
            strokeWidth={2.5}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </div>
      <figcaption className="visually-hidden">{summary}</figcaption>
    </figure>
  );
}
