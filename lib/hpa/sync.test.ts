import { describe, expect, it } from 'vitest';
import type { HpaControllerConfig, HpaSyncInput } from '@/lib/hpa/types';
import type { MetricSpec } from '@/lib/k8s/types';
import type { ConditionTriple, HorizontalScenario } from '@/lib/hpa/__fixtures__/upstream-harness';
import { simulateHpaSync, simulateHpaSyncs } from '@/lib/hpa';
import {
  COOL,
  HOT,
  NOW,
  UPSTREAM_TEST_CONFIG,
  ago,
  buildSyncInput,
  statusOkWith,
  triples,
  STATUS_OK,
} from '@/lib/hpa/__fixtures__/upstream-harness';

interface ReconcileCase {
  /** Upstream test function and case name (horizontal_test.go). */
  test: string;
  scenario: HorizontalScenario;
  expectedDesiredReplicas: number;
  /** Conditions compared by type/status/reason, in order; omitted where the upstream case does not check them. */
  expectedConditions?: ConditionTriple[];
  config?: Partial<HpaControllerConfig>;
  overrides?: Partial<HpaSyncInput>;
  /** Event reasons in order, where the case checks events. */
  expectedEvents?: string[];
}

const req = (n: number, value = '1.0'): string[] => Array.from({ length: n }, () => value);
const mixedRequests = ['0.9', '1.0', '1.1'];
const podsQps = (averageValue: string): MetricSpec => ({
  type: 'Pods',
  pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue } },
});
const objectQps = (target: MetricSpec['object'] extends infer O ? (O extends { target: infer T } ? T : never) : never): MetricSpec => ({
  type: 'Object',
  object: { describedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'some-deployment' }, metric: { name: 'qps' }, target },
});
const externalQps = (target: { type: string; value?: string; averageValue?: string }): MetricSpec => ({
  type: 'External',
  external: { metric: { name: 'qps', selector: {} }, target },
});
const scalingRules = (pods: number, podsPeriod: number, percent: number, percentPeriod: number, window: number) => ({
  stabilizationWindowSeconds: window,
  selectPolicy: 'Max',
  policies: [
    ...(pods ? [{ type: 'Pods', value: pods, periodSeconds: podsPeriod }] : []),
    ...(percent ? [{ type: 'Percent', value: percent, periodSeconds: percentPeriod }] : []),
  ],
});
const readyForNewScale = statusOkWith({ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' });
const getScaleOnly = (reason: string): ConditionTriple[] => [
  { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' },
  { type: 'ScalingActive', status: 'False', reason },
];

const perPodStart = [COOL, HOT, HOT];

const CASES: ReconcileCase[] = [
  // TestScaleContainerResource
  {
    test: 'TestScaleContainerResource/scale up container resource',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', container: 'container1', target: { type: 'Utilization', averageUtilization: 30 } },
        },
      ],
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 5,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleContainerResource/scale down container resource',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', container: 'container2', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  // TestScaleUpUnreadyOrHotCpuNoScale
  {
    test: 'TestScaleUpUnreadyOrHotCpuNoScale/unready pods excluded from scaling',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [400, 500, 700],
      reportedCPURequests: req(3),
      reportedPodReadiness: ['True', 'False', 'False'],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestScaleUpUnreadyOrHotCpuNoScale/hot CPU pods excluded from scaling',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [400, 500, 700],
      reportedCPURequests: req(3),
      reportedPodReadiness: ['True', 'False', 'False'],
      reportedPodStartTime: perPodStart,
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  // TestScaleUpCPU
  ...(
    [
      ['scale up', {}, 5],
      ['scale up with unready pods results in less scale', { reportedPodReadiness: ['False', 'True', 'True'] }, 4],
      ['scale up with hot cpu pods results in less scale', { reportedPodStartTime: [HOT, COOL, COOL] }, 4],
      ['scale up deployment', { resource: { name: 'test-dep', apiVersion: 'apps/v1', kind: 'Deployment' } }, 5],
      ['scale up replicaset', { resource: { name: 'test-replicaset', apiVersion: 'apps/v1', kind: 'ReplicaSet' } }, 5],
    ] as [string, Partial<HorizontalScenario>, number][]
  ).map(([name, extra, expected]): ReconcileCase => ({
    test: `TestScaleUpCPU/${name}`,
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
      ...extra,
    },
    expectedDesiredReplicas: expected,
    expectedConditions: [...STATUS_OK],
  })),
  {
    test: 'TestScaleUpCPU/scale up ignores failed pods',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 30,
      reportedLevels: [500, 700],
      reportedCPURequests: req(4),
      reportedPodReadiness: ['True', 'True', 'False', 'False'],
      reportedPodPhase: ['Running', 'Running', 'Failed', 'Failed'],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCPU/scale up ignores deletion pods',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 30,
      reportedLevels: [500, 700],
      reportedCPURequests: req(4),
      reportedPodReadiness: ['True', 'True', 'False', 'False'],
      reportedPodPhase: ['Running', 'Running', 'Running', 'Running'],
      reportedPodDeletionTimestamp: [false, false, true, true],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCPU/no scale up when all unready pods bring utilization within target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [400, 500, 700],
      reportedCPURequests: req(3),
      reportedPodReadiness: ['True', 'False', 'False'],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  // TestScaleDownCPU
  ...(
    [
      ['scale down', {}, 3],
      ['scale down includes unready pods', { reportedPodReadiness: ['True', 'True', 'True', 'False', 'False'] }, 2],
      ['scale down ignores hot cpu pods', { reportedPodStartTime: [COOL, COOL, COOL, HOT, HOT] }, 2],
      [
        'scale down ignores failed pods',
        {
          reportedCPURequests: req(7),
          reportedPodReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
          reportedPodPhase: ['Running', 'Running', 'Running', 'Running', 'Running', 'Failed', 'Failed'],
        },
        3,
      ],
      [
        'scale down ignores deletion pods',
        {
          reportedCPURequests: req(7),
          reportedPodReadiness: ['True', 'True', 'True', 'True', 'True', 'False', 'False'],
          reportedPodPhase: Array.from({ length: 7 }, () => 'Running'),
          reportedPodDeletionTimestamp: [false, false, false, false, false, true, true],
        },
        3,
      ],
    ] as [string, Partial<HorizontalScenario>, number][]
  ).map(([name, extra, expected]): ReconcileCase => ({
    test: `TestScaleDownCPU/${name}`,
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
      ...extra,
    },
    expectedDesiredReplicas: expected,
    expectedConditions: [...STATUS_OK],
  })),
  // TestScaleUpCM
  {
    test: 'TestScaleUpCM/scale up custom metric',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [20000, 10000, 30000],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCM/unready and hot cpu pods do not reduce scale for custom metric',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [50000, 10000, 30000],
      reportedPodReadiness: ['True', 'True', 'False'],
      reportedPodStartTime: [COOL, COOL, HOT],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 6,
  },
  {
    test: 'TestScaleUpCM/unready and hot cpu pods scale to max with scaling limited condition',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [50000, 15000, 30000],
      reportedPodReadiness: ['False', 'True', 'False'],
      reportedPodStartTime: [HOT, COOL, HOT],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 6,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
  },
  // TestScaleUpCMObject
  {
    test: 'TestScaleUpCMObject/scale up object metric with value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [objectQps({ type: 'Value', value: '15.0' })],
      reportedLevels: [20000],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCMObject/scale up per-pod object metric with average value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [objectQps({ type: 'AverageValue', averageValue: '10.0' })],
      reportedLevels: [40000],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    // released controllers compute metrics at 0 replicas when minReplicas is 0: Object/External scale from zero
    test: 'TestScaleUpCMObject/scale up from zero (released controller, minReplicas 0)',
    scenario: {
      minReplicas: 0,
      maxReplicas: 6,
      specReplicas: 0,
      statusReplicas: 0,
      metricsTarget: [objectQps({ type: 'Value', value: '15.0' })],
      reportedLevels: [20000],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCMObject/scale up from zero ignores tolerance (released controller, minReplicas 0)',
    scenario: {
      minReplicas: 0,
      maxReplicas: 6,
      specReplicas: 0,
      statusReplicas: 0,
      metricsTarget: [objectQps({ type: 'Value', value: '1.0' })],
      reportedLevels: [1000],
    },
    expectedDesiredReplicas: 1,
    expectedConditions: [...STATUS_OK],
  },
  // TestScaleUpCMExternal
  {
    test: 'TestScaleUpCMExternal/scale up external metric with value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [externalQps({ type: 'Value', value: '6666m' })],
      reportedLevels: [8600],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleUpCMExternal/scale up external metric with per-pod average value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [externalQps({ type: 'AverageValue', averageValue: '2222m' })],
      reportedLevels: [8600],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  // TestScaleUpOneMetricInvalid
  {
    test: 'TestScaleUpOneMetricInvalid',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      metricsTarget: [{ type: 'CheddarCheese' }],
      reportedLevels: [300, 400, 500],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
    expectedEvents: ['InvalidMetricSourceType', 'SuccessfulRescale'],
  },
  {
    // released controllers (before the HPAScaleToZero rework on master) compute metrics at 0 replicas when minReplicas is 0
    test: 'TestScaleUpFromZeroOneMetricInvalid (released controller)',
    scenario: {
      minReplicas: 0,
      maxReplicas: 6,
      specReplicas: 0,
      statusReplicas: 0,
      CPUTarget: 30,
      metricsTarget: [{ type: 'CheddarCheese' }],
      reportedLevels: [300, 400, 500],
      reportedCPURequests: req(3),
      recommendations: [],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  // TestScaleDownStabilizeInitialSize
  {
    test: 'TestScaleDownStabilizeInitialSize',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
    },
    expectedDesiredReplicas: 5,
    expectedConditions: statusOkWith({ type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized' }),
  },
  // TestScaleDownCM
  {
    test: 'TestScaleDownCM/scale down pods metric',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [podsQps('20.0')],
      reportedLevels: [12000, 12000, 12000, 12000, 12000],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down object metric with value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [objectQps({ type: 'Value', value: '20.0' })],
      reportedLevels: [12000],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down to zero object metric with feature gate disabled',
    scenario: {
      minReplicas: 0,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [objectQps({ type: 'Value', value: '20.0' })],
      reportedLevels: [0],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 0,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down per-pod object metric with average value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [objectQps({ type: 'AverageValue', averageValue: '20.0' })],
      reportedLevels: [60000],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down external metric with value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [externalQps({ type: 'Value', value: '14400m' })],
      reportedLevels: [8600],
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down to zero external metric with feature gate disabled',
    scenario: {
      minReplicas: 0,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [externalQps({ type: 'Value', value: '14400m' })],
      reportedLevels: [0],
      recommendations: [],
    },
    expectedDesiredReplicas: 0,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleDownCM/scale down per-pod external metric with average value target',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      metricsTarget: [externalQps({ type: 'AverageValue', averageValue: '3000m' })],
      reportedLevels: [8600],
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  // TestTolerance
  {
    test: 'TestTolerance/CPU resource metric within tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 100,
      reportedLevels: [1010, 1030, 1020],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestTolerance/pods metric within tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [podsQps('20.0')],
      reportedLevels: [20000, 20001, 21000],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestTolerance/object metric with value target within tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [objectQps({ type: 'Value', value: '20.0' })],
      reportedLevels: [20050],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestTolerance/external metric with value target within tolerance',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      metricsTarget: [externalQps({ type: 'Value', value: '8666m' })],
      reportedLevels: [8600],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestTolerance/per-pod object metric with average value target within tolerance',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      metricsTarget: [
        {
          type: 'Object',
          object: {
            describedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'some-deployment' },
            metric: { name: 'qps', selector: {} },
            target: { type: 'AverageValue', averageValue: '2200m' },
          },
        },
      ],
      reportedLevels: [8600],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestTolerance/per-pod external metric with average value target within tolerance',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      metricsTarget: [externalQps({ type: 'AverageValue', averageValue: '2200m' })],
      reportedLevels: [8600],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: readyForNewScale,
  },
  // TestConfigurableTolerance
  {
    test: 'TestConfigurableTolerance/Scaling up because of a 1% configurable tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      scaleUpRules: { tolerance: '0.01' },
      CPUTarget: 100,
      reportedLevels: [1010, 1030, 1020],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestConfigurableTolerance/No scale-down because of a 90% configurable tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      scaleDownRules: { tolerance: '0.9' },
      CPUTarget: 100,
      reportedLevels: [300, 300, 300],
      reportedCPURequests: req(3),
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestConfigurableTolerance/No scaling because of the large default tolerance',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 100,
      reportedLevels: [1010, 1030, 1020],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  {
    test: 'TestConfigurableTolerance/No scaling because the configurable tolerance is ignored as the feature gate is disabled',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      scaleUpRules: { tolerance: '0.01' },
      CPUTarget: 100,
      reportedLevels: [1010, 1030, 1020],
      reportedCPURequests: mixedRequests,
    },
    config: { configurableTolerance: false },
    expectedDesiredReplicas: 3,
    expectedConditions: readyForNewScale,
  },
  // TestReplicaLimits
  {
    test: 'TestReplicaLimits/scale down clamped to min replicas',
    scenario: {
      minReplicas: 2,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 90,
      reportedLevels: [10, 95, 10],
      reportedCPURequests: mixedRequests,
      recommendations: [],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas' }),
  },
  {
    test: 'TestReplicaLimits/scale down to zero when min replicas is zero',
    scenario: {
      minReplicas: 0,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 90,
      reportedLevels: [0, 0, 0],
      reportedCPURequests: mixedRequests,
      recommendations: [],
    },
    expectedDesiredReplicas: 0,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestReplicaLimits/scale down clamped to min when desired is zero',
    scenario: {
      minReplicas: 2,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 90,
      reportedLevels: [0, 0, 0],
      reportedCPURequests: mixedRequests,
      recommendations: [],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas' }),
  },
  {
    test: 'TestReplicaLimits/no scaling when spec replicas is zero',
    scenario: {
      minReplicas: 3,
      maxReplicas: 5,
      specReplicas: 0,
      statusReplicas: 0,
      CPUTarget: 90,
      reportedLevels: [],
      reportedCPURequests: [],
    },
    expectedDesiredReplicas: 0,
    expectedConditions: getScaleOnly('ScalingDisabled'),
  },
  {
    test: 'TestReplicaLimits/scale up to min when below min replicas',
    scenario: {
      minReplicas: 3,
      maxReplicas: 5,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 90,
      reportedLevels: [],
      reportedCPURequests: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale' }],
  },
  {
    test: 'TestReplicaLimits/scale down to max when above max replicas',
    scenario: {
      minReplicas: 3,
      maxReplicas: 5,
      specReplicas: 10,
      statusReplicas: 10,
      CPUTarget: 90,
      reportedLevels: [],
      reportedCPURequests: [],
    },
    expectedDesiredReplicas: 5,
    expectedConditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale' }],
  },
  {
    test: 'TestReplicaLimits/scale up clamped to max replicas',
    scenario: {
      minReplicas: 2,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 90,
      reportedLevels: [8000, 9500, 1000],
      reportedCPURequests: mixedRequests,
    },
    expectedDesiredReplicas: 5,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
  },
  // TestMetricsEdgeCases
  {
    test: 'TestMetricsEdgeCases/superfluous metrics reported',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 100,
      reportedLevels: [4000, 9500, 3000, 7000, 3200, 2000],
      reportedCPURequests: req(4),
    },
    expectedDesiredReplicas: 6,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
  },
  {
    test: 'TestMetricsEdgeCases/missing metrics from some pods',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 100,
      reportedLevels: [400, 95],
      reportedCPURequests: req(4),
      recommendations: [],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestMetricsEdgeCases/empty metrics from all pods',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 100,
      reportedLevels: [],
      reportedCPURequests: req(4),
    },
    expectedDesiredReplicas: 4,
    expectedConditions: getScaleOnly('FailedGetResourceMetric'),
    expectedEvents: ['FailedGetResourceMetric', 'FailedComputeMetricsReplicas'],
  },
  {
    test: 'TestMetricsEdgeCases/empty CPU requests',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 1,
      statusReplicas: 1,
      CPUTarget: 100,
      reportedLevels: [200],
      reportedCPURequests: [],
    },
    expectedDesiredReplicas: 1,
    expectedConditions: getScaleOnly('FailedGetResourceMetric'),
  },
  // TestEventCreated / TestEventNotCreated
  {
    test: 'TestEventCreated',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 1,
      statusReplicas: 1,
      CPUTarget: 50,
      reportedLevels: [200],
      reportedCPURequests: ['0.2'],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: [...STATUS_OK],
    expectedEvents: ['SuccessfulRescale'],
  },
  {
    test: 'TestEventNotCreated',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 50,
      reportedLevels: [200, 200],
      reportedCPURequests: ['0.4', '0.4'],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: readyForNewScale,
    expectedEvents: [],
  },
  // TestCPUScalingEdgeCases
  {
    test: 'TestCPUScalingEdgeCases/missing reports from some pods',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 50,
      reportedLevels: [200],
      reportedCPURequests: ['0.2'],
      recommendations: [],
    },
    expectedDesiredReplicas: 2,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestCPUScalingEdgeCases/more replicas than spec no scale',
    scenario: {
      minReplicas: 1,
      maxReplicas: 8,
      specReplicas: 4,
      statusReplicas: 5,
      CPUTarget: 50,
      reportedLevels: [500, 500, 500, 500, 500],
      reportedCPURequests: req(5, '1'),
    },
    expectedDesiredReplicas: 4,
    expectedConditions: readyForNewScale,
  },
  // TestUpscaleCap
  {
    test: 'TestUpscaleCap/capped by scale up rules',
    scenario: {
      minReplicas: 1,
      maxReplicas: 100,
      specReplicas: 3,
      statusReplicas: 3,
      scaleUpRules: scalingRules(0, 0, 700, 60, 0),
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
    },
    expectedDesiredReplicas: 24,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'ScaleUpLimit' }),
  },
  {
    test: 'TestUpscaleCap/capped by max replicas when scale up limit exceeds max',
    scenario: {
      minReplicas: 1,
      maxReplicas: 20,
      specReplicas: 3,
      statusReplicas: 3,
      scaleUpRules: scalingRules(0, 0, 700, 60, 0),
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
    },
    expectedDesiredReplicas: 20,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
  },
  // TestCondition*
  {
    test: 'TestConditionInvalidSelectorMissing',
    scenario: {
      minReplicas: 1,
      maxReplicas: 100,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
      selector: '',
    },
    expectedDesiredReplicas: 3,
    expectedConditions: getScaleOnly('InvalidSelector'),
    expectedEvents: ['SelectorRequired', 'FailedComputeMetricsReplicas'],
  },
  {
    test: 'TestConditionInvalidSelectorUnparsable',
    scenario: {
      minReplicas: 1,
      maxReplicas: 100,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
      selector: 'cheddar cheese',
    },
    expectedDesiredReplicas: 3,
    expectedConditions: getScaleOnly('InvalidSelector'),
    expectedEvents: ['InvalidSelector', 'FailedComputeMetricsReplicas'],
  },
  {
    test: 'TestConditionNoAmbiguousSelectorWhenNoSelectorOverlapBetweenHPAs',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
    },
    overrides: { otherHpaSelectors: [{ name: 'test-hpa-2', selector: 'cheddar=cheese' }] },
    expectedDesiredReplicas: 5,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestConditionAmbiguousSelectorWhenFullSelectorOverlapBetweenHPAs',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
    },
    overrides: { otherHpaSelectors: [{ name: 'test-hpa-2', selector: 'name=test-pod' }] },
    expectedDesiredReplicas: 3,
    expectedConditions: getScaleOnly('AmbiguousSelector'),
    expectedEvents: ['AmbiguousSelector', 'FailedComputeMetricsReplicas'],
  },
  {
    test: 'TestConditionAmbiguousSelectorWhenPartialSelectorOverlapBetweenHPAs',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
      podLabels: { cheddar: 'cheese' },
    },
    overrides: { otherHpaSelectors: [{ name: 'test-hpa-2', selector: 'cheddar=cheese' }] },
    expectedDesiredReplicas: 3,
    expectedConditions: getScaleOnly('AmbiguousSelector'),
  },
  ...(['FailedGetResourceMetric', 'FailedGetPodsMetric', 'FailedGetObjectMetric', 'FailedGetExternalMetric'] as const).map(
    (reason): ReconcileCase => {
      const specs: Record<typeof reason, MetricSpec[] | undefined> = {
        FailedGetResourceMetric: undefined,
        FailedGetPodsMetric: [podsQps('15.0')],
        FailedGetObjectMetric: [objectQps({ type: 'Value', value: '15.0' })],
        FailedGetExternalMetric: [externalQps({ type: 'Value', value: '300m' })],
      };
      return {
        test: `TestConditionFailedGetMetrics/${reason}`,
        scenario: {
          minReplicas: 1,
          maxReplicas: 100,
          specReplicas: 3,
          statusReplicas: 3,
          CPUTarget: specs[reason] ? 0 : 10,
          metricsTarget: specs[reason],
          reportedLevels: [100, 200, 300],
          reportedCPURequests: req(3, '0.1'),
        },
        overrides: {},
        expectedDesiredReplicas: 3,
        expectedConditions: getScaleOnly(reason),
        expectedEvents: [reason, 'FailedComputeMetricsReplicas'],
      };
    },
  ),
  // TestInvalidMetricSourceType
  {
    test: 'TestInvalidMetricSourceType/only invalid metric source type',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [{ type: 'CheddarCheese' }],
      reportedLevels: [20000],
    },
    expectedDesiredReplicas: 3,
    expectedConditions: getScaleOnly('InvalidMetricSourceType'),
  },
  {
    test: 'TestInvalidMetricSourceType/no scale down when one metric has invalid source type',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      metricsTarget: [{ type: 'CheddarCheese' }],
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 5,
    expectedConditions: getScaleOnly('InvalidMetricSourceType'),
    expectedEvents: ['InvalidMetricSourceType', 'FailedComputeMetricsReplicas'],
  },
  {
    test: 'TestConditionFailedGetScale',
    scenario: {
      minReplicas: 1,
      maxReplicas: 100,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
    },
    overrides: { failures: { getScale: 'something went wrong' } },
    expectedDesiredReplicas: 3,
    expectedConditions: [{ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale' }],
    expectedEvents: ['FailedGetScale'],
  },
  {
    test: 'TestConditionFailedUpdateScale',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 100,
      reportedLevels: [150, 150, 150],
      reportedCPURequests: req(3, '0.1'),
    },
    overrides: { failures: { updateScale: 'something went wrong' } },
    expectedDesiredReplicas: 3,
    expectedConditions: statusOkWith({ type: 'AbleToScale', status: 'False', reason: 'FailedUpdateScale' }),
    expectedEvents: ['FailedRescale'],
  },
  // TestScaleTimingBehavior
  {
    test: 'TestScaleTimingBehavior/no backoff upscale custom metric only',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [20000, 10000, 30000],
      reportedCPURequests: req(3),
      lastScaleTime: NOW,
    },
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
  },
  {
    test: 'TestScaleTimingBehavior/no backoff upscale custom metric and CPU',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 10,
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [20000, 10000, 30000],
      reportedCPURequests: req(3),
      lastScaleTime: NOW,
    },
    expectedDesiredReplicas: 5,
    expectedConditions: statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
  },
  {
    test: 'TestScaleTimingBehavior/stabilize downscale',
    scenario: {
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 100,
      reportedLevels: [50, 50, 50],
      reportedCPURequests: req(3, '0.1'),
      recommendations: [
        { replicas: 10, timestamp: ago(600) },
        { replicas: 4, timestamp: ago(60) },
      ],
    },
    expectedDesiredReplicas: 4,
    expectedConditions: statusOkWith({ type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized' }),
  },
  // TestScaleRCImmediately
  {
    test: 'TestScaleRCImmediately/scale up to min when below min replicas',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 1,
      statusReplicas: 1,
      reportedLevels: [0, 0, 0, 0],
      reportedCPURequests: req(4),
      lastScaleTime: NOW,
    },
    expectedDesiredReplicas: 2,
    expectedConditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale' }],
  },
  {
    test: 'TestScaleRCImmediately/scale down to max when above max replicas',
    scenario: {
      minReplicas: 2,
      maxReplicas: 5,
      specReplicas: 6,
      statusReplicas: 6,
      CPUTarget: 50,
      reportedLevels: [8000, 9500, 1000],
      reportedCPURequests: mixedRequests,
      lastScaleTime: NOW,
    },
    expectedDesiredReplicas: 5,
    expectedConditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale' }],
  },
  {
    test: 'TestManualScaleToZeroDisablesHPA',
    scenario: {
      minReplicas: 1,
      maxReplicas: 6,
      specReplicas: 0,
      statusReplicas: 0,
      CPUTarget: 50,
      reportedLevels: [],
      reportedCPURequests: [],
    },
    expectedDesiredReplicas: 0,
    expectedConditions: getScaleOnly('ScalingDisabled'),
    expectedEvents: [],
  },
  // TestScaleUpOneMetricEmpty / TestNoScaleDownOneMetricEmpty: the external metrics API fails, cpu decides
  {
    test: 'TestScaleUpOneMetricEmpty',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      metricsTarget: [externalQps({ type: 'Value', value: '100m' })],
      reportedLevels: [300, 400, 500],
      reportedCPURequests: req(3),
    },
    overrides: {},
    expectedDesiredReplicas: 4,
    expectedConditions: [...STATUS_OK],
    expectedEvents: ['FailedGetExternalMetric', 'SuccessfulRescale'],
  },
  {
    test: 'TestNoScaleDownOneMetricEmpty',
    scenario: {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      metricsTarget: [externalQps({ type: 'Value', value: '1000m' })],
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
    },
    expectedDesiredReplicas: 5,
    expectedConditions: getScaleOnly('FailedGetExternalMetric'),
    expectedEvents: ['FailedGetExternalMetric', 'FailedComputeMetricsReplicas'],
  },
];

