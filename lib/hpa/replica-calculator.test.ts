import { describe, expect, it } from 'vitest';
import type { Pod, PodMetrics } from '@/lib/k8s/types';
import type { CalculatorOptions, PodMetricsInfo, Tolerances } from '@/lib/hpa/replica-calculator';
import {
  CalcError,
  INT32_MAX,
  INT64_MAX,
  calcPlainMetricReplicas,
  calculateRequests,
  getExternalMetricReplicas,
  getExternalPerPodMetricReplicas,
  getObjectMetricReplicas,
  getObjectPerPodMetricReplicas,
  getPerPodUsage,
  getResourceReplicas,
  groupPods,
} from '@/lib/hpa/replica-calculator';
import { getResourceMetric } from '@/lib/hpa/metrics-client';
import { parseSelector } from '@/lib/k8s/selector';

/**
 * replica_calculator_test.go, table for table. The fake world: pods `test-pod-<i>` with two containers that
 * each request the pod's listed CPU, Ready=True unless listed, start time and Ready transition at the zero
 * time unless listed, and PodMetrics stamped at the zero time with a one-minute window.
 */

const NOW = '2025-06-01T12:00:00Z';
const NOW_MS = Date.parse(NOW);
const ZERO = '0001-01-01T00:00:00Z';
const timeNow = NOW;
const time3MinsAgo = new Date(NOW_MS - 180_000).toISOString();

const OPTIONS: CalculatorOptions = {
  nowMs: NOW_MS,
  cpuInitializationPeriodMs: 120_000,
  delayOfInitialReadinessStatusMs: 10_000,
  podLevelResources: true,
  missingPodsOnScaleDown: 'maxOf100AndTarget',
  ignoreSucceededPods: false,
};
const DEFAULT_TOLERANCES: Tolerances = { scaleDown: 0.1, scaleUp: 0.1, rule: 'interval' };

interface CalcScenario {
  currentReplicas: number;
  container?: string;
  requests?: string[];
  /** levels[i][j]: usage of container j in pod i (milli) */
  levels?: number[][];
  podNames?: string[];
  podReadiness?: ('True' | 'False')[];
  podStartTime?: string[];
  podPhase?: string[];
  podDeletionTimestamp?: boolean[];
}

const cpuRequests = (n: number, value: string): string[] => Array.from({ length: n }, () => value);
const makePodMetricLevels = (...levels: number[]): number[][] => levels.map((l) => [l, l]);

function buildPods(f: CalcScenario): Pod[] {
  const count = Math.max(f.currentReplicas, f.podPhase?.length ?? 0);
  return Array.from({ length: count }, (_, i): Pod => {
    const req = f.requests && i < f.requests.length ? { requests: { cpu: f.requests[i] as string } } : undefined;
    const pod: Pod = {
      metadata: { name: `test-pod-${i}`, namespace: 'test-namespace', labels: { name: 'test-pod' } },
      spec: {
        containers: [
          { name: 'container1', resources: req },
          { name: 'container2', resources: req },
        ],
      },
      status: {
        phase: f.podPhase?.[i] ?? 'Running',
        startTime: f.podStartTime?.[i] ?? ZERO,
        conditions: [{ type: 'Ready', status: f.podReadiness?.[i] ?? 'True' }],
      },
    };
    if (f.podDeletionTimestamp?.[i]) pod.metadata.deletionTimestamp = NOW;
    return pod;
  });
}

function buildPodMetrics(f: CalcScenario): PodMetrics[] {
  return (f.levels ?? []).map((levels, i) => ({
    metadata: { name: f.podNames?.[i] ?? `test-pod-${i}`, namespace: 'test-namespace', labels: { name: 'test-pod' } },
    timestamp: ZERO,
    window: '1m0s',
    containers: levels.map((m, j) => ({ name: `container${j + 1}`, usage: { cpu: `${m}m` } })),
  }));
}

interface ResourceCase {
  name: string;
  fixture: CalcScenario;
  targetUtilization: number;
  expectedReplicas?: number;
  expectedUtilization?: number;
  expectedRawValue?: number;
  expectedError?: string;
  tolerances?: Tolerances;
  options?: Partial<CalculatorOptions>;
}

/** GetResourceReplicas, including the metrics client's fetch and its error wrapping. */
function runResource(c: ResourceCase): { replicas: number; utilization: number; raw: bigint } {
  const container = c.fixture.container ?? '';
  let metrics: PodMetricsInfo;
  try {
    metrics = getResourceMetric({ resource: buildPodMetrics(c.fixture) }, 'cpu', parseSelector('name=test-pod'), container);
  } catch (error) {
    throw new CalcError(`unable to get metrics for resource cpu: ${(error as Error).message}`);
  }
  const r = getResourceReplicas(
    c.fixture.currentReplicas,
    c.targetUtilization,
    'cpu',
    c.tolerances ?? DEFAULT_TOLERANCES,
    buildPods(c.fixture),
    metrics,
    container,
    {
      ...OPTIONS,
      ...c.options,
    },
  );
  return { replicas: r.replicas, utilization: r.utilization, raw: r.rawUtilization };
}

function checkResource(c: ResourceCase): void {
  if (c.expectedError) {
    expect(() => runResource(c)).toThrow(c.expectedError);
    return;
  }
  expect(runResource(c)).toEqual({
    replicas: c.expectedReplicas,
    utilization: c.expectedUtilization,
    raw: BigInt(c.expectedRawValue ?? 0),
  });
}

