'use client';

import type { HpaPreviewResponse, SyncSummary } from '@/lib/api';
import { HorizontalPodAutoscalerSchema } from '@/lib/api';
import { CONDITION_LANES } from '@/lib/triage/reasons';
import { ConditionChip } from '../ui/health';
import { ClockText } from '../ui/time-zone';
import { BeforeAfterChart } from './before-after-chart';
import { ExplanationSteps } from './explanation-steps';
import type { Behavior, MetricSpec } from './hpa-state';
import { describeBehavior, metricName, targetOf, targetValue } from './hpa-state';
import { PlaybackChart } from './playback-chart';
import styles from './preview.module.css';
import { Traced } from './traced';
import { YamlExport } from './yaml-export';

export interface LiveSpec {
  min: number | null;
  max: number;
  metrics: readonly MetricSpec[];
  behavior: Behavior | null;
}

interface DiffRow {
  key: string;
  label: string;
  before: string;
  after: string;
  beforeTrace?: readonly string[];
  afterTrace?: readonly string[];
}

const conditionOrder = CONDITION_LANES.HorizontalPodAutoscaler;

function conditionText(s: SyncSummary, type: string): string {
  const c = s.conditions.find((x) => x.type === type);
  return c ? `${c.status} ${c.reason ?? ''}`.trim() : 'absent';
}

function metricText(m: MetricSpec | undefined): string {
  if (!m) return '—';
  const t = targetOf(m);
  return `${targetValue(t)}${t?.type === 'Utilization' ? ' %' : ''}`;
}

/** The rows of the diff table: the edited spec, then the decision it leads to. */
export function hpaDiffRows(data: HpaPreviewResponse, live: LiveSpec, loadFactor: number): DiffRow[] {
  const spec = HorizontalPodAutoscalerSchema.shape.spec.safeParse(data.editedSpec);
  const edited = spec.success ? spec.data : null;
  const editedMetrics = edited?.metrics ?? live.metrics;
  const rows: DiffRow[] = [
    { key: 'min', label: 'minReplicas', before: String(live.min ?? 1), after: String(edited?.minReplicas ?? 1) },
    { key: 'max', label: 'maxReplicas', before: String(live.max), after: String(edited?.maxReplicas ?? live.max) },
    ...live.metrics.map((m, i) => ({
      key: `metric-${i}`,
      label: `${metricName(m)} target (${m.type})`,
      before: metricText(m),
      after: metricText(editedMetrics[i]),
    })),
    {
      key: 'behavior',
      label: 'behavior',
      before: describeBehavior(live.behavior),
      after: describeBehavior(edited ? (edited.behavior ?? null) : live.behavior),
    },
    { key: 'load', label: 'observed load', before: '×1', after: `×${loadFactor}` },
    {
      key: 'desired',
      label: 'desired replicas',
      before: String(data.before.desiredReplicas),
      after: String(data.after.desiredReplicas),
      beforeTrace: data.before.explanation,
      afterTrace: data.after.explanation,
    },
    {
      key: 'replicas',
      label: 'replicas after the sync',
      before: String(data.before.replicasAfter),
      after: String(data.after.replicasAfter),
      beforeTrace: data.before.explanation.slice(-1),
      afterTrace: data.after.explanation.slice(-1),
    },
    ...conditionOrder.map((type) => ({
      key: type,
      label: type,
      before: conditionText(data.before, type),
      after: conditionText(data.after, type),
    })),
    {
      key: 'events',
      label: 'events',
      before: data.before.events.map((e) => e.reason).join(', ') || 'none',
      after: data.after.events.map((e) => e.reason).join(', ') || 'none',
    },
  ];
  return rows;
}