function inputFor(c: ReconcileCase): HpaSyncInput {
  const input = buildSyncInput(c.scenario, c.overrides);
  if (c.test.startsWith('TestConditionFailedGetMetrics'))
    input.metrics.errors = {
      resource: 'something went wrong',
      pods: 'something went wrong',
      object: 'something went wrong',
      external: 'something went wrong',
    };
  if (c.test === 'TestScaleUpOneMetricEmpty' || c.test === 'TestNoScaleDownOneMetricEmpty')
    input.metrics.errors = { external: 'something went wrong' };
  if (c.config) input.config = { ...UPSTREAM_TEST_CONFIG, ...c.config };
  return input;
}

describe('simulateHpaSync — horizontal_test.go reconcile tables', () => {
  it.each(CASES.map((c) => [c.test, c]))('%s', (_title, c) => {
    const result = simulateHpaSync(inputFor(c));
    expect(result.desiredReplicas).toBe(c.expectedDesiredReplicas);
    const expectRescale = c.scenario.specReplicas !== c.expectedDesiredReplicas && !c.overrides?.failures?.updateScale;
    expect(result.rescale).toBe(expectRescale);
    if (c.expectedConditions) expect(triples(result.conditions)).toEqual(c.expectedConditions);
    if (c.expectedEvents) expect(result.events.map((e) => e.reason)).toEqual(c.expectedEvents);
  });
});