const RESOURCE_SCALE: ResourceCase[] = [
  {
    name: 'scale up',
    fixture: { currentReplicas: 3, requests: cpuRequests(3, '1.0'), levels: makePodMetricLevels(300, 500, 700) },
    targetUtilization: 30,
    expectedReplicas: 5,
    expectedUtilization: 50,
    expectedRawValue: 1000,
  },
  {
    name: 'scale up: container metric',
    fixture: {
      currentReplicas: 3,
      container: 'container2',
      requests: cpuRequests(3, '1.0'),
      levels: [
        [1000, 300],
        [1000, 500],
        [1000, 700],
      ],
    },
    targetUtilization: 30,
    expectedReplicas: 5,
    expectedUtilization: 50,
    expectedRawValue: 500,
  },
  {
    name: 'scale up: unready pod scales less',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['False', 'True', 'True'],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(300, 500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'scale up: hot-CPU container scales less',
    fixture: {
      currentReplicas: 3,
      podStartTime: [timeNow, time3MinsAgo, time3MinsAgo],
      container: 'container2',
      requests: cpuRequests(3, '1.0'),
      levels: [
        [0, 300],
        [0, 500],
        [0, 700],
      ],
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 600,
  },
  {
    name: 'scale up: hot-CPU pod scales less',
    fixture: {
      currentReplicas: 3,
      podStartTime: [timeNow, time3MinsAgo, time3MinsAgo],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(300, 500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'no scale: unready pods ignored',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['True', 'False', 'False'],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(400, 500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 3,
    expectedUtilization: 40,
    expectedRawValue: 800,
  },
  {
    name: 'no scale: hot-CPU pods ignored',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['True', 'False', 'False'],
      podStartTime: [time3MinsAgo, timeNow, timeNow],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(400, 500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 3,
    expectedUtilization: 40,
    expectedRawValue: 800,
  },
  {
    name: 'scale up: failed pods ignored',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Failed', 'Failed'],
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'scale up: failed pods ignored with missing container metric',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Failed', 'Failed'],
      container: 'container2',
      requests: cpuRequests(4, '1.0'),
      levels: [[1000, 500], [9000, 700], [1000], [9000]],
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 600,
  },
  {
    name: 'scale up: container metrics with failed pods ignored',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Failed', 'Failed'],
      container: 'container2',
      requests: cpuRequests(4, '1.0'),
      levels: [
        [1000, 500],
        [9000, 700],
      ],
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 600,
  },
  {
    name: 'scale up: succeeded pods ignored (master: terminal pods ignored)',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Succeeded', 'Succeeded'],
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(500, 700),
    },
    options: { ignoreSucceededPods: true },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'scale up: succeeded pods ignored, released controller counts them as missing',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Succeeded', 'Succeeded'],
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 2,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'scale up: pods being deleted are ignored',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Running', 'Running'],
      podDeletionTimestamp: [false, false, true, true],
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'scale up: container metrics with pods being deleted ignored',
    fixture: {
      currentReplicas: 2,
      podReadiness: ['True', 'True', 'False', 'False'],
      podPhase: ['Running', 'Running', 'Running', 'Running'],
      podDeletionTimestamp: [false, false, true, true],
      container: 'container1',
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(500, 700),
    },
    targetUtilization: 30,
    expectedReplicas: 4,
    expectedUtilization: 60,
    expectedRawValue: 600,
  },
  {
    name: 'scale down',
    fixture: { currentReplicas: 5, requests: cpuRequests(5, '1.0'), levels: makePodMetricLevels(100, 300, 500, 250, 250) },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 28,
    expectedRawValue: 560,
  },
  {
    name: 'scale down: container metric',
    fixture: {
      currentReplicas: 5,
      container: 'container2',
      requests: cpuRequests(5, '1.0'),
      levels: [
        [1000, 100],
        [1000, 300],
        [1000, 500],
        [1000, 250],
        [1000, 250],
      ],
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 28,
    expectedRawValue: 280,
  },
  {
    name: 'scale down: exclude unready pods',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'True', 'True', 'False', 'False'],
      requests: cpuRequests(5, '1.0'),
      levels: makePodMetricLevels(100, 300, 500, 250, 250),
    },
    targetUtilization: 50,
    expectedReplicas: 2,
    expectedUtilization: 30,
    expectedRawValue: 600,
  },
  {
    name: 'scale down: container metric excludes unready pods',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'True', 'True', 'False', 'False'],
      container: 'container2',
      requests: cpuRequests(5, '1.0'),
      levels: [
        [1000, 100],
        [1000, 300],
        [1000, 500],
        [1000, 250],
        [1000, 250],
      ],
    },
    targetUtilization: 50,
    expectedReplicas: 2,
    expectedUtilization: 30,
    expectedRawValue: 300,
  },
  {
    name: 'scale down: exclude unscheduled pods',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'False', 'False', 'False', 'False'],
      podPhase: ['Running', 'Pending', 'Pending', 'Pending', 'Pending'],
      requests: cpuRequests(5, '1.0'),
      levels: makePodMetricLevels(100),
    },
    targetUtilization: 50,
    expectedReplicas: 1,
    expectedUtilization: 10,
    expectedRawValue: 200,
  },
  {
    name: 'scale down: container metric excludes unscheduled pods',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'False', 'False', 'False', 'False'],
      podPhase: ['Running', 'Pending', 'Pending', 'Pending', 'Pending'],
      container: 'container2',
      requests: cpuRequests(5, '1.0'),
      levels: [
        [1000, 100],
        [1000, 300],
        [1000, 500],
        [1000, 250],
        [1000, 250],
      ],
    },
    targetUtilization: 50,
    expectedReplicas: 1,
    expectedUtilization: 10,
    expectedRawValue: 100,
  },
  {
    name: 'scale down: ignore hot-CPU pods',
    fixture: {
      currentReplicas: 5,
      podStartTime: [time3MinsAgo, time3MinsAgo, time3MinsAgo, timeNow, timeNow],
      requests: cpuRequests(5, '1.0'),
      levels: makePodMetricLevels(100, 300, 500, 250, 250),
    },
    targetUtilization: 50,
    expectedReplicas: 2,
    expectedUtilization: 30,
    expectedRawValue: 600,
  },
  {
    name: 'scale down: container metric ignores hot-CPU pods',
    fixture: {
      currentReplicas: 5,
      podStartTime: [time3MinsAgo, time3MinsAgo, time3MinsAgo, timeNow, timeNow],
      container: 'container2',
      requests: cpuRequests(5, '1.0'),
      levels: [
        [1000, 100],
        [1000, 300],
        [1000, 500],
        [1000, 1000],
        [1000, 1000],
      ],
    },
    targetUtilization: 50,
    expectedReplicas: 2,
    expectedUtilization: 30,
    expectedRawValue: 300,
  },
  ...(['Failed', 'Succeeded'] as const).flatMap((phase): ResourceCase[] => [
    {
      name: `scale down: ${phase.toLowerCase()} pods ignored`,
      fixture: {
        currentReplicas: 5,
        podReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
        podPhase: ['Running', 'Running', 'Running', 'Running', 'Running', phase, phase],
        requests: cpuRequests(7, '1.0'),
        levels: makePodMetricLevels(100, 300, 500, 250, 250),
      },
      options: { ignoreSucceededPods: phase === 'Succeeded' },
      targetUtilization: 50,
      expectedReplicas: 3,
      expectedUtilization: 28,
      expectedRawValue: 560,
    },
    {
      name: `scale down: container metric with ${phase.toLowerCase()} pods ignored`,
      fixture: {
        currentReplicas: 5,
        podReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
        podPhase: ['Running', 'Running', 'Running', 'Running', 'Running', phase, phase],
        container: 'container2',
        requests: cpuRequests(7, '1.0'),
        levels: [
          [1000, 100],
          [1000, 300],
          [1000, 500],
          [1000, 250],
          [1000, 250],
        ],
      },
      options: { ignoreSucceededPods: phase === 'Succeeded' },
      targetUtilization: 50,
      expectedReplicas: 3,
      expectedUtilization: 28,
      expectedRawValue: 280,
    },
  ]),
  {
    name: 'scale down: pods being deleted are ignored',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
      podPhase: Array.from({ length: 7 }, () => 'Running'),
      podDeletionTimestamp: [false, false, false, false, false, true, true],
      requests: cpuRequests(7, '1.0'),
      levels: makePodMetricLevels(100, 300, 500, 250, 250),
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 28,
    expectedRawValue: 560,
  },
  {
    name: 'scale down: still-running pods being deleted are ignored',
    fixture: {
      currentReplicas: 5,
      podReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
      podPhase: Array.from({ length: 7 }, () => 'Running'),
      podDeletionTimestamp: [false, false, false, false, false, true, true],
      container: 'container2',
      requests: cpuRequests(7, '1.0'),
      levels: [
        [1000, 100],
        [1000, 300],
        [1000, 500],
        [1000, 250],
        [1000, 250],
      ],
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 28,
    expectedRawValue: 280,
  },
];

