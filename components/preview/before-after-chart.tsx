'use client';

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import styles from './preview.module.css';

export interface BarDatum {
  label: string;
  before: number | null;
  after: number | null;
  /** A range drawn as a dashed outline beside the bars (the seed's per-cluster HPA min–max). */
  bounds?: [number, number] | null;
  /** How "after" was computed (the explanation lines that name this category). */
  trace?: readonly string[];
  status?: string | null;
}

function ChartTooltip({
  datum,
  beforeLabel,
  afterLabel,
  boundsLabel,
}: {
  datum: BarDatum;
  beforeLabel: string;
  afterLabel: string;
  boundsLabel?: string;
}): React.JSX.Element {
  return (
    <div className={styles.chartTooltip}>
      <strong>{datum.label}</strong>
      {datum.status ? <span className="muted"> — {datum.status}</span> : null}
      <table>
        <tbody>
          <tr>
            <td>{beforeLabel}</td>
            <td className="num">{datum.before ?? '—'}</td>
          </tr>
          <tr>
            <td>{afterLabel}</td>
            <td className="num">
              <strong>{datum.after ?? '—'}</strong>
            </td>
          </tr>
          {datum.bounds && boundsLabel ? (
            <tr>
              <td>{boundsLabel}</td>
              <td className="num">
                {datum.bounds[0]}–{datum.bounds[1]}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {datum.trace?.length ? (
        <ol>
          {datum.trace.slice(0, 6).map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

/**
 * Before and after side by side in one chart (docs/ui.md "Previews"): grouped bars per category, "before" muted,
 * "after" solid, with an optional range outline. The tooltip shows exact values and how "after" was computed.
 */
export function BeforeAfterChart({
  data,
  beforeLabel,
  afterLabel,
  boundsLabel,
  summary,
  height = 240,
  testId,
}: {
  data: readonly BarDatum[];
  beforeLabel: string;
  afterLabel: string;
  boundsLabel?: string;
  summary: string;
  height?: number;
  testId?: string;
}): React.JSX.Element {
  const withBounds = boundsLabel !== undefined && data.some((d) => d.bounds);
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <ul className={styles.legend} aria-hidden="true">
        <li>
          <span className={`${styles.swatch} ${styles.swatchBefore}`} /> {beforeLabel}
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.swatchAfter}`} /> {afterLabel}
        </li>
        {withBounds ? (
          <li>
            <span className={`${styles.swatch} ${styles.swatchBounds}`} /> {boundsLabel}
          </li>
        ) : null}
      </ul>
      <div role="img" aria-label={summary} style={{ height }}>
        <BarChart
          responsive
          style={{ width: '100%', height }}
          data={data}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          barGap={2}
          barCategoryGap="22%"
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" vertical={false} />
          <XAxis dataKey="label" stroke="var(--border)" tick={{ fill: 'var(--fg-muted)', fontSize: 12 }} interval={0} height={24} />
          <YAxis allowDecimals={false} width={40} stroke="var(--border)" tick={{ fill: 'var(--fg-muted)', fontSize: 12 }} />
          <Tooltip
            cursor={{ fill: 'var(--surface-2)', opacity: 0.6 }}
            isAnimationActive={false}
            content={({ active, payload }) => {
              const datum = active ? (payload[0]?.payload as BarDatum | undefined) : undefined;
              return datum ? (
                <ChartTooltip
                  datum={datum}
                  beforeLabel={beforeLabel}
                  afterLabel={afterLabel}
                  boundsLabel={withBounds ? boundsLabel : undefined}
                />
              ) : null;
            }}
          />
          <Bar dataKey="before" name={beforeLabel} fill="var(--chart-muted)" isAnimationActive={false} maxBarSize={48} />
          <Bar dataKey="after" name={afterLabel} fill="var(--chart-1)" isAnimationActive={false} maxBarSize={48} />
          {withBounds ? (
            <Bar
              dataKey="bounds"
              name={boundsLabel}
              fill="transparent"
              stroke="var(--chart-2)"
              strokeWidth={2}
              strokeDasharray="5 3"
              isAnimationActive={false}
              maxBarSize={48}
            />
          ) : null}
        </BarChart>
      </div>
      <figcaption className="visually-hidden">{summary}</figcaption>
    </figure>
  );
}
