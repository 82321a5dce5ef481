import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OverviewView } from '@/components/overview/overview-view';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'Overview' };

export default function OverviewPage(): React.JSX.Element {
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
