import type { Autoscaler, AutoscalerTarget, MetricPairDto, Problem } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { assessHpa, metricPairsOf, targetOf } from '@/lib/triage/assess-hpa';
import type { AssessMemo } from '@/lib/triage/assess-hpa';
import { autoscalerDto, namespaceOf, toAutoscalerBase } from '@/lib/triage/autoscaler-base';
import { healthOfProblems, sortProblems } from '@/lib/triage/health-rules';
import type { HintFacts } from '@/lib/triage/hints';
import { toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';
import { toMetricPairs } from '@/lib/triage/metric-pairs';

/** The kinds with the HPA shape: a FederatedHPA's spec and status are autoscaling/v2's. */
export type HpaShapedKind = 'HorizontalPodAutoscaler' | 'FederatedHPA';

/**
 * What mapping one version of an object works out whatever the context: its target, its conditions in order (and
 * those of the DTO made last, reused where their meaning holds: `AssessMemo`), its metrics paired and as the DTO has
 * them. The index maps a version it sees for the first time twice (with the context before history observed it, then
 * with the one after) and passes the same memo both times, so the second mapping reuses what the first made — and
 * the first DTO's parts are not made only to die. A memo belongs to one version of one object.
 */
export interface HpaShapeMemo extends AssessMemo {
  target?: AutoscalerTarget;
  metrics?: MetricPairDto[];
}

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
  memo: HpaShapeMemo = {},
): Autoscaler {
  const namespace = namespaceOf(hpa.metadata);
  const target = (memo.target ??= targetOf(hpa, namespace));
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  const facts = { kind, cluster, namespace, name: hpa.metadata.name, target, minReplicas, maxReplicas };
  const assessed = assessHpa(kind, hpa, facts, context, toEpochMs(now), memo);
  const problems = sortProblems([...assessed.problems, ...more(facts)]);
  return autoscalerDto(toAutoscalerBase(cluster, kind, hpa.metadata, target, context), {
    minReplicas,
    maxReplicas,
    currentReplicas: assessed.currentReplicas,
    desiredReplicas: assessed.desiredReplicas,
    conditions: assessed.conditions,
    metrics: (memo.metrics ??= toMetricPairs(hpa.spec.metrics, hpa.status?.currentMetrics, metricPairsOf(hpa, memo))),
    health: healthOfProblems(problems),
    problems,
    lastScaleTime: hpa.status?.lastScaleTime ?? null,
  });
}

/** An `autoscaling/v2` HorizontalPodAutoscaler (as `kubectl get -o json` serves it) as the Autoscaler DTO. */
export function toHpaAutoscaler(
  cluster: string,
  hpa: HorizontalPodAutoscaler,
  context: MapperContext,
  now: Instant,
  memo?: HpaShapeMemo,
): Autoscaler {
  return toHpaShapedAutoscaler(cluster, 'HorizontalPodAutoscaler', hpa, context, now, undefined, memo);
}
