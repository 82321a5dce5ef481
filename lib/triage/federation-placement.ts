import type { Autoscaler } from '@/lib/api/autoscaler';
import type { FederationPlacement } from '@/lib/api/fleet';
import type { PropagationPolicyObject, ResourceBindingObject } from '@/lib/triage/karmada-types';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** A FederatedHPA's `scaleTargetRef`, as far as finding its binding and policy needs it. */
export interface ResourceRef {
  kind?: string;
  name?: string;
}

/** The ResourceBinding and PropagationPolicy of a resource template, looked up by key. */
export interface FederationLookup {
  binding(namespace: string, ref: ResourceRef | undefined): ResourceBindingObject | null;
  policy(namespace: string, ref: ResourceRef | undefined): PropagationPolicyObject | null;
}

const resourceKey = (namespace: string | undefined, ref: ResourceRef | undefined): string =>
  JSON.stringify([namespace, ref?.kind, ref?.name]);

/** Whether one of the policy's resourceSelectors picks the resource (a selector without a name picks every resource of its kind). */
function selects(policy: PropagationPolicyObject, ref: ResourceRef | undefined): boolean {
  const selectors = (obj(policy.spec).resourceSelectors ?? []) as { kind?: string; name?: string }[];
  return selectors.some((sel) => sel.kind === ref?.kind && (!sel.name || sel.name === ref?.name));
}

/**
 * Indexes a control plane's bindings by the resource they propagate (`spec.resource` namespace, kind, name; the
 * first in list order wins) and its policies by namespace, so finding the binding and policy of each of N
 * FederatedHPAs costs a map lookup rather than a scan of every binding.
 */
export function indexFederationObjects(
  bindings: readonly ResourceBindingObject[],
  policies: readonly PropagationPolicyObject[],
): FederationLookup {
  const byResource = new Map<string, ResourceBindingObject>();
  for (const b of bindings) {
    const key = resourceKey(b.metadata.namespace, b.spec?.resource);
    if (!byResource.has(key)) byResource.set(key, b);
  }
  const byNamespace = new Map<string | undefined, PropagationPolicyObject[]>();
  for (const p of policies) {
    const list = byNamespace.get(p.metadata.namespace);
    if (list) list.push(p);
    else byNamespace.set(p.metadata.namespace, [p]);
  }
  return {
    binding: (namespace, ref) => byResource.get(resourceKey(namespace, ref)) ?? null,
    policy: (namespace, ref) => byNamespace.get(namespace)?.find((p) => selects(p, ref)) ?? null,
  };
}

/** Where a FederatedHPA's workload is placed: its policy and binding, the static weights, and each member's share and readiness. */
export function toFederationPlacement(
  a: Autoscaler,
  binding: ResourceBindingObject | null,
  policy: PropagationPolicyObject | null,
): FederationPlacement | undefined {
  if (!a.federation) return undefined;
  const spec = obj(binding?.spec);
  const scheduling = obj(obj(spec.placement).replicaScheduling);
  const weights = obj(scheduling.weightPreference).staticWeightList as
    { targetCluster?: { clusterNames?: string[] }; weight?: number }[] | undefined;
  const aggregated =
    (obj(binding?.status).aggregatedStatus as { clusterName?: string; status?: Obj; applied?: boolean }[] | undefined) ?? [];
  const resource = obj(spec.resource);
  return {
    strategy: a.federation.strategy,
    policy: policy?.metadata.name ?? null,
    binding: binding?.metadata.name ?? null,
    bindingUid: typeof resource.uid === 'string' ? resource.uid : null,
    templateReplicas: typeof spec.replicas === 'number' ? spec.replicas : null,
    staticWeights: weights
      ? Object.fromEntries(weights.flatMap((w) => (w.targetCluster?.clusterNames ?? []).map((c) => [c, w.weight ?? 0])))
      : null,
    members: a.federation.members.map((m) => {
      const agg = aggregated.find((s) => s.clusterName === m.cluster);
      return {
        ...m,
        readyReplicas: typeof agg?.status?.readyReplicas === 'number' ? agg.status.readyReplicas : null,
        applied: agg?.applied ?? null,
      };
    }),
  };
}
