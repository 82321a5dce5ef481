import type { Metadata } from 'next';
import { Suspense } from 'react';
import { readTriageState, triageOpeningReads } from '@/components/triage/triage-state';
import { TriageView } from '@/components/triage/triage-view';
import { Skeleton } from '@/components/ui/query-state';
import { preloadReads, searchParamsOf } from '../preload-reads';

export const metadata: Metadata = { title: 'Triage' };

export default async function TriagePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<React.JSX.Element> {
  // An operator opening the queue during an incident waited for the scripts, then for the answers: no longer.
  preloadReads(triageOpeningReads(readTriageState(await searchParamsOf(searchParams))));
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