function Decision({
  title,
  summary,
  muted,
  testId,
}: {
  title: string;
  summary: SyncSummary;
  muted: boolean;
  testId: string;
}): React.JSX.Element {
  return (
    <div data-testid={testId}>
      <h3 className={`${styles.sectionTitle} ${muted ? styles.beforeHead : ''}`}>{title}</h3>
      <div className={`${styles.big} ${muted ? styles.bigBefore : ''}`}>
        <Traced
          value={summary.desiredReplicas}
          lines={summary.explanation}
          title={`${title}: desired replicas`}
          align="left"
          testId={`${testId}-desired`}
        />
      </div>
      <p className="muted" style={{ margin: '2px 0 8px' }}>
        desired replicas · {summary.rescale ? `rescale to ${summary.replicasAfter}` : `stays at ${summary.replicasAfter}`}
      </p>
      <div className={styles.chips} aria-label={`${title}: conditions`} data-testid={`${testId}-conditions`}>
        {summary.conditions.map((c) => (
          <ConditionChip key={c.type} condition={c} />
        ))}
      </div>
      {summary.events.length ? (
        <ul className={styles.notes} style={{ marginTop: 8 }}>
          {summary.events.map((e, i) => (
            <li key={i}>
              <span className={e.type === 'Warning' ? 'health-badge health-degraded' : undefined}>{e.reason}</span>{' '}
              <span className="muted">{e.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The results column of the HPA preview: warnings, the decision before and after, the diff, the playback, the steps. */
export function HpaResults({
  data,
  live,
  loadFactor,
  stale,
}: {
  data: HpaPreviewResponse;
  live: LiveSpec;
  loadFactor: number;
  stale: boolean;
}): React.JSX.Element {
  const rows = hpaDiffRows(data, live, loadFactor);
  const changed = rows.filter((r) => r.before !== r.after).length;
  const edited = HorizontalPodAutoscalerSchema.shape.spec.safeParse(data.editedSpec);
  const min = edited.success ? (edited.data.minReplicas ?? 1) : (live.min ?? 1);
  const max = edited.success ? edited.data.maxReplicas : live.max;
  const troubled = data.after.conditions.filter((c) => c.meaning !== 'ok');
  const bars = [
    { label: 'desired', before: data.before.desiredReplicas, after: data.after.desiredReplicas, trace: data.after.explanation },
    {
      label: 'after the sync',
      before: data.before.replicasAfter,
      after: data.after.replicasAfter,
      trace: data.after.explanation.slice(-1),
    },
    { label: 'minReplicas', before: live.min ?? 1, after: min },
    { label: 'maxReplicas', before: live.max, after: max },
  ];
  return (
    <div className={styles.results} style={stale ? { opacity: 0.7 } : undefined} aria-busy={stale} data-testid="hpa-results">
      {troubled.length ? (
        <div className="banner banner-warn" role="note" data-testid="hpa-warnings">
          <strong>After the change:</strong>
          <ul className={styles.notes}>
            {troubled.map((c) => (
              <li key={c.type}>
                <ConditionChip condition={c} /> <span className="muted">{c.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="banner banner-info" role="note" data-testid="hpa-assumptions">
        <strong>What the preview assumes</strong>{' '}
        <span className="muted">
          (read <ClockText at={data.fetchedAt} />)
        </span>
        <ul className={styles.notes}>
          {data.assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      </div>
      <section className="card" aria-labelledby="decision-title">
        <h2 id="decision-title" className={styles.sectionTitle}>
          The decision, before and after
        </h2>
        <div className={styles.sideBySide}>
          <Decision title="Before (live spec)" summary={data.before} muted testId="hpa-before" />
          <Decision title="After (edited)" summary={data.after} muted={false} testId="hpa-after" />
        </div>
        <div style={{ marginTop: 12 }}>
          <BeforeAfterChart
            data={bars}
            beforeLabel="Before"
            afterLabel="After"
            height={200}
            summary={`Desired replicas ${data.before.desiredReplicas} → ${data.after.desiredReplicas}, after the sync ${data.before.replicasAfter} → ${data.after.replicasAfter}, minReplicas ${live.min ?? 1} → ${min}, maxReplicas ${live.max} → ${max}.`}
            testId="hpa-bars"
          />
        </div>
      </section>
      <section className="card" aria-labelledby="hpa-diff-title">
        <h2 id="hpa-diff-title" className={styles.sectionTitle}>
          What changes <span className="muted">— {changed === 0 ? 'nothing' : `${changed} of ${rows.length} rows`}</span>
        </h2>
        <div className={styles.tableWrap}>
          <table className={`data-table ${styles.diffTable}`} data-testid="hpa-diff">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col" className="num">
                  Before
                </th>
                <th scope="col" className="num">
                  After
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const isChanged = r.before !== r.after;
                return (
                  <tr
                    key={r.key}
                    className={isChanged ? styles.changed : undefined}
                    data-testid="hpa-diff-row"
                    data-key={r.key}
                    data-changed={isChanged ? 'true' : 'false'}
                  >
                    <th scope="row">{r.label}</th>
                    <td className="num muted" data-col="before" style={{ whiteSpace: 'normal' }}>
                      {r.beforeTrace ? <Traced value={r.before} lines={r.beforeTrace} title={`Before: ${r.label}`} /> : r.before}
                    </td>
                    <td className="num" data-col="after" style={{ whiteSpace: 'normal' }}>
                      {r.afterTrace ? (
                        <Traced value={<strong>{r.after}</strong>} lines={r.afterTrace} title={`After: ${r.label}`} />
                      ) : (
                        r.after
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
      {data.playback?.length ? (
        <section className="card" aria-labelledby="playback-title">
          <h2 id="playback-title" className={styles.sectionTitle}>
            Replicas over the load curve
          </h2>
          <PlaybackChart steps={data.playback} min={min} max={max} beforeMin={live.min ?? 1} beforeMax={live.max} />
        </section>
      ) : null}
      <section className="card" aria-labelledby="hpa-steps-title">
        <h2 id="hpa-steps-title" className={styles.sectionTitle}>
          Step by step
        </h2>
        <div className={styles.sideBySide}>
          <div>
            <h3 className={`${styles.sectionTitle} ${styles.beforeHead}`}>Before</h3>
            <ExplanationSteps lines={data.before.explanation} testId="hpa-before-steps" label="Before: the decision step by step" />
          </div>
          <div>
            <h3 className={styles.sectionTitle}>After</h3>
            <ExplanationSteps lines={data.after.explanation} testId="hpa-after-steps" label="After: the decision step by step" />
          </div>
        </div>
      </section>
      <section className="card" aria-labelledby="observed-title">
        <h2 id="observed-title" className={styles.sectionTitle}>
          What was read
        </h2>
        <p style={{ margin: '0 0 6px', fontVariantNumeric: 'tabular-nums' }} data-testid="hpa-observed">
          Target spec {data.observed.specReplicas} · status {data.observed.statusReplicas} replicas; pods {data.observed.pods.total} total,{' '}
          {data.observed.pods.running} running, {data.observed.pods.ready} ready, {data.observed.pods.pending} pending,{' '}
          {data.observed.pods.deleting} deleting; selector <span className="mono">{data.observed.selector || '—'}</span>
        </p>
        <ul className={styles.notes}>
          {data.observed.sources.map((s, i) => (
            <li key={i} className={s.ok ? 'health-ok' : 'health-failing'}>
              <span className="health-dot" aria-hidden="true" /> <span className="mono">{s.source}</span>{' '}
              <strong>{s.ok ? 'answered' : 'failed'}</strong> <span className="muted">{s.detail}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="card">
        <YamlExport
          value={{ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: data.editedSpec }}
          fileName={`${data.id.split('/').at(-1) ?? 'hpa'}-edited.yaml`}
          comment={`The edited spec of ${data.id} (apply with kubectl after adding metadata)`}
          title="Export the edited spec as YAML"
        />
      </section>
    </div>
  );
}
