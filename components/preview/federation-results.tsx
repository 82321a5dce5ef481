'use client';

import { BeforeAfterChart } from './before-after-chart';
import { ExplanationSteps } from './explanation-steps';
import type { FederationView, ResultRow } from './federation-view';
import { PreviewNotes } from './preview-notes';
import styles from './preview.module.css';
import { tracesFor } from './trace';
import { Traced } from './traced';
import { YamlExport } from './yaml-export';

const changedStatus = new Set(['excluded', 'removed', 'zeroed', 'woken', 'not a candidate']);

/** A row whose result differs from before (a refused schedule changes nothing). */
export function isChanged(row: ResultRow): boolean {
  if (row.after === null) return false;
  return row.before !== row.after || (row.status !== null && changedStatus.has(row.status));
}

function delta(row: ResultRow): string {
  if (row.before === null || row.after === null) return '—';
  const d = row.after - row.before;
  return d === 0 ? '0' : d > 0 ? `+${d}` : `−${-d}`;
}

function DiffTable({ view }: { view: FederationView }): React.JSX.Element {
  const changed = view.rows.filter(isChanged).length;
  return (
    <section className="card" aria-labelledby="diff-title">
      <h2 id="diff-title" className={styles.sectionTitle}>
        Per cluster{' '}
        <span className="muted">
          —{' '}
          {view.error
            ? 'the scheduler refuses: nothing moves'
            : changed === 0
              ? 'nothing changes'
              : `${changed} of ${view.rows.length} change`}
        </span>
      </h2>
      <div className={styles.tableWrap}>
        <table className={`data-table ${styles.diffTable}`} data-testid="result-table">
          <thead>
            <tr>
              <th scope="col">Cluster</th>
              {view.columns.map((c) => (
                <th key={c.key} scope="col" className="num">
                  {c.label}
                </th>
              ))}
              <th scope="col" className="num">
                {view.beforeLabel}
              </th>
              <th scope="col" className="num">
                {view.afterLabel}
              </th>
              <th scope="col" className="num">
                Δ
              </th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => {
              const isNew = isChanged(row);
              return (
                <tr
                  key={row.cluster}
                  className={isNew ? styles.changed : undefined}
                  data-testid="result-row"
                  data-cluster={row.cluster}
                  data-changed={isNew ? 'true' : 'false'}
                >
                  <th scope="row">
                    <span className="mono">{row.cluster}</span>
                    {row.status ? <span className={`chip ${styles.statusChip}`}>{row.status}</span> : null}
                  </th>
                  {view.columns.map((c) => {
                    const v = row.cells[c.key] ?? null;
                    return (
                      <td key={c.key} className="num" data-col={c.key}>
                        {v === null ? (
                          '—'
                        ) : (
                          <Traced value={v} lines={tracesFor(view.steps, row.cluster, c.field)} title={`${c.label} of ${row.cluster}`} />
                        )}
                      </td>
                    );
                  })}
                  <td className="num muted" data-col="before">
                    {row.before ?? '—'}
                  </td>
                  <td className="num" data-col="after">
                    {row.after === null ? (
                      <span className="muted">refused</span>
                    ) : (
                      <Traced value={<strong>{row.after}</strong>} lines={row.trace} title={`${view.afterLabel} of ${row.cluster}`} />
                    )}
                  </td>
                  <td className={`num ${styles.delta}`} data-col="delta">
                    {delta(row)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The results column of the federation preview: warnings, the before/after chart, the diff table, the steps, YAML. */
export function FederationResults({ view, stale }: { view: FederationView; stale: boolean }): React.JSX.Element {
  const bars = view.rows.map((r) => {
    const min = r.cells.min;
    const max = r.cells.max;
    return {
      label: r.cluster,
      before: r.before,
      after: r.after,
      bounds: view.boundsInChart && typeof min === 'number' && typeof max === 'number' ? ([min, max] as [number, number]) : null,
      trace: r.trace,
      status: r.status,
    };
  });
  const summary = `${view.quantity} per cluster, ${view.beforeLabel.toLowerCase()} vs ${view.afterLabel.toLowerCase()}: ${view.rows.map((r) => `${r.cluster} ${r.before ?? '—'} → ${r.after ?? '—'}`).join(', ')}.`;
  return (
    <div className={styles.results} style={stale ? { opacity: 0.7 } : undefined} aria-busy={stale} data-testid="federation-results">
      <PreviewNotes notes={view.notes} warnings={view.warnings} error={view.error} />
      <section className="card" aria-labelledby="chart-title">
        <h2 id="chart-title" className={styles.sectionTitle}>
          {view.quantity}: before and after
        </h2>
        <dl className={styles.facts} data-testid="result-facts">
          {view.facts.map((f) => (
            <div key={f.label}>
              <dt>{f.label}</dt>
              <dd>
                <Traced value={f.value} lines={f.trace} title={f.label} align="left" />
              </dd>
            </div>
          ))}
        </dl>
        <BeforeAfterChart
          data={bars}
          beforeLabel={view.beforeLabel}
          afterLabel={view.afterLabel}
          boundsLabel={view.boundsInChart ? 'HPA min–max' : undefined}
          summary={summary}
          testId="before-after-chart"
        />
      </section>
      <DiffTable view={view} />
      <section className="card" aria-labelledby="steps-title">
        <h2 id="steps-title" className={styles.sectionTitle}>
          Step by step
        </h2>
        <ExplanationSteps lines={view.explanation} testId="explanation" />
      </section>
      <section className="card">
        <YamlExport value={view.exportObject} fileName={view.exportName} comment={view.exportComment} />
      </section>
    </div>
  );
}
