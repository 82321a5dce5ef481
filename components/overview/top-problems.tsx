'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import { triageQuery } from '../queries/keys';
import { HealthBadge } from '../ui/health';
import { QueryError, Skeleton } from '../ui/query-state';
import { SinceText } from '../ui/time-zone';
import { allClearText } from '../triage/all-clear';
import { triageHref } from '../triage/triage-href';
import { autoscalerKindShort } from './kind-label';
import styles from './overview.module.css';
import { healthForSeverity } from '@/lib/triage/health-rules';

const shown = 5;

/** The worst problem groups of the fleet, with their likely cause first: the headline of the overview. */
export function TopProblems(): React.JSX.Element {
  const triage = useQuery(triageQuery({}));
  if (triage.isPending) return <Skeleton rows={4} height={56} />;
  if (triage.error) return <QueryError error={triage.error} retry={() => void triage.refetch()} />;
  const { groups, totals, generatedAt } = triage.data;
  if (groups.length === 0) {
    const allClear = allClearText(triage.data.clusters, generatedAt, totals.total);
    return (
      <div className={styles.allClear} data-testid="top-problems-empty">
        <p>
          <strong>{allClear.title}.</strong>
        </p>
        <p className="muted">{allClear.body}</p>
      </div>
    );
  }
  return (
    <>
      <ol className={styles.problems} data-testid="top-problems">
        {groups.slice(0, shown).map((g) => (
          <li key={g.key} className={styles.problem} data-testid="top-problem">
            <div className={styles.problemHead}>
              <HealthBadge health={healthForSeverity(g.worstSeverity)} compact />
              <Link href={triageHref({ group: g.key })} className={styles.problemTitle}>
                {g.title}
              </Link>
              <span className={styles.problemCount}>
                <span className="num">{g.count}</span> {autoscalerKindShort[g.kind]}
                {g.count === 1 ? '' : 's'}
              </span>
            </div>
            {g.likelyCause ? (
              <p className={styles.cause}>
                <strong>Likely cause:</strong> {g.likelyCause}
              </p>
            ) : null}
            <p className={styles.problemMeta}>
              <span className="mono">{g.reason}</span>
              {g.clusters.slice(0, 3).map((c) => (
                <span key={c} className="chip">
                  {c}
                </span>
              ))}
              {g.clusters.length > 3 ? <span className="muted">+{g.clusters.length - 3} more</span> : null}
              <span className="muted">
                oldest <SinceText since={g.oldestSince} />
              </span>
            </p>
          </li>
        ))}
      </ol>
      <p className={styles.more}>
        <Link href={triageHref()}>
          {groups.length > shown ? `All ${groups.length} problem groups` : 'Open the triage queue'} ({totals.failing} failing,{' '}
          {totals.degraded} degraded)
        </Link>
      </p>
    </>
  );
}