describe('simulateHpaSync — upstream messages and status', () => {
  it('TestEventCreated: the SuccessfulRescale message names the metric', () => {
    const result = simulateHpaSync(
      buildSyncInput({
        minReplicas: 1,
        maxReplicas: 5,
        specReplicas: 1,
        statusReplicas: 1,
        CPUTarget: 50,
        reportedLevels: [200],
        reportedCPURequests: ['0.2'],
      }),
    );
    expect(result.events).toEqual([
      {
        type: 'Normal',
        reason: 'SuccessfulRescale',
        message: 'New size: 2; reason: cpu resource utilization (percentage of request) above target',
      },
    ]);
    expect(result.status.lastScaleTime).toBe(NOW);
    expect(result.conditions.find((c) => c.type === 'AbleToScale')?.message).toBe(
      'the HPA controller was able to update the target scale to 2',
    );
  });

  it('TestScaleUpUnreadyOrHotCpuNoScale: utilization reported from ready pods only (verifyCPUCurrent 40)', () => {
    const result = simulateHpaSync(
      buildSyncInput({
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 3,
        statusReplicas: 3,
        CPUTarget: 30,
        reportedLevels: [400, 500, 700],
        reportedCPURequests: req(3),
        reportedPodReadiness: ['True', 'False', 'False'],
      }),
    );
    expect(result.currentMetrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '400m' } } },
    ]);
  });

  it('TestAvoidUnnecessaryUpdates: a sync that changes nothing writes back the same status', () => {
    const lastScale = ago(3600);
    const input = buildSyncInput({
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 80,
      reportedLevels: [400, 500, 700],
      reportedCPURequests: req(3),
      reportedPodStartTime: [COOL, HOT, HOT],
      lastScaleTime: lastScale,
      recommendations: [],
    });
    input.hpa.metadata.generation = 1;
    input.hpa.status = {
      observedGeneration: 1,
      currentReplicas: 2,
      desiredReplicas: 2,
      lastScaleTime: lastScale,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '400m', averageUtilization: 40 } } }],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: lastScale,
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
        },
        {
          type: 'ScalingActive',
          status: 'True',
          lastTransitionTime: lastScale,
          reason: 'ValidMetricFound',
          message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
        },
        {
          type: 'ScalingLimited',
          status: 'True',
          lastTransitionTime: lastScale,
          reason: 'TooFewReplicas',
          message: 'the desired replica count is less than the minimum replica count',
        },
      ],
    };
    input.config = { ...UPSTREAM_TEST_CONFIG, hpaGeneration: true };
    const result = simulateHpaSync(input);
    expect(result.status).toEqual(input.hpa.status);
  });

  it('TestConditionFailedGetMetrics: messages carry upstream error chains', () => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 100,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 10,
      reportedLevels: [100, 200, 300],
      reportedCPURequests: req(3, '0.1'),
    });
    input.metrics.errors = { resource: 'something went wrong' };
    const result = simulateHpaSync(input);
    const inner =
      'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: something went wrong';
    expect(result.events).toEqual([
      { type: 'Warning', reason: 'FailedGetResourceMetric', message: inner },
      {
        type: 'Warning',
        reason: 'FailedComputeMetricsReplicas',
        message: `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`,
      },
    ]);
    expect(result.conditions[1]?.message).toBe(`the HPA was unable to compute the replica count: ${inner}`);
    expect(result.currentMetrics).toEqual([{ type: '' }]);
  });

  it('TestConditionFailedUpdateScale: FailedRescale message and desiredReplicas kept', () => {
    const input = buildSyncInput(
      {
        minReplicas: 1,
        maxReplicas: 5,
        specReplicas: 3,
        statusReplicas: 3,
        CPUTarget: 100,
        reportedLevels: [150, 150, 150],
        reportedCPURequests: req(3, '0.1'),
      },
      { failures: { updateScale: 'something went wrong' } },
    );
    const result = simulateHpaSync(input);
    expect(result.events).toEqual([
      {
        type: 'Warning',
        reason: 'FailedRescale',
        message: 'New size: 5; reason: cpu resource utilization (percentage of request) above target; error: something went wrong',
      },
    ]);
    expect(result.status.lastScaleTime).toBeNull();
    expect(result.controllerState.scaleUpEvents).toEqual([]);
  });

  it('TestConditionAmbiguousSelectorWhenFullSelectorOverlapBetweenHPAs: message lists both HPAs', () => {
    const input = buildSyncInput(
      {
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 3,
        statusReplicas: 3,
        CPUTarget: 30,
        reportedLevels: [300, 500, 700],
        reportedCPURequests: req(3),
      },
      { otherHpaSelectors: [{ name: 'test-hpa-2', selector: 'name=test-pod' }] },
    );
    const result = simulateHpaSync(input);
    expect(result.events[0]?.message).toBe(
      'pods by selector name=test-pod are controlled by multiple HPAs: [test-namespace/test-hpa test-namespace/test-hpa-2]',
    );
    expect(result.status.currentMetrics).toBeNull();
  });

  it('min/max short-circuit: no metrics evaluated, currentMetrics cleared, ScalingActive untouched', () => {
    const input = buildSyncInput({
      minReplicas: 3,
      maxReplicas: 5,
      specReplicas: 10,
      statusReplicas: 10,
      CPUTarget: 90,
      reportedLevels: [],
      reportedCPURequests: [],
    });
    input.hpa.status = {
      ...input.hpa.status,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50 } } }],
      conditions: [{ type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'x', lastTransitionTime: ago(600) }],
    };
    const result = simulateHpaSync(input);
    expect(result.events).toEqual([
      { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 5; reason: Current number of replicas above Spec.MaxReplicas' },
    ]);
    expect(result.status.currentMetrics).toBeNull();
    expect(result.conditions.find((c) => c.type === 'ScalingActive')).toEqual({
      type: 'ScalingActive',
      status: 'True',
      reason: 'ValidMetricFound',
      message: 'x',
      lastTransitionTime: ago(600),
    });
  });

  it('lastTransitionTime changes only when a condition flips its status', () => {
    const input = buildSyncInput({
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
    });
    input.hpa.status = {
      ...input.hpa.status,
      conditions: [
        { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: ago(900) },
        { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', lastTransitionTime: ago(900) },
      ],
    };
    const result = simulateHpaSync(input);
    expect(result.conditions.map((c) => [c.type, c.lastTransitionTime])).toEqual([
      ['AbleToScale', ago(900)],
      ['ScalingActive', NOW],
      ['ScalingLimited', NOW],
    ]);
  });

  it('invalid apiVersion in scaleTargetRef gives FailedGetScale with the ParseGroupVersion error', () => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 5,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 50,
      resource: { kind: 'Deployment', apiVersion: 'apps/v1/extra', name: 'x' },
    });
    const result = simulateHpaSync(input);
    expect(result.events).toEqual([
      { type: 'Warning', reason: 'FailedGetScale', message: 'unexpected GroupVersion string: apps/v1/extra' },
    ]);
    expect(result.conditions[0]?.message).toBe(
      "the HPA controller was unable to get the target's current scale: unexpected GroupVersion string: apps/v1/extra",
    );
    expect(result.controllerState.recommendations).toBeNull();
  });

  it('External metric names embed the selector as Go prints a *LabelSelector', () => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 10,
      specReplicas: 2,
      statusReplicas: 2,
      metricsTarget: [
        {
          type: 'External',
          external: { metric: { name: 'qps', selector: { matchLabels: { queue: 'worker' } } }, target: { type: 'Value', value: '1' } },
        },
      ],
      reportedLevels: [4000],
    });
    const result = simulateHpaSync(input);
    expect(result.events[0]?.message).toBe(
      'New size: 8; reason: external metric qps(&LabelSelector{MatchLabels:map[string]string{queue: worker,},MatchExpressions:[]LabelSelectorRequirement{},}) above target',
    );
  });

  it('a memory averageValue is DecimalSI by default and BinarySI with the master option', () => {
    const base = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 10,
      specReplicas: 3,
      statusReplicas: 3,
      reportedLevels: [100, 100, 100],
      reportedCPURequests: req(3),
    });
    base.hpa.spec.metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Mi' } } }];
    expect(simulateHpaSync(base).currentMetrics[0]?.resource?.current.averageValue).toBe('1048576');
    const binary = simulateHpaSync({ ...base, config: { ...UPSTREAM_TEST_CONFIG, memoryAverageValueFormat: 'BinarySI' } });
    expect(binary.currentMetrics[0]?.resource?.current.averageValue).toBe('1Mi');
  });
});

