import { KarmadaClusterSchema, ReplicaRequestSchema } from '@/lib/api/federation';
import type { Autoscaler, FederationMember, FederationStrategy, Problem } from '@/lib/api/autoscaler';
import { estimateAvailableReplicas } from '@/lib/federation/estimate-available-replicas';
import { findCondition, toConditionStatus } from '@/lib/k8s/conditions';
import { hintFor } from '@/lib/triage/hints';
import type { HintFacts } from '@/lib/triage/hints';
import type {
  FederatedHPAObject,
  KarmadaClusterObject,
  KarmadaPlacement,
  PropagationPolicyObject,
  ResourceBindingObject,
} from '@/lib/triage/karmada-types';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';
import { toHpaShapedAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

export interface FederationContext {
  /** The ResourceBinding of the FHPA's resource template (`<name>-<kind>`), null when there is none. */
  binding: ResourceBindingObject | null;
  /** The Karmada Cluster objects (all of them, or at least the binding's). */
  clusters: readonly KarmadaClusterObject[];
  /** The template's PropagationPolicy; its placement is used only when there is no binding. */
  policy?: PropagationPolicyObject | null;
}

/**
 * karmada-scheduler's strategy for a placement (pkg/scheduler/core/assignment.go newAssignState;
 * `Placement.ReplicaSchedulingType()` reads a nil replicaScheduling as Duplicated). Divided with a
 * preference other than Aggregated or Weighted gets no strategy upstream: `Unknown` here.
 */
export function toFederationStrategy(placement: KarmadaPlacement | null | undefined): FederationStrategy {
  if (!placement) return 'Unknown';
  const scheduling = placement.replicaScheduling;
  if (!scheduling || scheduling.replicaSchedulingType === 'Duplicated') return 'Duplicated';
  if (scheduling.replicaSchedulingType !== 'Divided') return 'Unknown';
  if (scheduling.replicaDivisionPreference === 'Aggregated') return 'Aggregated';
  if (scheduling.replicaDivisionPreference === 'Weighted')
    return scheduling.weightPreference?.dynamicWeight ? 'DynamicWeight' : 'StaticWeight';
  return 'Unknown';
}

function availableReplicas(cluster: KarmadaClusterObject, binding: ResourceBindingObject | null): number | null {
  const parsedCluster = KarmadaClusterSchema.safeParse(cluster);
  const parsedRequest = ReplicaRequestSchema.safeParse(binding?.spec?.replicaRequirements?.resourceRequest ?? {});
  if (!parsedCluster.success || !parsedRequest.success) return null;
  return estimateAvailableReplicas(parsedCluster.data, parsedRequest.data);
}

/** One member per `binding.spec.clusters` entry, with the readiness karmada reads (`util.IsClusterReady`). */
export function toFederationMembers(binding: ResourceBindingObject | null, clusters: readonly KarmadaClusterObject[]): FederationMember[] {
  const byName = new Map(clusters.map((c) => [c.metadata.name, c]));
  return (binding?.spec?.clusters ?? []).map((target) => {
    const cluster = byName.get(target.name);
    const ready = findCondition(cluster?.status?.conditions, 'Ready');
    return {
      cluster: target.name,
      replicas: target.replicas ?? 0,
      ready: cluster ? toConditionStatus(ready?.status) : 'Unknown',
      readyReason: ready?.reason ?? null,
      availableReplicas: cluster ? availableReplicas(cluster, binding) : null,
    };
  });
}

function memberProblem(
  members: readonly FederationMember[],
  clusters: readonly KarmadaClusterObject[],
  hint: (message: string) => { title: string; hint: string },
  context: MapperContext,
): Problem | null {
  const notReady = members.filter((m) => m.ready !== 'True');
  if (notReady.length === 0) return null;
  const byName = new Map(clusters.map((c) => [c.metadata.name, c]));
  let since: string | null = null;
  const parts = notReady.map((m) => {
    const cluster = byName.get(m.cluster);
    if (!cluster) return `${m.cluster} (no Karmada Cluster object)`;
    const ready = findCondition(cluster.status?.conditions, 'Ready');
    if (ready?.lastTransitionTime && (since === null || Date.parse(ready.lastTransitionTime) < Date.parse(since)))
      since = ready.lastTransitionTime;
    if (!ready) return `${m.cluster} (no Ready condition)`;
    return `${m.cluster} (Ready=${m.ready}${ready.reason ? `, ${ready.reason}` : ''}${ready.message ? `: ${ready.message}` : ''})`;
  });
  const message = `member cluster${notReady.length > 1 ? 's' : ''} not Ready: ${parts.join('; ')}`;
  const { title, hint: text } = hint(message);
  return {
    code: 'MemberClusterNotReady',
    severity: 'warning',
    title,
    message,
    since: context.problemSince?.MemberClusterNotReady ?? since,
    hint: text,
  };
}

/** A Karmada FederatedHPA, with its ResourceBinding and member Clusters, as the Autoscaler DTO. */
export function toFederatedAutoscaler(
  cluster: string,
  fhpa: FederatedHPAObject,
  federation: FederationContext,
  context: MapperContext,
  now: Instant,
): Autoscaler {
  const members = toFederationMembers(federation.binding, federation.clusters);
  const memberProblems = (facts: Omit<HintFacts, 'message'>): Problem[] => {
    const notReady = memberProblem(
      members,
      federation.clusters,
      (message) => hintFor('MemberClusterNotReady', { ...facts, message }),
      context,
    );
    return notReady ? [notReady] : [];
  };
  // Added to the mapped object, not spread into a new one: see `autoscalerDto`.
  const dto = toHpaShapedAutoscaler(cluster, 'FederatedHPA', fhpa, context, now, memberProblems);
  dto.federation = {
    strategy: toFederationStrategy(federation.binding?.spec?.placement ?? federation.policy?.spec?.placement),
    members,
  };
  return dto;
}
