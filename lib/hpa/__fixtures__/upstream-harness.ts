import type { Condition, HorizontalPodAutoscaler, HpaScalingRules, MetricSpec, Pod, PodMetrics } from '@/lib/k8s/types';
import type { HpaControllerConfig, HpaSyncInput, TimestampedRecommendation } from '@/lib/hpa/types';

/**
 * The fake world of upstream's horizontal_test.go (prepareTestClient / newFakeHorizontalClient), rebuilt as an
 * `HpaSyncInput`: pods `test-pod-<i>` labelled `name=test-pod`, two containers splitting each CPU request,
 * PodMetrics splitting each reported level, and the custom/external metric "qps" answering the same levels.
 */

export const NOW = '2025-06-01T12:00:00Z';
export const NOW_MS = Date.parse(NOW);
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** upstream's test-only constants: scale-up factor 8, CPU initialization 2m, initial readiness delay 10s. */
export const UPSTREAM_TEST_CONFIG: HpaControllerConfig = {
  tolerance: 0.1,
  downscaleStabilizationSeconds: 300,
  cpuInitializationPeriodSeconds: 120,
  initialReadinessDelaySeconds: 10,
  scaleUpLimitFactor: 8,
  scaleUpLimitMinimum: 4,
};

export function ago(seconds: number): string {
  return new Date(NOW_MS - seconds * 1000).toISOString();
}

/** hotCPUCreationTime / coolCPUCreationTime */
export const HOT = NOW;
export const COOL = ago(180);

export interface HorizontalScenario {
  minReplicas: number;
  maxReplicas: number;
  specReplicas: number;
  statusReplicas: number;
  CPUTarget?: number;
  /** milli-units; bigint for values beyond 2^53 */
  reportedLevels?: (number | bigint)[];
  reportedCPURequests?: string[];
  reportedPodReadiness?: ('True' | 'False')[];
  reportedPodStartTime?: string[];
  reportedPodPhase?: string[];
  reportedPodDeletionTimestamp?: boolean[];
  metricsTarget?: MetricSpec[];
  scaleUpRules?: HpaScalingRules;
  scaleDownRules?: HpaScalingRules;
  /** undefined reads as Go's nil map entry: a fresh controller. */
  recommendations?: TimestampedRecommendation[];
  initialConditions?: Condition[];
  lastScaleTime?: string;
  resource?: { kind: string; apiVersion: string; name: string };
  /** Extra labels on every pod (AmbiguousSelector cases). */
  podLabels?: Record<string, string>;
  selector?: string;
}

function milliFromQuantity(q: string): number {
  // the requests in the tables are plain decimals ("1.0", "0.9") or milli strings ("150m")
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Math.round(Number(q) * 1000);
}

function buildPods(s: HorizontalScenario): Pod[] {
  const count = s.reportedCPURequests ? s.reportedCPURequests.length : s.statusReplicas;
  const pods: Pod[] = [];
  for (let i = 0; i < count; i++) {
    const start = s.reportedPodStartTime?.[i] ?? GO_ZERO_TIME;
    const requestMilli = milliFromQuantity(s.reportedCPURequests?.[i] ?? '1.0');
    const half = `${Math.trunc(requestMilli / 2)}m`;
    const pod: Pod = {
      metadata: { name: `test-pod-${i}`, namespace: 'test-namespace', labels: { name: 'test-pod', ...s.podLabels } },
      spec: {
        containers: [
          { name: 'container1', resources: { requests: { cpu: half } } },
          { name: 'container2', resources: { requests: { cpu: half } } },
        ],
      },
      status: {
        phase: s.reportedPodPhase?.[i] ?? 'Running',
        conditions: [{ type: 'Ready', status: s.reportedPodReadiness?.[i] ?? 'True', lastTransitionTime: start }],
        startTime: start,
      },
    };
    if (s.reportedPodDeletionTimestamp?.[i]) pod.metadata.deletionTimestamp = NOW;
    pods.push(pod);
  }
  return pods;
}

function buildPodMetrics(levels: readonly (number | bigint)[]): PodMetrics[] {
  return levels.map((level, i) => {
    const half = `${BigInt(level) / 2n}m`;
    return {
      metadata: { name: `test-pod-${i}`, namespace: 'test-namespace', labels: { name: 'test-pod' } },
      timestamp: NOW,
      window: '1m0s',
      containers: [
        { name: 'container1', usage: { cpu: half, memory: '512Ki' } },
        { name: 'container2', usage: { cpu: half, memory: '512Ki' } },
      ],
    };
  });
}

export function buildHpa(s: HorizontalScenario): HorizontalPodAutoscaler {
  const res = s.resource ?? { kind: 'ReplicationController', apiVersion: 'v1', name: 'test-rc' };
  let metrics: MetricSpec[] = [];
  if (s.CPUTarget && s.CPUTarget > 0) metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: s.CPUTarget } } }];
  if (s.metricsTarget?.length) metrics = [...metrics, ...s.metricsTarget];
  // the harness's own defaulting: a cpu Resource metric without any target
  if (metrics.length === 0) metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }];
  const behavior = s.scaleUpRules || s.scaleDownRules ? { scaleUp: s.scaleUpRules, scaleDown: s.scaleDownRules } : undefined;
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'test-hpa', namespace: 'test-namespace' },
    spec: { scaleTargetRef: { kind: res.kind, name: res.name, apiVersion: res.apiVersion }, minReplicas: s.minReplicas, maxReplicas: s.maxReplicas, metrics, behavior },
    status: { currentReplicas: s.specReplicas, desiredReplicas: s.specReplicas, lastScaleTime: s.lastScaleTime, conditions: s.initialConditions },
  };
}

export function buildSyncInput(s: HorizontalScenario, overrides: Partial<HpaSyncInput> = {}): HpaSyncInput {
  const levels = s.reportedLevels ?? [];
  return {
    hpa: buildHpa(s),
    scale: { specReplicas: s.specReplicas, statusReplicas: s.statusReplicas, selector: s.selector ?? 'name=test-pod' },
    pods: buildPods(s),
    metrics: {
      resource: buildPodMetrics(levels),
      pods: { qps: levels.map((level, i) => ({ pod: `test-pod-${i}`, value: `${level}m`, timestamp: NOW })) },
      object: levels.length ? { qps: `${levels[0]}m` } : {},
      external: { qps: levels.map((level) => `${level}m`) },
    },
    controllerState: s.recommendations === undefined ? null : { recommendations: s.recommendations, scaleUpEvents: [], scaleDownEvents: [] },
    config: UPSTREAM_TEST_CONFIG,
    now: NOW,
    ...overrides,
  };
}

export interface ConditionTriple {
  type: string;
  status: string;
  reason?: string;
}

/** upstream: statusOk */
export const STATUS_OK: readonly ConditionTriple[] = [
  { type: 'AbleToScale', status: 'True', reason: 'SucceededRescale' },
  { type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound' },
  { type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange' },
];

/** upstream: statusOkWithOverrides (setConditionInList on a copy: replace in place, append new types). */
export function statusOkWith(...overrides: ConditionTriple[]): ConditionTriple[] {
  const out = STATUS_OK.map((c) => ({ ...c }));
  for (const o of overrides) {
    const existing = out.find((c) => c.type === o.type);
    if (existing) Object.assign(existing, o);
    else out.push({ ...o });
  }
  return out;
}

export function triples(conditions: readonly Condition[]): ConditionTriple[] {
  return conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason }));
}