describe('simulateHpaSync — tolerance rule, version options and seed aggregator', () => {
  const atBoundary = (config: Partial<HpaControllerConfig>) =>
    simulateHpaSync({
      ...buildSyncInput({
        minReplicas: 1,
        maxReplicas: 10,
        specReplicas: 4,
        statusReplicas: 4,
        CPUTarget: 100,
        reportedLevels: [1100, 1100, 1100, 1100],
        reportedCPURequests: req(4),
        recommendations: [],
      }),
      config: { ...UPSTREAM_TEST_CONFIG, ...config },
    });

  it('ratio exactly 1.1: the 1.33+ interval does not scale, the legacy |1-r| rule does', () => {
    expect(atBoundary({}).desiredReplicas).toBe(4);
    expect(atBoundary({ toleranceRule: 'legacy' }).desiredReplicas).toBe(5);
  });

  it("partialFailure 'useValid' (≈v1.20) scales down on the valid metrics", () => {
    const scenario: HorizontalScenario = {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      metricsTarget: [{ type: 'CheddarCheese' }],
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
    };
    const result = simulateHpaSync({ ...buildSyncInput(scenario), config: { ...UPSTREAM_TEST_CONFIG, partialFailure: 'useValid' } });
    expect(result.desiredReplicas).toBe(3);
  });

  it.each([
    ['max', 5],
    ['min', 4],
    ['average', 5],
  ] as const)('replicasAggregator %s combines a cpu proposal of 5 and a pods proposal of 4', (aggregator, expected) => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 10,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      metricsTarget: [podsQps('400m')],
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
    });
    input.config = { ...UPSTREAM_TEST_CONFIG, replicasAggregator: aggregator };
    expect(simulateHpaSync(input).desiredReplicas).toBe(expected);
  });
});