const mixedRequests = ['0.9', '1.0', '1.1'];
const RESOURCE_TOLERANCE: ResourceCase[] = [
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(1010, 1030, 1020) },
    targetUtilization: 100,
    expectedReplicas: 3,
    expectedUtilization: 102,
    expectedRawValue: 2040,
  },
  {
    name: 'outside 0% tolerance',
    tolerances: { scaleDown: 0, scaleUp: 0, rule: 'interval' },
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(909, 1010, 1111) },
    targetUtilization: 100,
    expectedReplicas: 4,
    expectedUtilization: 101,
    expectedRawValue: 2020,
  },
  {
    name: 'within 200% scale-up tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 2, rule: 'interval' },
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(1890, 1910, 1900) },
    targetUtilization: 100,
    expectedReplicas: 3,
    expectedUtilization: 190,
    expectedRawValue: 3800,
  },
  {
    name: 'outside 8% scale-up tolerance (superfluous scale-down tolerance)',
    tolerances: { scaleDown: 2, scaleUp: 0.08, rule: 'interval' },
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(1100, 1080, 1090) },
    targetUtilization: 100,
    expectedReplicas: 4,
    expectedUtilization: 109,
    expectedRawValue: 2180,
  },
  {
    name: 'within 36% scale-down tolerance',
    tolerances: { scaleDown: 0.36, scaleUp: 0.1, rule: 'interval' },
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(660, 640, 650) },
    targetUtilization: 100,
    expectedReplicas: 3,
    expectedUtilization: 65,
    expectedRawValue: 1300,
  },
  {
    name: 'outside 34% scale-down tolerance',
    tolerances: { scaleDown: 0.34, scaleUp: 0.1, rule: 'interval' },
    fixture: { currentReplicas: 3, requests: mixedRequests, levels: makePodMetricLevels(660, 640, 650) },
    targetUtilization: 100,
    expectedReplicas: 2,
    expectedUtilization: 65,
    expectedRawValue: 1300,
  },
];

