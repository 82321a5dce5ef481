'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import { useEffect, useState } from 'react';
import { autoscalerHref } from '../api/paths';
import { transitionsQuery } from '../queries/keys';
import { ConditionChip } from '../ui/health';
import { QueryError, Skeleton } from '../ui/query-state';
import { ClockText, SinceText } from '../ui/time-zone';
import { useUrlState } from '../ui/use-url-state';
import { feedLimit, feedShowsAll } from './overview-state';
import { autoscalerKindShort } from './kind-label';
import styles from './overview.module.css';

/**
 * The latest condition transitions across the fleet, newest first, coloured by what they mean. By default
 * only the notable ones (status flips, changes of meaning, first sights): AbleToScale=True changes reason
 * on almost every sync (ReadyForNewScale, ScaleDownStabilized, SucceededRescale) and would bury the rest.
 * `?feed=all` (the checkbox) shows those too.
 */
export function TransitionsFeed(): React.JSX.Element {
  const url = useUrlState();
  const inUrl = feedShowsAll(url.params);
  // The box answers the click at once; the URL (a replace, asynchronous) follows, and wins when it moves on its own.
  const [all, setAll] = useState(inUrl);
  useEffect(() => setAll(inUrl), [inUrl]);
  return (
    <>
      <label className={styles.feedToggle}>
        <input
          type="checkbox"
          checked={all}
          onChange={(e) => {
            setAll(e.target.checked);
            url.set({ feed: e.target.checked ? 'all' : null });
          }}
          data-testid="feed-all"
        />{' '}
        Include routine reason changes (AbleToScale=True churn)
      </label>
      <FeedTable notableOnly={!all} />
    </>
  );
}

function FeedTable({ notableOnly }: { notableOnly: boolean }): React.JSX.Element {
  const feed = useQuery(transitionsQuery(feedLimit, notableOnly));
  if (feed.isPending) return <Skeleton rows={8} />;
  if (feed.error) return <QueryError error={feed.error} retry={() => void feed.refetch()} />;
  const { transitions } = feed.data;
  if (transitions.length === 0)
    return (
      <p className="muted">
        {notableOnly
          ? 'No condition has flipped or changed meaning since Autoscope started watching.'
          : 'No condition has changed since Autoscope started watching.'}
      </p>
    );
  return (
    <div className={styles.feed} tabIndex={0} role="region" aria-label="Latest condition transitions, scrollable">
      <table className="data-table" data-testid="transitions-feed">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Condition now · was</th>
            <th scope="col">Autoscaler</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {transitions.map((t, i) => (
            <tr key={`${t.id}/${t.type}/${t.at}/${i}`}>
              <td className="num">
                <ClockText at={t.at} />
                <div className="muted">
                  <SinceText since={t.at} prefix="" /> ago
                </div>
              </td>
              <td>
                <ConditionChip condition={t} />
                <div className={styles.was}>
                  {t.previous ? (
                    <>
                      <span className="muted">was</span> <ConditionChip condition={{ type: t.type, ...t.previous, message: null }} />
                    </>
                  ) : (
                    <span className="muted" title="Autoscope saw this condition for the first time; the time is its lastTransitionTime">
                      first seen
                    </span>
                  )}
                </div>
              </td>
              <td>
                <Link href={autoscalerHref(t)} title={t.kind}>
                  {t.name}
                </Link>{' '}
                <span className="muted">{autoscalerKindShort[t.kind]}</span>
                <div className={styles.where}>
                  <span className="chip">{t.namespace}</span>
                  <span className="chip">{t.cluster}</span>
                </div>
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