describe('simulateHpaSync — explanation', () => {
  it('states each step with its numbers and the legacy history assumption', () => {
    const result = simulateHpaSync(
      buildSyncInput({
        minReplicas: 1,
        maxReplicas: 6,
        specReplicas: 4,
        statusReplicas: 4,
        CPUTarget: 60,
        reportedLevels: [920, 920, 920, 920],
        reportedCPURequests: req(4),
      }),
    );
    expect(result.explanation).toEqual([
      'controller history unknown: assumed a fresh controller seeded with 4 replicas now, so a scale-down is held by the 300s stabilization window',
      'cpu resource utilization 92% of request vs target 60% (4 ready) → ratio 1.53 × 4 ready pods → 7 replicas',
      '7 replicas capped at maxReplicas 6 (ScalingLimited/TooManyReplicas)',
      'scale 4 → 6 (SuccessfulRescale: cpu resource utilization (percentage of request) above target)',
    ]);
  });
});

describe('simulateHpaSync — more explanation', () => {
  it('explains the rebalancing of missing pods and the behavior rate limit', () => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 50,
      specReplicas: 4,
      statusReplicas: 4,
      CPUTarget: 50,
      scaleUpRules: { policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] },
      reportedLevels: [2000, 2000, 2000],
      reportedCPURequests: req(4),
      recommendations: [],
    });
    const result = simulateHpaSync(input);
    expect(result.desiredReplicas).toBe(6);
    expect(result.explanation).toEqual([
      'cpu resource utilization 200% of request vs target 50% (3 ready, 1 without metrics) → ratio 4, rebalanced to 3 (pods without metrics counted as 0 on a scale-up) × 4 samples → 12 replicas',
      '12 replicas limited to 6 by behavior.scaleUp (selectPolicy Max, Pods 2/60s) (ScalingLimited/ScaleUpLimit)',
      'scale 4 → 6 (SuccessfulRescale: cpu resource utilization (percentage of request) above target)',
    ]);
  });

  it('explains a metric that cannot be computed and the partial-failure rule', () => {
    const input = buildSyncInput({
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      metricsTarget: [externalQps({ type: 'Value', value: '1000m' })],
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
      recommendations: [],
    });
    input.metrics.errors = { external: 'connection refused' };
    const lines = simulateHpaSync(input).explanation;
    expect(lines[1]).toBe(
      'external metric qps: cannot compute (FailedGetExternalMetric): unable to get external metric test-namespace/qps/&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: connection refused',
    );
    expect(lines[2]).toBe(
      '1 of 2 metrics failed and the others would scale down to 3: the controller refuses to act on partial data (ScalingActive/FailedGetExternalMetric)',
    );
  });

  it('accepts other HPAs’ selectors as bare strings', () => {
    const input = buildSyncInput(
      {
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 3,
        statusReplicas: 3,
        CPUTarget: 30,
        reportedLevels: [300, 500, 700],
        reportedCPURequests: req(3),
      },
      { otherHpaSelectors: ['name in (test-pod,other)', 'not a selector (', ''] },
    );
    expect(simulateHpaSync(input).events[0]?.message).toBe(
      'pods by selector name=test-pod are controlled by multiple HPAs: [test-namespace/other-hpa-1 test-namespace/test-hpa]',
    );
  });
});