const RESOURCE_MISSING: ResourceCase[] = [
  {
    name: 'superfluous metrics counted',
    fixture: { currentReplicas: 4, requests: cpuRequests(4, '1.0'), levels: makePodMetricLevels(4000, 9500, 3000, 7000, 3200, 2000) },
    targetUtilization: 100,
    expectedReplicas: 24,
    expectedUtilization: 587,
    expectedRawValue: 11750,
  },
  {
    name: 'some pods missing metrics scales down',
    fixture: { currentReplicas: 4, requests: cpuRequests(4, '1.0'), levels: makePodMetricLevels(400, 95) },
    targetUtilization: 100,
    expectedReplicas: 3,
    expectedUtilization: 24,
    expectedRawValue: 495,
  },
  {
    name: 'no change: metric equal to target',
    fixture: { currentReplicas: 2, requests: cpuRequests(2, '1.0'), levels: makePodMetricLevels(1000) },
    targetUtilization: 100,
    expectedReplicas: 2,
    expectedUtilization: 100,
    expectedRawValue: 2000,
  },
  {
    name: 'no change: metric above target',
    fixture: { currentReplicas: 2, requests: cpuRequests(2, '1.0'), levels: makePodMetricLevels(1900) },
    targetUtilization: 100,
    expectedReplicas: 2,
    expectedUtilization: 190,
    expectedRawValue: 3800,
  },
  {
    name: 'no change: metric below target',
    fixture: { currentReplicas: 2, requests: cpuRequests(2, '1.0'), levels: makePodMetricLevels(600) },
    targetUtilization: 100,
    expectedReplicas: 2,
    expectedUtilization: 60,
    expectedRawValue: 1200,
  },
  {
    name: 'no change: unready pod metric missing',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['False', 'True', 'True'],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(100, 450),
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 45,
    expectedRawValue: 900,
  },
  {
    name: 'no change: hot-CPU pod metric missing',
    fixture: {
      currentReplicas: 3,
      podStartTime: [timeNow, time3MinsAgo, time3MinsAgo],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(100, 450),
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 45,
    expectedRawValue: 900,
  },
  {
    name: 'scale up: unready pod metric missing',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['False', 'True', 'True'],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(100, 2000),
    },
    targetUtilization: 50,
    expectedReplicas: 4,
    expectedUtilization: 200,
    expectedRawValue: 4000,
  },
  {
    name: 'scale up: hot-CPU pod metric missing',
    fixture: {
      currentReplicas: 3,
      podReadiness: ['False', 'True', 'True'],
      podStartTime: [timeNow, time3MinsAgo, time3MinsAgo],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(100, 2000),
    },
    targetUtilization: 50,
    expectedReplicas: 4,
    expectedUtilization: 200,
    expectedRawValue: 4000,
  },
  {
    name: 'scale down: unready pod metric missing',
    fixture: {
      currentReplicas: 4,
      podReadiness: ['False', 'True', 'True', 'True'],
      requests: cpuRequests(4, '1.0'),
      levels: makePodMetricLevels(100, 100, 100),
    },
    targetUtilization: 50,
    expectedReplicas: 3,
    expectedUtilization: 10,
    expectedRawValue: 200,
  },
  {
    name: 'scale down: target over 100',
    fixture: {
      currentReplicas: 4,
      podReadiness: ['False', 'True', 'True', 'True'],
      requests: ['1.0', '1.0', '2.0', '2.0'],
      levels: makePodMetricLevels(200, 100, 100),
    },
    targetUtilization: 300,
    expectedReplicas: 2,
    expectedUtilization: 6,
    expectedRawValue: 200,
  },
  {
    name: 'rolling update with maxSurge: extra pod missing metric',
    fixture: {
      currentReplicas: 2,
      podPhase: ['Running', 'Running', 'Running'],
      requests: cpuRequests(3, '1.0'),
      levels: makePodMetricLevels(100, 100),
    },
    targetUtilization: 50,
    expectedReplicas: 2,
    expectedUtilization: 10,
    expectedRawValue: 200,
  },
  {
    name: 'disjoint pod and metric names',
    fixture: { currentReplicas: 1, requests: cpuRequests(1, '1.0'), levels: makePodMetricLevels(100), podNames: ['an-older-pod-name'] },
    targetUtilization: 100,
    expectedError: 'no metrics returned matched known pods',
  },
  {
    name: 'no metrics returned from metrics API',
    fixture: { currentReplicas: 4, requests: cpuRequests(3, '1.0'), levels: makePodMetricLevels() },
    targetUtilization: 100,
    expectedError: 'unable to get metrics for resource cpu: no metrics returned from resource metrics API',
  },
  {
    name: 'missing CPU request on container',
    fixture: { currentReplicas: 1, requests: [], levels: makePodMetricLevels(200) },
    targetUtilization: 100,
    expectedError: 'missing request for',
  },
];

describe('GetResourceReplicas — TestReplicaCalcResourceScale', () => {
  it.each(RESOURCE_SCALE.map((c) => [c.name, c]))('TestReplicaCalcResourceScale/%s', (_n, c) => checkResource(c));
});

describe('GetResourceReplicas — TestReplicaCalcResourceTolerance', () => {
  it.each(RESOURCE_TOLERANCE.map((c) => [c.name, c]))('TestReplicaCalcResourceTolerance/%s', (_n, c) => checkResource(c));
});

describe('GetResourceReplicas — TestReplicaCalcResourceMissingMetrics', () => {
  it.each(RESOURCE_MISSING.map((c) => [c.name, c]))('TestReplicaCalcResourceMissingMetrics/%s', (_n, c) => checkResource(c));

  it('TestReplicaCalcResourceMissingMetrics/scale down: target over 100, older controllers fill missing pods at 100%', () => {
    const c = RESOURCE_MISSING.find((x) => x.name === 'scale down: target over 100') as ResourceCase;
    // the missing pod counted at 100% of its 4000m request: (400m + 4000m) / 10000m = 44% → ratio 0.15 × 3 samples → 1,
    // a deeper cut than the 2 of max(100%, target); why upstream moved to max(100, target)
    expect(runResource({ ...c, options: { missingPodsOnScaleDown: 'request' } })).toEqual({ replicas: 1, utilization: 6, raw: 200n });
  });
});

describe('GetResourceReplicas — TestReplicaCalcComputedToleranceAlgImplementation', () => {
  const startPods = 10;
  const totalUsed = startPods * 150;
  const totalRequested = 2 * totalUsed;
  const requestedToUsed = Math.trunc(totalRequested / totalUsed);
  const perPodRequested = totalRequested / startPods;
  const requests = [100, -100, 10, -10, 2, -2, 1, -1, 0, 0].map((d) => `${perPodRequested + d}m`);
  const levels = makePodMetricLevels(...Array.from({ length: 10 }, () => totalUsed / 10));
  const expectedUtilization = Math.trunc((totalUsed * 100) / totalRequested);

  it('TestReplicaCalcComputedToleranceAlgImplementation/scales down just outside the tolerance', () => {
    const target = Math.abs(1 / (requestedToUsed * (1 - 0.1))) + 0.01;
    const finalCPUPercentTarget = Math.trunc(target * 100);
    const finalPods = Math.ceil((totalUsed / (totalRequested * target)) * startPods);
    const r = runResource({
      name: '',
      fixture: { currentReplicas: startPods, requests, levels },
      targetUtilization: finalCPUPercentTarget,
    });
    expect(r).toEqual({ replicas: finalPods, utilization: expectedUtilization, raw: BigInt(2 * (totalUsed / 10)) });
    expect(finalPods).toBe(9);
  });

  it('TestReplicaCalcComputedToleranceAlgImplementation/does not scale just inside the tolerance', () => {
    const target = Math.abs(1 / (requestedToUsed * (1 - 0.1))) + 0.004;
    const r = runResource({
      name: '',
      fixture: { currentReplicas: startPods, requests, levels },
      targetUtilization: Math.trunc(target * 100),
    });
    expect(r).toEqual({ replicas: startPods, utilization: expectedUtilization, raw: BigInt(2 * (totalUsed / 10)) });
  });
});

