'use client';

import type { ClusterStatus } from '@/lib/api';
import { ClockText, SinceText } from './time-zone';

/**
 * Shown above any page whose data is partial: which clusters, since when, the error in words, and that
 * their numbers are from their last sync (docs/ui.md, "Partial failure").
 */
export function PartialFailureBanner({ clusters }: { clusters: readonly ClusterStatus[] }): React.JSX.Element | null {
  const troubled = clusters.filter((c) => c.state === 'unreachable' || c.state === 'forbidden' || (c.state === 'synced' && c.error));
  if (troubled.length === 0) return null;
  return (
    <div className="banner banner-warn" role="status" aria-live="polite" data-testid="partial-failure-banner">
      <strong>{troubled.length === 1 ? '1 cluster' : `${troubled.length} clusters`} with partial data.</strong>
      <ul>
        {troubled.map((c) => (
          <li key={c.name}>
            <span className="chip">{c.name}</span>{' '}
            {c.state === 'unreachable' ? (
              <>
                unreachable <SinceText since={c.since} /> — showing data from{' '}
                {c.lastSyncAt ? <ClockText at={c.lastSyncAt} /> : 'no sync yet'}.
              </>
            ) : c.state === 'forbidden' ? (
              <>access denied (403) — nothing can be shown for it.</>
            ) : (
              <>partly readable.</>
            )}{' '}
            {c.error ? <span className="muted">{c.error}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
