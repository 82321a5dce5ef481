import { Link } from '../ui/link';
import type { Autoscaler, ProblemSeverity } from '@/lib/api';
import { healthForSeverity } from '@/lib/triage/health-rules';
import { ConditionChip, HealthBadge } from '../ui/health';
import { ClockText, SinceText } from '../ui/time-zone';
import styles from './panels.module.css';

const kindLabel: Record<Autoscaler['kind'], string> = {
  HorizontalPodAutoscaler: 'HorizontalPodAutoscaler',
  MachineAutoscaler: 'MachineAutoscaler',
  FederatedHPA: 'FederatedHPA',
};
const severityWord: Record<ProblemSeverity, string> = { error: 'Error', warning: 'Warning', info: 'Note', unknown: 'Unknown' };

function Stat({ label, value, testId, hint }: { label: string; value: number | null; testId: string; hint?: string }): React.JSX.Element {
  return (
    <div className={styles.stat} data-testid={testId} title={hint}>
      <dt>{label}</dt>
      <dd className="num">{value ?? '—'}</dd>
    </div>
  );
}

/** Where current sits between min and max: a bar, so "pinned at max" reads at a glance. */
function RangeGauge({ a }: { a: Autoscaler }): React.JSX.Element | null {
  const { minReplicas: min, maxReplicas: max, currentReplicas: cur, desiredReplicas: des } = a;
  if (min === null || max === null || max <= 0) return null;
  const pos = (n: number): string => `${Math.min(100, Math.max(0, (n / max) * 100))}%`;
  return (
    <div className={styles.gauge} aria-hidden="true">
      <div className={styles.gaugeBand} style={{ left: pos(min), right: `calc(100% - ${pos(max)})` }} />
      {cur !== null ? <div className={styles.gaugeCurrent} style={{ left: pos(cur) }} /> : null}
      {des !== null && des !== cur ? <div className={styles.gaugeDesired} style={{ left: pos(des) }} /> : null}
    </div>
  );
}

/** Health, what is wrong and what to do next, the target, and the replica numbers. */
export function DetailHeader({ autoscaler: a }: { autoscaler: Autoscaler }): React.JSX.Element {
  const unit = a.kind === 'MachineAutoscaler' ? 'machines' : 'replicas';
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <Link href="/triage">Triage</Link> <span aria-hidden="true">/</span> <span>{a.cluster}</span> <span aria-hidden="true">/</span>{' '}
        <span>{a.namespace}</span>
      </nav>
      <div className={styles.titleRow}>
        <h1 className="page-title" data-testid="autoscaler-name">
          {a.name}
        </h1>
        <span className="chip">{kindLabel[a.kind]}</span>
        <span data-testid="autoscaler-health">
          <HealthBadge health={a.health} />
        </span>
        {a.stale ? (
          <span className="chip" title="The cluster is unreachable: this is its last synced state">
            stale
          </span>
        ) : null}
      </div>
      <div className={styles.meta}>
        <span>
          <span className="muted">cluster</span> <span className="chip">{a.cluster}</span>
        </span>
        <span>
          <span className="muted">namespace</span> <span className="chip">{a.namespace}</span>
        </span>
        <span data-testid="autoscaler-target">
          <span className="muted">target</span>{' '}
          <span className="mono">
            {a.target.kind}/{a.target.name}
          </span>{' '}
          <span className="muted mono">{a.target.apiVersion}</span>
          {a.target.namespace !== a.namespace ? <span className="muted"> in {a.target.namespace}</span> : null}
        </span>
        <span>
          <span className="muted">created</span> <SinceText since={a.createdAt} prefix="" /> <span className="muted">ago</span>
        </span>
        <span>
          <span className="muted">last scale</span> <ClockText at={a.lastScaleTime} />
        </span>
      </div>

      <div className={styles.headerGrid}>
        <div>
          <dl className={styles.stats} aria-label={`${unit} (min, current, desired, max)`}>
            <Stat label="Min" value={a.minReplicas} testId="stat-min" />
            <Stat label="Current" value={a.currentReplicas} testId="stat-current" />
            <Stat
              label="Desired"
              value={a.desiredReplicas}
              testId="stat-desired"
              hint="status.desiredReplicas: the controller's last decision"
            />
            <Stat label="Max" value={a.maxReplicas} testId="stat-max" />
          </dl>
          <RangeGauge a={a} />
          <div className={styles.conditions} aria-label="Conditions now">
            {a.conditions.length ? (
              a.conditions.map((c) => <ConditionChip key={c.type} condition={c} />)
            ) : (
              <span className="muted">No conditions reported yet.</span>
            )}
          </div>
        </div>

        <section aria-labelledby="problems-title" className={styles.problems} data-testid="problems">
          <h2 id="problems-title" className={styles.h2}>
            {a.problems.length ? `Problems (${a.problems.length})` : 'Problems'}
          </h2>
          {a.problems.length === 0 ? (
            <p className="muted">Nothing wrong: {a.conditions.map((c) => `${c.type}=${c.status}`).join(', ') || 'no conditions yet'}.</p>
          ) : (
            <ul className={styles.problemList}>
              {a.problems.map((p) => (
                <li key={p.code} className={`health-${healthForSeverity(p.severity)}`} data-testid="problem" data-code={p.code}>
                  <div className={styles.problemHead}>
                    <span className="health-dot" aria-hidden="true" />
                    <span className={styles.severity}>{severityWord[p.severity]}</span>
                    <strong>{p.title}</strong>
                    <span className="mono muted">{p.code}</span>
                    <span className="muted">
                      <SinceText since={p.since} />
                    </span>
                  </div>
                  <p className={styles.problemMessage}>{p.message}</p>
                  <p className={styles.hint}>
                    <strong>Next step:</strong> {p.hint}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </header>
  );
}
