import type { Autoscaler, Problem } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { assessHpa, targetOf } from '@/lib/triage/assess-hpa';
import { autoscalerDto, namespaceOf, toAutoscalerBase } from '@/lib/triage/autoscaler-base';
import { healthOfProblems, sortProblems } from '@/lib/triage/health-rules';
import type { HintFacts } from '@/lib/triage/hints';
import { toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';
import { toMetricPairs } from '@/lib/triage/metric-pairs';

/** The kinds with the HPA shape: a FederatedHPA's spec and status are autoscaling/v2's. */
export type HpaShapedKind = 'HorizontalPodAutoscaler' | 'FederatedHPA';

/**
 * The Autoscaler DTO of an object with the HPA shape: conditions, problems and metrics by the HPA rules, plus the
 * problems `more` adds from what the caller knows beyond the object (a FederatedHPA's member clusters). Both APIs
 * default an omitted minReplicas to 1 (autoscaling/v2 SetDefaults_HorizontalPodAutoscaler; Karmada's
 * lifted.SetDefaultsFederatedHPA).
 */
export function toHpaShapedAutoscaler(
  cluster: string,
  kind: HpaShapedKind,
  hpa: HorizontalPodAutoscaler,
  context: MapperContext,
  now: Instant,
  more: (facts: Omit<HintFacts, 'message'>) => Problem[] = () => [],
): Autoscaler {
  const namespace = namespaceOf(hpa.metadata);
  const target = targetOf(hpa, namespace);
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  const facts = { kind, cluster, namespace, name: hpa.metadata.name, target, minReplicas, maxReplicas };
  const assessed = assessHpa(kind, hpa, facts, context, toEpochMs(now));
  const problems = sortProblems([...assessed.problems, ...more(facts)]);
  return autoscalerDto(toAutoscalerBase(cluster, kind, hpa.metadata, target, context), {
    minReplicas,
    maxReplicas,
    currentReplicas: assessed.currentReplicas,
    desiredReplicas: assessed.desiredReplicas,
    conditions: assessed.conditions,
    metrics: toMetricPairs(hpa.spec.metrics, hpa.status?.currentMetrics),
    health: healthOfProblems(problems),
    problems,
    lastScaleTime: hpa.status?.lastScaleTime ?? null,
  });
}

/** An `autoscaling/v2` HorizontalPodAutoscaler (as `kubectl get -o json` serves it) as the Autoscaler DTO. */
export function toHpaAutoscaler(cluster: string, hpa: HorizontalPodAutoscaler, context: MapperContext, now: Instant): Autoscaler {
  return toHpaShapedAutoscaler(cluster, 'HorizontalPodAutoscaler', hpa, context, now);
}
