import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FederationPreview } from '@/components/preview/federation-preview';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'Federation preview' };

export default function FederationPreviewPage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Federation preview</h1>
      <p className="page-subtitle">
        How a FederatedHPA’s replicas or bounds split across member clusters — Karmada’s shipped scheduler, or the seed proposal’s policies.
      </p>
      <Suspense fallback={<Skeleton rows={10} height={24} />}>
        <FederationPreview />
      </Suspense>
    </>
  );
}
