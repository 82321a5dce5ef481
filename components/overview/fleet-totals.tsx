'use client';

import { Link } from '../ui/link';
import type { ClusterSummary, Health } from '@/lib/api';
import { healthLabel } from '../ui/health';
import { ClockText } from '../ui/time-zone';
import styles from './overview.module.css';

const order: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

/** The fleet in one line: how many autoscalers, in how many clusters, by health; each count opens its list. */
export function FleetTotals({ clusters, generatedAt }: { clusters: readonly ClusterSummary[]; generatedAt: string }): React.JSX.Element {
  const byHealth: Record<Health, number> = { failing: 0, degraded: 0, unknown: 0, ok: 0 };
  let total = 0;
  for (const c of clusters) {
    total += c.counts.total;
    for (const h of order) byHealth[h] += c.counts.byHealth[h];
  }
  return (
    <dl className={styles.totals} data-testid="fleet-totals">
      <div className={styles.stat}>
        <dt>Autoscalers</dt>
        <dd className="num">
          <Link href="/autoscalers" className={styles.statLink} title="Every autoscaler of the fleet">
            {total}
          </Link>
        </dd>
      </div>
      <div className={styles.stat}>
        <dt>Clusters</dt>
        <dd className="num">{clusters.length}</dd>
      </div>
      {order.map((h) => (
        <div key={h} className={`${styles.stat} health-${h}`} data-health={h}>
          <dt className="health-badge">
            <span className="health-dot" aria-hidden="true" />
            {healthLabel[h]}
          </dt>
          <dd className="num">
            <Link href={`/autoscalers?health=${h}`} className={styles.statLink} title={`The ${healthLabel[h].toLowerCase()} autoscalers`}>
              {byHealth[h]}
            </Link>
          </dd>
        </div>
      ))}
      <div className={styles.checked}>
        <dt>Last checked</dt>
        <dd>
          <ClockText at={generatedAt} />
        </dd>
      </div>
    </dl>
  );
}
