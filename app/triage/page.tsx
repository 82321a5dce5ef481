import type { Metadata } from 'next';
import { Suspense } from 'react';
import { preload } from 'react-dom';
import { readTriageState, triageOpeningReads } from '@/components/triage/triage-state';
import { TriageView } from '@/components/triage/triage-view';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'Triage' };

export default async function TriagePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<React.JSX.Element> {
  // The reads the view makes as it opens, fetched by the browser beside the page's scripts rather than after them
  // (an operator opening the queue during an incident waited for the scripts, then for the answers). The view's
  // own fetches take the preloaded answers: same URLs (one function builds them), same-origin credentials.
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, v);
  }
  for (const url of triageOpeningReads(readTriageState(params))) preload(url, { as: 'fetch', crossOrigin: 'anonymous' });
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
