import type { Metadata } from 'next';
import { Suspense } from 'react';
import { listOpeningReads, readListState } from '@/components/autoscalers/list-state';
import { AutoscalerListView } from '@/components/autoscalers/autoscaler-list-view';
import { Skeleton } from '@/components/ui/query-state';
import { preloadReads, searchParamsOf } from '../preload-reads';

export const metadata: Metadata = { title: 'Autoscalers' };

export default async function AutoscalersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<React.JSX.Element> {
  preloadReads(listOpeningReads(readListState(await searchParamsOf(searchParams))));
  return (
    <>
      <h1 className="page-title">Autoscalers</h1>
      <p className="page-subtitle">Every autoscaler in the fleet, healthy ones too: find one by name, namespace or cluster.</p>
      <Suspense fallback={<Skeleton rows={8} height={28} />}>
        <AutoscalerListView />
      </Suspense>
    </>
  );
}
