import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HpaPreview } from '@/components/preview/hpa-preview';
import { Skeleton } from '@/components/ui/query-state';

export const metadata: Metadata = { title: 'HPA preview' };

export default function HpaPreviewPage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">HPA preview</h1>
      <p className="page-subtitle">
        What the HPA controller would decide with other bounds, targets, behavior or load — and replicas over a load curve.
      </p>
      <Suspense fallback={<Skeleton rows={10} height={24} />}>
        <HpaPreview />
      </Suspense>
    </>
  );
}