interface MetricCase {
  name: string;
  fixture: CalcScenario;
  levels: (number | bigint)[];
  targetUsage: number | bigint;
  expectedReplicas: number;
  expectedUsage: number | bigint;
  tolerances?: Tolerances;
}

function podsMetrics(levels: readonly (number | bigint)[]): PodMetricsInfo {
  return new Map(levels.map((l, i) => [`test-pod-${i}`, { value: BigInt(l), timestampMs: Date.parse(ZERO), windowMs: 60_000 }]));
}

const POD_METRIC: MetricCase[] = [
  {
    name: 'scale up',
    fixture: { currentReplicas: 3 },
    levels: [20000, 10000, 30000],
    targetUsage: 15000,
    expectedReplicas: 4,
    expectedUsage: 20000,
  },
  {
    name: 'scale up: unready hot-CPU pod scales less',
    fixture: { currentReplicas: 3, podReadiness: ['True', 'True', 'False'], podStartTime: [time3MinsAgo, time3MinsAgo, timeNow] },
    levels: [50000, 10000, 30000],
    targetUsage: 15000,
    expectedReplicas: 6,
    expectedUsage: 30000,
  },
  {
    name: 'scale up: unready hot-CPU pods avoid scale-down',
    fixture: { currentReplicas: 3, podReadiness: ['False', 'True', 'False'], podStartTime: [timeNow, time3MinsAgo, timeNow] },
    levels: [50000, 15000, 30000],
    targetUsage: 15000,
    expectedReplicas: 7,
    expectedUsage: 31666,
  },
  {
    name: 'scale down',
    fixture: { currentReplicas: 5 },
    levels: [12000, 12000, 12000, 12000, 12000],
    targetUsage: 20000,
    expectedReplicas: 3,
    expectedUsage: 12000,
  },
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 3 },
    levels: [20000, 21000, 21000],
    targetUsage: 20000,
    expectedReplicas: 3,
    expectedUsage: 20666,
  },
  {
    name: 'outside configurable 1% tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 0.01, rule: 'interval' },
    fixture: { currentReplicas: 3 },
    levels: [20000, 21000, 21000],
    targetUsage: 20000,
    expectedReplicas: 4,
    expectedUsage: 20666,
  },
  {
    name: 'no change: missing metrics',
    fixture: { currentReplicas: 5 },
    levels: [20000, 19000, 21000],
    targetUsage: 20000,
    expectedReplicas: 5,
    expectedUsage: 20000,
  },
  {
    name: 'rolling update with maxSurge: extra pod missing metric',
    fixture: { currentReplicas: 2, podPhase: ['Running', 'Running', 'Running'] },
    levels: [10000, 10000],
    targetUsage: 17000,
    expectedReplicas: 2,
    expectedUsage: 10000,
  },
];

describe('GetMetricReplicas — TestReplicaCalcPodMetric', () => {
  it.each(POD_METRIC.map((c) => [c.name, c]))('TestReplicaCalcPodMetric/%s', (_n, c) => {
    const r = calcPlainMetricReplicas(
      podsMetrics(c.levels),
      c.fixture.currentReplicas,
      BigInt(c.targetUsage),
      c.tolerances ?? DEFAULT_TOLERANCES,
      buildPods(c.fixture),
      '',
      OPTIONS,
    );
    expect({ replicas: r.replicas, usage: r.usage }).toEqual({ replicas: c.expectedReplicas, usage: BigInt(c.expectedUsage) });
  });
});

const OBJECT_METRIC: MetricCase[] = [
  { name: 'scale up', fixture: { currentReplicas: 3 }, levels: [20000], targetUsage: 15000, expectedReplicas: 4, expectedUsage: 20000 },
  {
    name: 'scale up: very large metric saturates replicas to MaxInt32',
    fixture: { currentReplicas: 3 },
    levels: [INT64_MAX],
    targetUsage: 1,
    expectedReplicas: INT32_MAX,
    expectedUsage: INT64_MAX,
  },
  {
    name: 'scale up: ignores unready pods',
    fixture: { currentReplicas: 3, podReadiness: ['False', 'True', 'False'] },
    levels: [50000],
    targetUsage: 10000,
    expectedReplicas: 5,
    expectedUsage: 50000,
  },
  { name: 'scale down', fixture: { currentReplicas: 5 }, levels: [12000], targetUsage: 20000, expectedReplicas: 3, expectedUsage: 12000 },
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 3 },
    levels: [20666],
    targetUsage: 20000,
    expectedReplicas: 3,
    expectedUsage: 20666,
  },
  {
    name: 'outside configurable 1% tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 0.01, rule: 'interval' },
    fixture: { currentReplicas: 3 },
    levels: [20666],
    targetUsage: 20000,
    expectedReplicas: 4,
    expectedUsage: 20666,
  },
];

describe('GetObjectMetricReplicas — TestReplicaCalcObjectMetric', () => {
  it.each(OBJECT_METRIC.map((c) => [c.name, c]))('TestReplicaCalcObjectMetric/%s', (_n, c) => {
    const r = getObjectMetricReplicas(
      c.fixture.currentReplicas,
      BigInt(c.targetUsage),
      BigInt(c.levels[0] ?? 0),
      c.tolerances ?? DEFAULT_TOLERANCES,
      buildPods(c.fixture),
    );
    expect({ replicas: r.replicas, usage: r.usage }).toEqual({ replicas: c.expectedReplicas, usage: BigInt(c.expectedUsage) });
  });
});

