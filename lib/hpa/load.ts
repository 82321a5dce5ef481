import type { HpaSyncInput, HpaSyncResult, PodsMetricSample } from '@/lib/hpa/types';
import { simulateHpaSync } from '@/lib/hpa/sync';
import { formatMilliQuantity, milliValue } from '@/lib/k8s/quantity';
import type { Pod, PodMetrics, Quantity } from '@/lib/k8s/types';

/**
 * What-if load for previews: the observed input rescaled as if the workload's total load were `factor`
 * times today's and spread over `replicas` ready pods. The assumptions are the preview's, and are
 * stated to the user: pods are interchangeable, new pods start ready, and every metric is load-proportional
 * (per-pod values fall as pods are added; object and external totals do not).
 */

const scaleQuantity = (q: Quantity, factor: number): string =>
  formatMilliQuantity(BigInt(Math.max(0, Math.round(Number(milliValue(q)) * factor))));

function isReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Average usage per ready pod and container, in milli-units. */
function averageUsage(metrics: readonly PodMetrics[], pods: readonly Pod[]): Map<string, Map<string, number>> {
  const ready = new Set(pods.filter(isReady).map((p) => p.metadata.name));
  const sums = new Map<string, Map<string, number>>();
  let count = 0;
  for (const m of metrics) {
    if (ready.size && !ready.has(m.metadata.name)) continue;
    count += 1;
    for (const c of m.containers) {
      const byResource = sums.get(c.name) ?? new Map<string, number>();
      for (const [resource, q] of Object.entries(c.usage))
        byResource.set(resource, (byResource.get(resource) ?? 0) + Number(milliValue(q)));
      sums.set(c.name, byResource);
    }
  }
  for (const byResource of sums.values()) for (const [r, v] of byResource) byResource.set(r, count ? v / count : 0);
  return sums;
}

/** `replicas` copies of the first ready pod (or the first pod), named like a ReplicaSet's, started long before `now`. */
function clonePods(pods: readonly Pod[], replicas: number, now: string): Pod[] {
  const template = pods.find(isReady) ?? pods[0];
  if (!template) return [];
  const started = new Date(Date.parse(now) - 3600_000).toISOString();
  return Array.from({ length: replicas }, (_, i) => ({
    ...template,
    metadata: { ...template.metadata, name: `${template.metadata.name}-preview-${i}`, uid: `preview-${i}`, deletionTimestamp: undefined },
    status: {
      ...template.status,
      phase: 'Running',
      startTime: started,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: started }],
    },
  }));
}

/**
 * The observed input with the total load multiplied by `factor` and spread over `replicas` pods.
 * With `factor` 1 and `replicas` equal to today's ready pods it reproduces today's per-pod averages.
 */
export function withLoad(input: HpaSyncInput, factor: number, replicas: number): HpaSyncInput {
  const readyToday = Math.max(1, input.pods.filter(isReady).length);
  const perPod = (factor * readyToday) / Math.max(1, replicas);
  const pods = clonePods(input.pods, replicas, input.now);
  const usage = averageUsage(input.metrics.resource ?? [], input.pods);
  const metricWindow = input.metrics.resource?.[0]?.window ?? '30s';
  const metricTime = input.metrics.resource?.[0]?.timestamp ?? input.now;
  const resource = input.metrics.resource
    ? pods.map((p) => ({
        metadata: { name: p.metadata.name, namespace: p.metadata.namespace },
        timestamp: metricTime,
        window: metricWindow,
        containers: [...usage.entries()].map(([name, byResource]) => ({
          name,
          usage: Object.fromEntries([...byResource.entries()].map(([r, v]) => [r, formatMilliQuantity(BigInt(Math.round(v * perPod)))])),
        })),
      }))
    : undefined;
  const podsMetrics = input.metrics.pods
    ? Object.fromEntries(
        Object.entries(input.metrics.pods).map(([metric, samples]) => {
          const avg = samples.length ? samples.reduce((n, s) => n + Number(milliValue(s.value)), 0) / samples.length : 0;
          const first: PodsMetricSample | undefined = samples[0];
          return [
            metric,
            pods.map((p) => ({
              pod: p.metadata.name,
              value: formatMilliQuantity(BigInt(Math.round(avg * perPod))),
              timestamp: first?.timestamp,
              window: first?.window,
            })),
          ];
        }),
      )
    : undefined;
  return {
    ...input,
    pods,
    metrics: {
      ...input.metrics,
      resource,
      pods: podsMetrics,
      object: input.metrics.object
        ? Object.fromEntries(Object.entries(input.metrics.object).map(([k, v]) => [k, scaleQuantity(v, factor)]))
        : undefined,
      external: input.metrics.external
        ? Object.fromEntries(Object.entries(input.metrics.external).map(([k, vs]) => [k, vs.map((v) => scaleQuantity(v, factor))]))
        : undefined,
    },
    scale: { ...input.scale, specReplicas: replicas, statusReplicas: replicas },
  };
}

/** The observed input with every metric value multiplied by `factor`, pods unchanged. */
export function scaleLoad(input: HpaSyncInput, factor: number): HpaSyncInput {
  if (factor === 1) return input;
  const m = input.metrics;
  return {
    ...input,
    metrics: {
      ...m,
      resource: m.resource?.map((pm) => ({
        ...pm,
        containers: pm.containers.map((c) => ({
          ...c,
          usage: Object.fromEntries(Object.entries(c.usage).map(([r, q]) => [r, scaleQuantity(q, factor)])),
        })),
      })),
      pods: m.pods
        ? Object.fromEntries(
            Object.entries(m.pods).map(([k, samples]) => [k, samples.map((s) => ({ ...s, value: scaleQuantity(s.value, factor) }))]),
          )
        : undefined,
      object: m.object ? Object.fromEntries(Object.entries(m.object).map(([k, v]) => [k, scaleQuantity(v, factor)])) : undefined,
      external: m.external
        ? Object.fromEntries(Object.entries(m.external).map(([k, vs]) => [k, vs.map((v) => scaleQuantity(v, factor))]))
        : undefined,
    },
  };
}

export interface LoadStep {
  /** Seconds after the first sync. */
  t: number;
  factor: number;
  /** The target's replicas after this sync. */
  replicas: number;
  desired: number;
  /** The ScalingLimited reason when a clamp applied (TooManyReplicas, ScaleUpLimit, …), else null. */
  limited: string | null;
  result: HpaSyncResult;
}

/**
 * Plays a load curve: one sync every `intervalSeconds`, each with the observed load × the step's factor,
 * the replicas the previous sync left, and the controller history it built up.
 */
export function playLoadCurve(input: HpaSyncInput, factors: readonly number[], intervalSeconds: number): LoadStep[] {
  const start = Date.parse(input.now);
  const steps: LoadStep[] = [];
  let replicas = input.scale.specReplicas;
  let hpa = input.hpa;
  let state = input.controllerState ?? null;
  factors.forEach((factor, i) => {
    const now = new Date(start + i * intervalSeconds * 1000).toISOString();
    const result = simulateHpaSync({ ...withLoad({ ...input, now }, factor, Math.max(replicas, 0)), hpa, controllerState: state, now });
    replicas = result.rescale ? result.desiredReplicas : replicas;
    hpa = { ...hpa, status: result.status };
    state = result.controllerState;
    const limited = result.conditions.find((c) => c.type === 'ScalingLimited' && c.status === 'True')?.reason ?? null;
    steps.push({ t: i * intervalSeconds, factor, replicas, desired: result.desiredReplicas, limited, result });
  });
  return steps;
}
