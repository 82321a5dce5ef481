import { autoscalerIdOf } from '@/lib/api/autoscaler';
import type { Autoscaler, AutoscalerKind, AutoscalerTarget } from '@/lib/api/autoscaler';
import type { ObjectMeta } from '@/lib/k8s/types';
import type { MapperContext } from '@/lib/triage/mapper-context';

/** The part of the Autoscaler DTO every kind fills the same way: identity, target, staleness, age. */
export type AutoscalerBase = Pick<Autoscaler, 'id' | 'cluster' | 'kind' | 'namespace' | 'name' | 'uid' | 'target' | 'stale' | 'createdAt'>;

/** The namespace the mappers give an object: its own, else `default` (as `autoscalerIdOf` reads it). */
export function namespaceOf(metadata: ObjectMeta): string {
  return metadata.namespace ?? 'default';
}

/** The DTO base of one autoscaler object; each `to*Autoscaler` adds what its kind knows. */
export function toAutoscalerBase(
  cluster: string,
  kind: AutoscalerKind,
  metadata: ObjectMeta,
  target: AutoscalerTarget,
  context: MapperContext,
): AutoscalerBase {
  return {
    id: autoscalerIdOf(cluster, kind, metadata),
    cluster,
    kind,
    namespace: namespaceOf(metadata),
    name: metadata.name,
    uid: metadata.uid ?? '',
    target,
    stale: context.stale,
    createdAt: metadata.creationTimestamp ?? null,
  };
}
