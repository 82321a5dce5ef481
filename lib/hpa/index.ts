import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import type { HpaSyncInput, HpaSyncResult } from '@/lib/hpa/types';
import { simulateHpaSync } from '@/lib/hpa/sync';

export { simulateHpaSync, DEFAULT_HPA_CONFIG } from '@/lib/hpa/sync';
export { pairMetrics, toMetricIdentity, metricKey } from '@/lib/hpa/pair-metrics';
export type { MetricIdentity, MetricPair } from '@/lib/hpa/pair-metrics';
export { HPA_CONDITION_NAME_MAP, toShippedConditionType } from '@/lib/hpa/conditions';
export type { ConditionNameMapping, HpaConditionType } from '@/lib/hpa/conditions';
export type * from '@/lib/hpa/types';

/** What changes between two syncs of `simulateHpaSyncs`; everything not given carries over. */
export type HpaSyncStep = Partial<Omit<HpaSyncInput, 'controllerState' | 'now'>> & { now: string };

/**
 * Plays several syncs in a row: each step's HPA status and controller history are the previous result's, and a
 * successful rescale moves the target's `scale.specReplicas` (status replicas follow unless the step sets them).
 */
export function simulateHpaSyncs(first: HpaSyncInput, steps: readonly HpaSyncStep[]): HpaSyncResult[] {
  const results: HpaSyncResult[] = [];
  let input = first;
  let last = simulateHpaSync(input);
  results.push(last);
  for (const step of steps) {
    const hpa: HorizontalPodAutoscaler = { ...(step.hpa ?? input.hpa), status: last.status };
    const scale = last.rescale ? { ...input.scale, specReplicas: last.desiredReplicas, statusReplicas: last.desiredReplicas } : input.scale;
    input = { ...input, ...step, hpa, scale: step.scale ?? scale, controllerState: last.controllerState };
    last = simulateHpaSync(input);
    results.push(last);
  }
  return results;
}
export { playLoadCurve, scaleLoad, withLoad } from '@/lib/hpa/load';
export type { LoadStep } from '@/lib/hpa/load';
