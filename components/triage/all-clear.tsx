'use client';

import type { ClusterStatus } from '@/lib/api';
import { ClockText } from '../ui/time-zone';

export interface AllClearText {
  title: string;
  body: React.ReactNode;
}

/**
 * What an empty queue means depends on who answered: "No failing autoscalers in 7 clusters" is only
 * true of clusters that have synced; the others are named as unknown, never counted as healthy.
 */
export function allClearText(clusters: readonly ClusterStatus[], generatedAt: string, total: number): AllClearText {
  const neverSynced = clusters.filter((c) => c.lastSyncAt === null);
  const stale = clusters.filter((c) => c.lastSyncAt !== null && (c.state === 'unreachable' || c.state === 'forbidden'));
  const known = clusters.length - neverSynced.length;
  if (known === 0) {
    return {
      title: 'No cluster has synced yet',
      body: (
        <>
          Autoscope has not read any autoscaler from the {clusters.length} configured clusters yet (
          {neverSynced.map((c) => `${c.name}: ${c.state}`).join(', ')}). The queue fills as soon as one of them answers — last checked{' '}
          <ClockText at={generatedAt} />.
        </>
      ),
    };
  }
  return {
    title: `No failing autoscalers in ${known} ${known === 1 ? 'cluster' : 'clusters'}`,
    body: (
      <>
        All {total} autoscalers there scale as configured — last checked <ClockText at={generatedAt} />.
        {neverSynced.length > 0 ? ` Not known yet: ${neverSynced.map((c) => c.name).join(', ')} (never synced).` : ''}
        {stale.length > 0 ? ` From the last sync: ${stale.map((c) => c.name).join(', ')}.` : ''}
      </>
    ),
  };
}
