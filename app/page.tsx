import type { Metadata } from 'next';
import { Suspense } from 'react';
import { overviewOpeningReads } from '@/components/overview/overview-state';
import { OverviewView } from '@/components/overview/overview-view';
import { Skeleton } from '@/components/ui/query-state';
import { preloadReads, searchParamsOf } from './preload-reads';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<React.JSX.Element> {
  preloadReads(overviewOpeningReads(await searchParamsOf(searchParams)));
  return (
    <>
      <h1 className="page-title">Overview</h1>
      <p className="page-subtitle">Every autoscaler in every cluster, by health.</p>
      <Suspense fallback={<Skeleton rows={8} height={28} />}>
        <OverviewView />
      </Suspense>
    </>
  );
}
