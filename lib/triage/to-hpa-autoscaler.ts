import type { Autoscaler } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { assessHpa, targetOf } from '@/lib/triage/assess-hpa';
import { namespaceOf, toAutoscalerBase } from '@/lib/triage/autoscaler-base';
import { healthOfProblems, sortProblems } from '@/lib/triage/health-rules';
import { toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';
import { toMetricPairs } from '@/lib/triage/metric-pairs';

/** An `autoscaling/v2` HorizontalPodAutoscaler (as `kubectl get -o json` serves it) as the Autoscaler DTO. */
export function toHpaAutoscaler(cluster: string, hpa: HorizontalPodAutoscaler, context: MapperContext, now: Instant): Autoscaler {
  const kind = 'HorizontalPodAutoscaler';
  const namespace = namespaceOf(hpa.metadata);
  const name = hpa.metadata.name;
  const target = targetOf(hpa, namespace);
  // API defaulting (autoscaling/v2 SetDefaults_HorizontalPodAutoscaler) sets minReplicas to 1 when omitted.
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  const assessed = assessHpa(kind, hpa, { kind, cluster, namespace, name, target, minReplicas, maxReplicas }, context, toEpochMs(now));
  const problems = sortProblems(assessed.problems);
  return {
    ...toAutoscalerBase(cluster, kind, hpa.metadata, target, context),
    minReplicas,
    maxReplicas,
    currentReplicas: assessed.currentReplicas,
    desiredReplicas: assessed.desiredReplicas,
    conditions: assessed.conditions,
    metrics: toMetricPairs(hpa.spec.metrics, hpa.status?.currentMetrics),
    health: healthOfProblems(problems),
    problems,
    lastScaleTime: hpa.status?.lastScaleTime ?? null,
  };
}
