import type { MetricCurrentDto, MetricPairDto, MetricTargetDto } from '@/lib/api';
import styles from './panels.module.css';

function targetText(t: MetricTargetDto | null): string {
  if (!t) return '—';
  if (t.type === 'Utilization' && t.averageUtilization !== undefined) return `${t.averageUtilization}% utilization`;
  if (t.averageValue !== undefined) return `${t.averageValue} average`;
  if (t.value !== undefined) return `${t.value} value`;
  return t.type;
}

function currentText(c: MetricCurrentDto | null, t: MetricTargetDto | null): string | null {
  if (!c) return null;
  const parts: string[] = [];
  if (t?.type === 'Utilization' && c.averageUtilization !== undefined) parts.push(`${c.averageUtilization}%`);
  if (c.averageValue !== undefined) parts.push(t?.type === 'Utilization' ? `(${c.averageValue})` : c.averageValue);
  if (c.value !== undefined) parts.push(c.value);
  if (!parts.length && c.averageUtilization !== undefined) parts.push(`${c.averageUtilization}%`);
  return parts.join(' ') || null;
}

/** The ratio on a 0…2× bar with the target at the middle: above the line the controller wants more replicas. */
function RatioBar({ ratio }: { ratio: number }): React.JSX.Element {
  const pct = Math.min(100, (ratio / 2) * 100);
  return (
    <span className={styles.ratioBar} aria-hidden="true">
      <span className={styles.ratioFill} style={{ width: `${pct}%` }} data-over={ratio > 1 ? 'true' : 'false'} />
      <span className={styles.ratioTarget} />
    </span>
  );
}

/** Each spec metric paired by identity with its current value and target, and the ratio the controller uses. */
export function MetricsTable({ metrics }: { metrics: readonly MetricPairDto[] }): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="metrics-title" data-testid="metrics">
      <h2 id="metrics-title" className={styles.h2}>
        Metrics
      </h2>
      {metrics.length === 0 ? (
        <p className="muted">No metrics in spec.metrics: the API default (cpu at 80 % utilization) applies.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col" className="num">
                  Current
                </th>
                <th scope="col" className="num">
                  Target
                </th>
                <th scope="col" className="num">
                  Ratio
                </th>
              </tr>
            </thead>
            <tbody>
              {metrics.map((m) => {
                const current = currentText(m.current, m.target);
                return (
                  <tr key={m.key} data-testid="metric-row" data-key={m.key}>
                    <td className={styles.metricCell} title={`identity ${m.key}`}>
                      <span className="mono">{m.name}</span> <span className="muted">{m.type}</span>
                      {m.container ? <span className="muted"> · container {m.container}</span> : null}
                      {m.describedObject ? <span className="muted"> · on {m.describedObject}</span> : null}
                      {m.selector ? <span className="muted mono"> {`{${m.selector}}`}</span> : null}
                    </td>
                    <td className="num">{current ?? <span className="health-badge health-unknown">unknown</span>}</td>
                    <td className="num">{targetText(m.target)}</td>
                    <td className="num">
                      {m.ratio === null ? (
                        '—'
                      ) : (
                        <span className={styles.ratio}>
                          {m.ratio.toFixed(2)}× <RatioBar ratio={m.ratio} />
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
