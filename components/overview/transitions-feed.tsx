'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { autoscalerHref } from '../api/paths';
import { transitionsQuery } from '../queries/keys';
import { ConditionChip } from '../ui/health';
import { QueryError, Skeleton } from '../ui/query-state';
import { ClockText, SinceText } from '../ui/time-zone';
import { autoscalerKindShort } from './kind-label';
import styles from './overview.module.css';

/** The latest condition transitions across the fleet, newest first, coloured by what they mean. */
export function TransitionsFeed(): React.JSX.Element {
  const feed = useQuery(transitionsQuery(50));
  if (feed.isPending) return <Skeleton rows={8} />;
  if (feed.error) return <QueryError error={feed.error} retry={() => void feed.refetch()} />;
  const { transitions } = feed.data;
  if (transitions.length === 0) return <p className="muted">No condition has changed since Autoscope started watching.</p>;
  return (
    <div className={styles.feed} tabIndex={0} role="region" aria-label="Latest condition transitions, scrollable">
      <table className="data-table" data-testid="transitions-feed">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Condition</th>
            <th scope="col">Autoscaler</th>
            <th scope="col">Namespace · cluster</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {transitions.map((t, i) => (
            <tr key={`${t.id}/${t.type}/${t.at}/${i}`}>
              <td className="num">
                <ClockText at={t.at} /> <span className="muted">(<SinceText since={t.at} prefix="" /> ago)</span>
              </td>
              <td>
                <ConditionChip condition={t} />
              </td>
              <td>
                <Link href={autoscalerHref(t)} title={t.kind}>
                  {t.name}
                </Link>{' '}
                <span className="muted">{autoscalerKindShort[t.kind]}</span>
              </td>
              <td>
                <span className={styles.where}>
                  <span className="chip">{t.namespace}</span>
                  <span className="chip">{t.cluster}</span>
                </span>
              </td>
              <td className={styles.message} title={t.message ?? undefined}>
                {t.message ?? <span className="muted">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