describe('simulateHpaSyncs and determinism', () => {
  it('the legacy 5-minute window holds a scale-down until the fresh-controller seed ages out', () => {
    const first = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 10,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      reportedLevels: [100, 100, 100, 100, 100],
      reportedCPURequests: req(5),
    });
    const at = (seconds: number): string => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
    const results = simulateHpaSyncs(first, [{ now: at(150) }, { now: at(300) }, { now: at(301) }]);
    expect(results.map((r) => r.desiredReplicas)).toEqual([5, 5, 5, 1]);
    expect(results[3]?.rescale).toBe(true);
    expect(results[3]?.events.map((e) => e.message)).toEqual(['New size: 1; reason: All metrics below target']);
  });

  it('behavior scale events feed the next sync: 4 pods per 15s from 2 toward 20', () => {
    const first = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 20,
      specReplicas: 2,
      statusReplicas: 2,
      CPUTarget: 10,
      scaleUpRules: { policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
      reportedLevels: [1000, 1000],
      reportedCPURequests: req(2),
      recommendations: [],
    });
    const at = (seconds: number): string => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
    const results = simulateHpaSyncs(first, [{ now: at(5) }, { now: at(16) }]);
    expect(results.map((r) => r.desiredReplicas)).toEqual([6, 6, 10]);
    expect(results[1]?.conditions.find((c) => c.type === 'ScalingLimited')?.reason).toBe('ScaleUpLimit');
    // the first event is older than the longest period (15s) by then, so storeScaleEvent recycles its slot
    expect(results[2]?.controllerState.scaleUpEvents).toEqual([
      { replicaChange: 4, timestamp: new Date(Date.parse(NOW) + 16_000).toISOString() },
    ]);
  });

  it('the same input twice gives deep-equal output and the input is not mutated', () => {
    const input = buildSyncInput({
      minReplicas: 1,
      maxReplicas: 10,
      specReplicas: 3,
      statusReplicas: 3,
      CPUTarget: 30,
      scaleDownRules: { stabilizationWindowSeconds: 60 },
      metricsTarget: [podsQps('15.0')],
      reportedLevels: [300, 500, 700],
      reportedCPURequests: req(3),
      recommendations: [{ replicas: 3, timestamp: ago(30) }],
    });
    const snapshot = structuredClone(input);
    const a = simulateHpaSync(input);
    const b = simulateHpaSync(input);
    expect(a).toEqual(b);
    expect(input).toEqual(snapshot);
  });
});

