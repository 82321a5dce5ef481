import type { Health } from '@/lib/api';
import { healthLabel } from '../ui/health';
import styles from './overview.module.css';

const order: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

const meaning: Record<Health, string> = {
  failing: 'cannot scale or reads no metric',
  degraded: 'scales, but limited or held back',
  unknown: 'no verdict: condition missing or cluster data stale',
  ok: 'scaling as configured',
};

/** The four health words with their colours and what each means (colour is never the only signal). */
export function HealthLegend({ explain = false }: { explain?: boolean }): React.JSX.Element {
  return (
    <ul className={styles.legend} aria-label="Health legend">
      {order.map((h) => (
        <li key={h} className={`health-badge health-${h}`}>
          <span className="health-dot" aria-hidden="true" />
          {healthLabel[h]}
          {explain ? <span className={styles.legendNote}>— {meaning[h]}</span> : null}
        </li>
      ))}
    </ul>
  );
}