const OBJECT_PER_POD: MetricCase[] = [
  {
    name: 'usage overflow with huge target leaves replicas unchanged',
    fixture: { currentReplicas: 1 },
    levels: [INT64_MAX],
    targetUsage: INT64_MAX,
    expectedReplicas: 1,
    expectedUsage: INT64_MAX,
  },
  { name: 'scale up', fixture: { currentReplicas: 3 }, levels: [20000], targetUsage: 5000, expectedReplicas: 4, expectedUsage: 6667 },
  { name: 'scale down', fixture: { currentReplicas: 5 }, levels: [6000], targetUsage: 2000, expectedReplicas: 3, expectedUsage: 1200 },
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 4 },
    levels: [20166],
    targetUsage: 5000,
    expectedReplicas: 4,
    expectedUsage: 5042,
  },
  {
    name: 'outside configurable 1% tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 0.01, rule: 'interval' },
    fixture: { currentReplicas: 4 },
    levels: [20208],
    targetUsage: 5000,
    expectedReplicas: 5,
    expectedUsage: 5052,
  },
  {
    name: 'statusReplicas zero does not overflow usage',
    fixture: { currentReplicas: 0 },
    levels: [20000],
    targetUsage: 5000,
    expectedReplicas: 4,
    expectedUsage: 0,
  },
  {
    name: 'statusReplicas zero and metric zero does not underflow',
    fixture: { currentReplicas: 0 },
    levels: [0],
    targetUsage: 5000,
    expectedReplicas: 0,
    expectedUsage: 0,
  },
];

describe('GetObjectPerPodMetricReplicas — TestReplicaCalcObjectPerPodMetric', () => {
  it.each(OBJECT_PER_POD.map((c) => [c.name, c]))('TestReplicaCalcObjectPerPodMetric/%s', (_n, c) => {
    const r = getObjectPerPodMetricReplicas(
      c.fixture.currentReplicas,
      BigInt(c.targetUsage),
      BigInt(c.levels[0] ?? 0),
      c.tolerances ?? DEFAULT_TOLERANCES,
    );
    expect({ replicas: r.replicas, usage: r.usage }).toEqual({ replicas: c.expectedReplicas, usage: BigInt(c.expectedUsage) });
  });
});

const EXTERNAL: MetricCase[] = [
  {
    name: 'scale down: ignores unready pods (would otherwise scale up)',
    fixture: { currentReplicas: 3, podReadiness: ['False', 'True', 'False'] },
    levels: [8600],
    targetUsage: 4400,
    expectedReplicas: 2,
    expectedUsage: 8600,
  },
  { name: 'scale down', fixture: { currentReplicas: 5 }, levels: [8600], targetUsage: 14334, expectedReplicas: 3, expectedUsage: 8600 },
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 3 },
    levels: [8600],
    targetUsage: 8888,
    expectedReplicas: 3,
    expectedUsage: 8600,
  },
  {
    name: 'outside configurable 1% tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 0.01, rule: 'interval' },
    fixture: { currentReplicas: 3 },
    levels: [8900],
    targetUsage: 8800,
    expectedReplicas: 4,
    expectedUsage: 8900,
  },
  {
    name: 'usage overflow caps at MaxInt64',
    fixture: { currentReplicas: 3 },
    levels: [INT64_MAX / 2n + 1n, INT64_MAX / 2n + 1n],
    targetUsage: INT64_MAX,
    expectedReplicas: 3,
    expectedUsage: INT64_MAX,
  },
];

describe('GetExternalMetricReplicas — TestReplicaCalcExternalMetric', () => {
  it.each(EXTERNAL.map((c) => [c.name, c]))('TestReplicaCalcExternalMetric/%s', (_n, c) => {
    const r = getExternalMetricReplicas(
      c.fixture.currentReplicas,
      BigInt(c.targetUsage),
      c.levels.map(BigInt),
      c.tolerances ?? DEFAULT_TOLERANCES,
      buildPods(c.fixture),
    );
    expect({ replicas: r.replicas, usage: r.usage }).toEqual({ replicas: c.expectedReplicas, usage: BigInt(c.expectedUsage) });
  });
});

const EXTERNAL_PER_POD: MetricCase[] = [
  {
    name: 'replica count overflow saturates to MaxInt32',
    fixture: { currentReplicas: 1 },
    levels: [INT64_MAX],
    targetUsage: 1,
    expectedReplicas: INT32_MAX,
    expectedUsage: INT64_MAX,
  },
  {
    name: 'usage overflow with huge target leaves replicas unchanged',
    fixture: { currentReplicas: 1 },
    levels: [INT64_MAX],
    targetUsage: INT64_MAX,
    expectedReplicas: 1,
    expectedUsage: INT64_MAX,
  },
  {
    name: 'statusReplicas zero does not overflow usage',
    fixture: { currentReplicas: 0 },
    levels: [20000],
    targetUsage: 5000,
    expectedReplicas: 4,
    expectedUsage: 0,
  },
  {
    name: 'statusReplicas zero and metric zero does not underflow',
    fixture: { currentReplicas: 0 },
    levels: [0],
    targetUsage: 5000,
    expectedReplicas: 0,
    expectedUsage: 0,
  },
  { name: 'scale up', fixture: { currentReplicas: 3 }, levels: [8600], targetUsage: 2150, expectedReplicas: 4, expectedUsage: 2867 },
  { name: 'scale down', fixture: { currentReplicas: 5 }, levels: [8600], targetUsage: 2867, expectedReplicas: 3, expectedUsage: 1720 },
  {
    name: 'within default tolerance',
    fixture: { currentReplicas: 3 },
    levels: [8600],
    targetUsage: 2900,
    expectedReplicas: 3,
    expectedUsage: 2867,
  },
  {
    name: 'outside configurable 1% tolerance',
    tolerances: { scaleDown: 0.1, scaleUp: 0.01, rule: 'interval' },
    fixture: { currentReplicas: 3 },
    levels: [8600],
    targetUsage: 2800,
    expectedReplicas: 4,
    expectedUsage: 2867,
  },
];

