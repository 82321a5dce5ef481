import type { Health } from '@/lib/api';
import { healthColor, healthLabel } from '../ui/health';
import styles from './overview.module.css';

export type HealthCounts = Record<Health, number>;

const order: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

/** A thin stacked bar of health with the counts written beside it in words. */
export function HealthBar({ counts, stale = false }: { counts: HealthCounts; stale?: boolean }): React.JSX.Element {
  const total = order.reduce((sum, h) => sum + counts[h], 0);
  if (total === 0) return <p className="muted">No autoscalers.</p>;
  return (
    <div className={stale ? `${styles.healthBar} ${styles.stale}` : styles.healthBar}>
      <div className={styles.barTrack} aria-hidden="true">
        {order.map((h) =>
          counts[h] > 0 ? (
            <span key={h} className={styles.barSegment} style={{ width: `${(counts[h] / total) * 100}%`, background: healthColor[h] }} />
          ) : null,
        )}
      </div>
      <ul className={styles.barCounts}>
        {order.map((h) =>
          counts[h] > 0 ? (
            <li key={h} className={`health-badge health-${h}`} data-health={h}>
              <span className="health-dot" aria-hidden="true" />
              <span className="num">{counts[h]}</span> {healthLabel[h]}
            </li>
          ) : null,
        )}
      </ul>
    </div>
  );
}