// upstream: recordInitialRecommendation seeds {currentReplicas, time.Now()}; stabilizeRecommendation then takes its
// own `cutoff := time.Now().Add(-downscaleStabilisationWindow)` and drops entries `Before(cutoff)`. The second clock
// reading is later, so with --horizontal-pod-autoscaler-downscale-stabilization=0 the seed never holds a scale-down.
describe('simulateHpaSync — a fresh controller with a 0 s downscale stabilization window', () => {
  const windowZero = { ...UPSTREAM_TEST_CONFIG, downscaleStabilizationSeconds: 0 };

  it('TestScaleDownStabilizeInitialSize with downscale-stabilization=0: the seed is older than the cutoff, so 5 → 3 at once', () => {
    const scenario: HorizontalScenario = {
      minReplicas: 2,
      maxReplicas: 6,
      specReplicas: 5,
      statusReplicas: 5,
      CPUTarget: 50,
      reportedLevels: [100, 300, 500, 250, 250],
      reportedCPURequests: req(5),
    };
    // The same fresh controller with the upstream test's 5 m window holds at 5 (TestScaleDownStabilizeInitialSize).
    expect(simulateHpaSync(buildSyncInput(scenario)).desiredReplicas).toBe(5);
    const result = simulateHpaSync({ ...buildSyncInput(scenario), config: windowZero });
    expect(result.desiredReplicas).toBe(3);
    expect(triples(result.conditions)).toEqual([...STATUS_OK]);
    expect(result.explanation[0]).toBe(
      'controller history unknown: assumed a fresh controller seeded with 5 replicas just before this sync; ' +
        'with a 0s downscale stabilization window that seed is already older than the cutoff, so it holds nothing and a scale-down happens at once',
    );
    // upstream replaces the old seed with this sync's proposal (foundOldSample), rather than appending to it.
    expect(result.controllerState.recommendations).toEqual([{ replicas: 3, timestamp: new Date(Date.parse(NOW)).toISOString() }]);
  });

  it('normalizeDesiredReplicas, current 3, proposal 1, min 2, window 0: scales to minReplicas 2 (TooFewReplicas), not held at 3', () => {
    const result = simulateHpaSync({
      ...buildSyncInput({
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 3,
        statusReplicas: 3,
        CPUTarget: 50,
        reportedLevels: [50, 50, 50],
        reportedCPURequests: req(3),
      }),
      config: windowZero,
    });
    expect(result.desiredReplicas).toBe(2);
    expect(triples(result.conditions)).toEqual(statusOkWith({ type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas' }));
  });

  it('normalizeDesiredReplicas, current 1, proposal 0, min 0, window 0: scales to 0, not held at 1', () => {
    const result = simulateHpaSync({
      ...buildSyncInput({
        minReplicas: 0,
        maxReplicas: 6,
        specReplicas: 1,
        statusReplicas: 1,
        metricsTarget: [externalQps({ type: 'Value', value: '14400m' })],
        reportedLevels: [0],
      }),
      config: windowZero,
    });
    expect(result.desiredReplicas).toBe(0);
    expect(triples(result.conditions)).toEqual([...STATUS_OK]);
  });

  it('normalizeDesiredReplicasWithBehaviors, both windows 0: the seed neither holds the scale-down nor stays in the history', () => {
    const result = simulateHpaSync({
      ...buildSyncInput({
        minReplicas: 2,
        maxReplicas: 6,
        specReplicas: 5,
        statusReplicas: 5,
        CPUTarget: 50,
        reportedLevels: [100, 300, 500, 250, 250],
        reportedCPURequests: req(5),
        scaleDownRules: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
        },
      }),
      config: windowZero,
    });
    expect(result.desiredReplicas).toBe(3);
    // upstream: the seed is Before both cutoffs, so this sync's proposal overwrites it.
    expect(result.controllerState.recommendations).toEqual([{ replicas: 3, timestamp: new Date(Date.parse(NOW)).toISOString() }]);
  });
});
