import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { AutoscalerDetail } from '@/components/autoscaler/autoscaler-detail';
import { Skeleton } from '@/components/ui/query-state';
import type { AutoscalerPath } from '@/lib/api';
import { AutoscalerPathSchema } from '@/lib/api';

interface Params {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
}

/**
 * `[cluster]` is `encodeURIComponent(cluster)` (names like `karmada-global/member-eu` hold `/`); Next hands the
 * segment over still encoded, so it is decoded here, once.
 */
function toRef(p: Params): AutoscalerPath | null {
  let cluster: string;
  try {
    cluster = decodeURIComponent(p.cluster);
  } catch {
    return null;
  }
  const parsed = AutoscalerPathSchema.safeParse({ cluster, kind: p.kind, namespace: p.namespace, name: p.name });
  return parsed.success ? parsed.data : null;
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const ref = toRef(await params);
  return { title: ref ? `${ref.name} · ${ref.kind} in ${ref.cluster}` : 'Autoscaler' };
}

export default async function AutoscalerPage({ params }: { params: Promise<Params> }): Promise<React.JSX.Element> {
  const ref = toRef(await params);
  if (!ref) notFound();
  return (
    <Suspense fallback={<Skeleton rows={8} height={22} />}>
      <AutoscalerDetail autoscalerRef={ref} />
    </Suspense>
  );
}
