import type { Metadata } from 'next';
import { Suspense } from 'react';
import { TriageView } from '@/components/triage/triage-view';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'Triage' };

export default function TriagePage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Triage</h1>
      <p className="page-subtitle">Broken autoscalers across the fleet, grouped by cause.</p>
      <Suspense fallback={<Skeleton rows={8} height={28} />}>
        <TriageView />
      </Suspense>
    </>
  );
}