describe('GetExternalPerPodMetricReplicas — TestReplicaCalcExternalPerPodMetric', () => {
  it.each(EXTERNAL_PER_POD.map((c) => [c.name, c]))('TestReplicaCalcExternalPerPodMetric/%s', (_n, c) => {
    const r = getExternalPerPodMetricReplicas(
      c.fixture.currentReplicas,
      BigInt(c.targetUsage),
      c.levels.map(BigInt),
      c.tolerances ?? DEFAULT_TOLERANCES,
    );
    expect({ replicas: r.replicas, usage: r.usage }).toEqual({ replicas: c.expectedReplicas, usage: BigInt(c.expectedUsage) });
  });
});

describe('groupPods — TestGroupPods', () => {
  const at = (offsetSeconds: number): string => new Date(NOW_MS + offsetSeconds * 1000).toISOString();
  const metric = (value: number, timestamp?: string, windowSeconds?: number) => ({
    value: BigInt(value),
    timestampMs: Date.parse(timestamp ?? ZERO),
    windowMs: (windowSeconds ?? 0) * 1000,
  });
  const pod = (name: string, status: Pod['status'], deletionTimestamp?: string): Pod => ({
    metadata: { name, ...(deletionTimestamp ? { deletionTimestamp } : {}) },
    status,
  });
  const cases: {
    name: string;
    pods: Pod[];
    metrics: [string, ReturnType<typeof metric>][];
    resource: string;
    ready: number;
    unready: string[];
    missing: string[];
    ignored: string[];
    options?: Partial<CalculatorOptions>;
  }[] = [
    { name: 'void', pods: [], metrics: [], resource: 'cpu', ready: 0, unready: [], missing: [], ignored: [] },
    {
      name: 'count in a ready pod - memory',
      pods: [pod('bentham', { phase: 'Running' })],
      metrics: [['bentham', metric(1, NOW, 60)]],
      resource: 'memory',
      ready: 1,
      unready: [],
      missing: [],
      ignored: [],
    },
    {
      name: 'unready a pod without ready condition - CPU',
      pods: [pod('lucretius', { phase: 'Running', startTime: NOW })],
      metrics: [['lucretius', metric(1)]],
      resource: 'cpu',
      ready: 0,
      unready: ['lucretius'],
      missing: [],
      ignored: [],
    },
    {
      name: 'count in a ready pod with fresh metrics during initialization period - CPU',
      pods: [
        pod('bentham', {
          phase: 'Running',
          startTime: at(-60),
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(-30) }],
        }),
      ],
      metrics: [['bentham', metric(1, NOW, 30)]],
      resource: 'cpu',
      ready: 1,
      unready: [],
      missing: [],
      ignored: [],
    },
    {
      name: 'unready a ready pod without fresh metrics during initialization period - CPU',
      pods: [
        pod('bentham', {
          phase: 'Running',
          startTime: at(-60),
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(-30) }],
        }),
      ],
      metrics: [['bentham', metric(1, NOW, 60)]],
      resource: 'cpu',
      ready: 0,
      unready: ['bentham'],
      missing: [],
      ignored: [],
    },
    {
      name: 'unready an unready pod during initialization period - CPU',
      pods: [
        pod('lucretius', {
          phase: 'Running',
          startTime: at(-600),
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(-594) }],
        }),
      ],
      metrics: [['lucretius', metric(1)]],
      resource: 'cpu',
      ready: 0,
      unready: ['lucretius'],
      missing: [],
      ignored: [],
    },
    {
      name: 'count in a ready pod without fresh metrics after initialization period - CPU',
      pods: [
        pod('bentham', {
          phase: 'Running',
          startTime: at(-180),
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(-180) }],
        }),
      ],
      metrics: [['bentham', metric(1, at(-120), 60)]],
      resource: 'cpu',
      ready: 1,
      unready: [],
      missing: [],
      ignored: [],
    },
    {
      name: 'count in an unready pod that was ready after initialization period - CPU',
      pods: [
        pod('lucretius', {
          phase: 'Running',
          startTime: at(-600),
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(-540) }],
        }),
      ],
      metrics: [['lucretius', metric(1)]],
      resource: 'cpu',
      ready: 1,
      unready: [],
      missing: [],
      ignored: [],
    },
    {
      name: 'unready pod that has never been ready after initialization period - CPU',
      pods: [
        pod('lucretius', {
          phase: 'Running',
          startTime: at(-600),
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(-590) }],
        }),
      ],
      metrics: [['lucretius', metric(1)]],
      resource: 'cpu',
      ready: 1,
      unready: [],
      missing: [],
      ignored: [],
    },
    {
      name: 'a missing pod',
      pods: [pod('epicurus', { phase: 'Running', startTime: at(-180) })],
      metrics: [],
      resource: 'cpu',
      ready: 0,
      unready: [],
      missing: ['epicurus'],
      ignored: [],
    },
    {
      name: 'several pods',
      pods: [
        pod('lucretius', { phase: 'Running', startTime: NOW }),
        pod('niccolo', {
          phase: 'Running',
          startTime: at(-180),
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(-180) }],
        }),
        pod('epicurus', { phase: 'Running', startTime: at(-180) }),
      ],
      metrics: [
        ['lucretius', metric(1)],
        ['niccolo', metric(1)],
      ],
      resource: 'cpu',
      ready: 1,
      unready: ['lucretius'],
      missing: ['epicurus'],
      ignored: [],
    },
    {
      name: 'pending pods are unreadied',
      pods: [pod('unscheduled', { phase: 'Pending' })],
      metrics: [],
      resource: 'cpu',
      ready: 0,
      unready: ['unscheduled'],
      missing: [],
      ignored: [],
    },
    {
      name: 'ignore pods with deletion timestamps',
      pods: [pod('deleted', { phase: 'Pending' }, '1970-01-01T00:00:01Z')],
      metrics: [['deleted', metric(1)]],
      resource: 'cpu',
      ready: 0,
      unready: [],
      missing: [],
      ignored: ['deleted'],
    },
    {
      name: 'ignore pods in a failed state',
      pods: [pod('failed', { phase: 'Failed' })],
      metrics: [['failed', metric(1)]],
      resource: 'cpu',
      ready: 0,
      unready: [],
      missing: [],
      ignored: ['failed'],
    },
    {
      name: 'ignore pods in a succeeded state (master)',
      pods: [pod('succeeded', { phase: 'Succeeded' })],
      metrics: [['succeeded', metric(1)]],
      resource: 'cpu',
      ready: 0,
      unready: [],
      missing: [],
      ignored: ['succeeded'],
      options: { ignoreSucceededPods: true },
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('TestGroupPods/%s', (_n, c) => {
    const g = groupPods(c.pods, new Map(c.metrics), c.resource, { ...OPTIONS, ...c.options });
    expect({ ready: g.readyPodCount, unready: [...g.unreadyPods], missing: [...g.missingPods], ignored: [...g.ignoredPods] }).toEqual({
      ready: c.ready,
      unready: c.unready,
      missing: c.missing,
      ignored: c.ignored,
    });
  });
});

