import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AutoscalerListView } from '@/components/autoscalers/autoscaler-list-view';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'Autoscalers' };

export default function AutoscalersPage(): React.JSX.Element {
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
