import { simulateHpaSync } from '@/lib/hpa';
import type { HpaControllerConfig, HpaControllerState, HpaMetricsInput, HpaSyncResult, OtherHpaSelector } from '@/lib/hpa/types';
import type { HorizontalPodAutoscaler, HpaBehavior, Pod } from '@/lib/k8s/types';
import { kubeTimeAt } from '../api/store';
import type { EventRecorder } from './event-recorder';
import type { GroundTruth } from './ground-truth';

/**
 * The simulator's stand-in for kube-controller-manager's HPA controller: it runs `lib/hpa`'s port of
 * the controller on the simulated state. Time is compressed by `speed`: the controller's windows and
 * periods (flags and `spec.behavior`) are divided by it, while every timestamp written stays wall-clock
 * time, so what Autoscope records lines up with its own clock.
 */
export function scaledConfig(speed: number): HpaControllerConfig {
  return {
    downscaleStabilizationSeconds: 300 / speed,
    cpuInitializationPeriodSeconds: 300 / speed,
    initialReadinessDelaySeconds: 30 / speed,
  };
}

export function scaledHpa(hpa: HorizontalPodAutoscaler, speed: number): HorizontalPodAutoscaler {
  const behavior = hpa.spec.behavior;
  if (!behavior || speed === 1) return hpa;
  const scaleRules = (rules: HpaBehavior['scaleUp']): HpaBehavior['scaleUp'] =>
    rules
      ? {
          ...rules,
          ...(typeof rules.stabilizationWindowSeconds === 'number'
            ? { stabilizationWindowSeconds: rules.stabilizationWindowSeconds / speed }
            : {}),
          ...(rules.policies ? { policies: rules.policies.map((p) => ({ ...p, periodSeconds: p.periodSeconds / speed })) } : {}),
        }
      : rules;
  return { ...hpa, spec: { ...hpa.spec, behavior: { scaleUp: scaleRules(behavior.scaleUp), scaleDown: scaleRules(behavior.scaleDown) } } };
}

export interface HpaSyncTarget {
  cluster: string;
  hpa: HorizontalPodAutoscaler;
  /** null when the target does not exist (GET /scale fails). */
  scale: { specReplicas: number; statusReplicas: number; selector: string } | null;
  scaleTargetMissingMessage: string;
  pods: Pod[];
  metrics: HpaMetricsInput;
  otherHpaSelectors: OtherHpaSelector[];
  state: HpaControllerState | null;
  speed: number;
  now: number;
}

/** One sync: returns the result for the caller to apply (status, scale, controller state). */
export function runHpaSync(t: HpaSyncTarget): HpaSyncResult {
  return simulateHpaSync({
    hpa: scaledHpa(t.hpa, t.speed),
    scale: t.scale ?? { specReplicas: 0, statusReplicas: 0, selector: '' },
    pods: t.pods,
    metrics: t.metrics,
    controllerState: t.state,
    failures: t.scale ? undefined : { getScale: t.scaleTargetMissingMessage },
    otherHpaSelectors: t.otherHpaSelectors,
    config: scaledConfig(t.speed),
    now: kubeTimeAt(t.now),
  });
}

/**
 * Writes the controller's events and the ground truth of a sync. `write` stores the new status (when it
 * changed) and returns the stored object, whose resourceVersion each transition carries.
 */
export function recordSync(
  cluster: string,
  kind: string,
  hpa: HorizontalPodAutoscaler,
  result: HpaSyncResult,
  recorder: EventRecorder,
  truth: GroundTruth,
  now: number,
  write: () => { metadata: { resourceVersion?: string } } | undefined,
  component = 'horizontal-pod-autoscaler',
): void {
  for (const e of result.events) {
    recorder.record(
      {
        apiVersion: hpa.apiVersion ?? 'autoscaling/v2',
        kind,
        name: hpa.metadata.name,
        namespace: hpa.metadata.namespace,
        uid: hpa.metadata.uid,
      },
      e.type,
      e.reason,
      e.message,
      now,
      component,
    );
  }
  const stored = write();
  truth.compare(
    {
      cluster,
      kind,
      namespace: hpa.metadata.namespace ?? '',
      name: hpa.metadata.name,
      uid: hpa.metadata.uid ?? '',
      rv: stored?.metadata.resourceVersion,
    },
    hpa.status?.conditions,
    result.status.conditions,
    kubeTimeAt(now),
  );
}