describe('calculateRequests — TestCalculateRequests', () => {
  const testPod = 'test-pod';
  const withContainers = (
    containers: { name: string; cpu?: string; restartPolicy?: string }[],
    podLevel?: string,
    init: typeof containers = [],
  ): Pod => ({
    metadata: { name: testPod, namespace: 'test-namespace' },
    spec: {
      ...(podLevel ? { resources: { requests: { cpu: podLevel } } } : {}),
      containers: containers.map((c) => ({ name: c.name, ...(c.cpu ? { resources: { requests: { cpu: c.cpu } } } : {}) })),
      initContainers: init.map((c) => ({ name: c.name, restartPolicy: c.restartPolicy, resources: { requests: { cpu: c.cpu ?? '0' } } })),
    },
  });
  const cases: { name: string; pods: Pod[]; container: string; podLevel: boolean; expected?: Record<string, bigint>; error?: string }[] = [
    { name: 'void', pods: [], container: '', podLevel: false, expected: {} },
    {
      name: 'Sum container requests if pod-level feature is disabled',
      pods: [
        withContainers(
          [
            { name: 'container1', cpu: '100m' },
            { name: 'container2', cpu: '50m' },
          ],
          '800m',
        ),
      ],
      container: '',
      podLevel: false,
      expected: { [testPod]: 150n },
    },
    {
      name: 'Pod-level resources are enabled, but not set: fallback to sum container requests',
      pods: [
        withContainers([
          { name: 'container1', cpu: '100m' },
          { name: 'container2', cpu: '50m' },
        ]),
      ],
      container: '',
      podLevel: true,
      expected: { [testPod]: 150n },
    },
    {
      name: 'Pod-level resources override container requests when feature enabled and pod resources specified',
      pods: [
        withContainers(
          [
            { name: 'container1', cpu: '100m' },
            { name: 'container2', cpu: '50m' },
          ],
          '800m',
        ),
      ],
      container: '',
      podLevel: true,
      expected: { [testPod]: 800n },
    },
    {
      name: 'Fail if at least one of the containers is missing requests and pod-level feature/requests are not set',
      pods: [withContainers([{ name: 'container1' }, { name: 'container2', cpu: '50m' }])],
      container: '',
      podLevel: false,
      error: 'missing request for cpu in container container1 of Pod test-pod',
    },
    {
      name: 'Pod-level resources override missing container requests when feature enabled and pod resources specified',
      pods: [withContainers([{ name: 'container1' }, { name: 'container2', cpu: '50m' }], '800m')],
      container: '',
      podLevel: true,
      expected: { [testPod]: 800n },
    },
    {
      name: 'Container: if a container name is specified, calculate requests only for that container',
      pods: [
        withContainers([
          { name: 'container1', cpu: '100m' },
          { name: 'container2', cpu: '50m' },
        ]),
      ],
      container: 'container1',
      podLevel: false,
      expected: { [testPod]: 100n },
    },
    {
      name: 'Container: if a container name is specified, calculate requests only for that container and ignore pod-level requests',
      pods: [
        withContainers(
          [
            { name: 'container1', cpu: '100m' },
            { name: 'container2', cpu: '50m' },
          ],
          '800m',
        ),
      ],
      container: 'container1',
      podLevel: true,
      expected: { [testPod]: 100n },
    },
    {
      name: 'pod with restartable init containers',
      pods: [
        withContainers([{ name: 'container1', cpu: '100m' }], undefined, [
          { name: 'init-container1', cpu: '20m' },
          { name: 'restartable-container1', cpu: '50m', restartPolicy: 'Always' },
        ]),
      ],
      container: '',
      podLevel: false,
      expected: { [testPod]: 150n },
    },
    {
      name: 'NonExistentContainer (TestCalculatePodRequestsFromContainers_NonExistentContainer)',
      pods: [withContainers([{ name: 'container1', cpu: '100m' }])],
      container: 'non-existent-container',
      podLevel: false,
      error: 'container non-existent-container not found in Pod test-pod',
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('TestCalculateRequests/%s', (_n, c) => {
    if (c.error) {
      expect(() => calculateRequests(c.pods, c.container, 'cpu', c.podLevel)).toThrow(new CalcError(c.error));
      return;
    }
    expect(Object.fromEntries(calculateRequests(c.pods, c.container, 'cpu', c.podLevel))).toEqual(c.expected);
  });
});

describe('getPerPodUsage — TestGetPerPodUsage', () => {
  it.each([
    ['zero replicas returns zero', 20000n, 0, 0n],
    ['normal division with ceiling', 1000n, 3, 334n],
    ['overflow returns MaxInt64', INT64_MAX, 1, INT64_MAX],
  ] as const)('TestGetPerPodUsage/%s', (_n, usage, replicas, expected) => {
    expect(getPerPodUsage(usage, replicas)).toBe(expected);
  });
});
