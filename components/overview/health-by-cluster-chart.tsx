'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TooltipContentProps } from 'recharts';
import type { NameType, ValueType } from 'recharts/types/component/DefaultTooltipContent';
import type { ClusterSummary, Health } from '@/lib/api';
import { healthColor, healthLabel } from '../ui/health';
import { HealthLegend } from './health-legend';
import styles from './overview.module.css';

const order: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

interface Row extends Record<Health, number> {
  cluster: string;
  total: number;
  stale: boolean;
}

function toRows(clusters: readonly ClusterSummary[]): Row[] {
  return clusters.map((c) => ({
    cluster: c.name,
    total: c.counts.total,
    stale: c.state === 'unreachable' || c.state === 'forbidden',
    ...c.counts.byHealth,
  }));
}

function ChartTooltip({ active, payload }: TooltipContentProps<ValueType, NameType>): React.JSX.Element | null {
  const row = payload[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  return (
    <div className={styles.tooltip}>
      <strong>{row.cluster}</strong>
      {row.stale ? <span className="chip">stale: from last sync</span> : null}
      <ul>
        {order.map((h) => (
          <li key={h} className={`health-badge health-${h}`}>
            <span className="health-dot" aria-hidden="true" />
            <span className="num">{row[h]}</span> {healthLabel[h]}
          </li>
        ))}
      </ul>
      <span className="muted">
        <span className="num">{row.total}</span> autoscalers
      </span>
    </div>
  );
}

/** Health of the autoscalers of each cluster, one stacked bar per cluster, with a table for screen readers. */
export function HealthByClusterChart({ clusters }: { clusters: readonly ClusterSummary[] }): React.JSX.Element {
  const rows = toRows(clusters);
  const height = Math.max(160, rows.length * 34 + 56);
  return (
    <figure className={styles.figure} aria-labelledby="health-by-cluster-caption">
      <figcaption id="health-by-cluster-caption" className="visually-hidden">
        Autoscalers per cluster, stacked by health
      </figcaption>
      <HealthLegend />
      <div aria-hidden="true" data-testid="health-by-cluster-chart" style={{ height }}>
        <ResponsiveContainer width="100%" height={height}>
          <BarChart
            data={rows}
            layout="vertical"
            margin={{ top: 4, right: 16, bottom: 20, left: 8 }}
            barCategoryGap={6}
            accessibilityLayer={false}
          >
            <CartesianGrid horizontal={false} stroke="var(--border)" />
            <XAxis
              type="number"
              allowDecimals={false}
              tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
              stroke="var(--border)"
              label={{ value: 'Autoscalers', position: 'insideBottom', offset: -12, fill: 'var(--fg-muted)', fontSize: 12 }}
            />
            <YAxis
              type="category"
              dataKey="cluster"
              width={170}
              tick={{ fill: 'var(--fg)', fontSize: 12 }}
              stroke="var(--border)"
              interval={0}
            />
            <Tooltip content={ChartTooltip} cursor={{ fill: 'var(--surface-2)' }} isAnimationActive={false} />
            {order.map((h) => (
              <Bar key={h} dataKey={h} name={healthLabel[h]} stackId="health" fill={healthColor[h]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="visually-hidden">
        <caption>Autoscalers per cluster by health</caption>
        <thead>
          <tr>
            <th scope="col">Cluster</th>
            {order.map((h) => (
              <th key={h} scope="col">
                {healthLabel[h]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.cluster}>
              <th scope="row">{r.cluster}</th>
              {order.map((h) => (
                <td key={h}>{r[h]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
