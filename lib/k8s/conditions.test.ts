import { describe, expect, it } from 'vitest';
import { conditionStatus, findCondition, isConditionTrue, newestCondition, toConditionStatus } from '@/lib/k8s/conditions';
import type { Condition } from '@/lib/k8s/types';

// A Karmada Cluster's conditions as karmada-apiserver serves them.
const clusterConditions: Condition[] = [
  {
    type: 'Ready',
    status: 'False',
    reason: 'ClusterNotReachable',
    message: 'cluster is not reachable',
    lastTransitionTime: '2026-11-20T10:37:00Z',
  },
  {
    type: 'CompleteAPIEnablements',
    status: 'True',
    reason: 'CompleteAPIEnablements',
    message: 'collected complete APIs from member cluster',
    lastTransitionTime: '2026-07-23T12:00:00Z',
  },
];

describe('toConditionStatus', () => {
  it.each([
    ['True', 'True'],
    ['False', 'False'],
    ['Unknown', 'Unknown'],
    ['true', 'Unknown'],
    ['', 'Unknown'],
    [undefined, 'Unknown'],
    [null, 'Unknown'],
  ])('%s → %s', (input, expected) => {
    expect(toConditionStatus(input)).toBe(expected);
  });
});

describe('findCondition / conditionStatus / isConditionTrue', () => {
  it.each([
    ['Ready', 'False', false],
    ['CompleteAPIEnablements', 'True', true],
    ['Synchronized', 'Unknown', false],
  ] as const)('%s is %s', (type, status, isTrue) => {
    expect(conditionStatus(clusterConditions, type)).toBe(status);
    expect(isConditionTrue(clusterConditions, type)).toBe(isTrue);
  });

  it('returns the condition object itself and handles absent lists', () => {
    expect(findCondition(clusterConditions, 'Ready')?.reason).toBe('ClusterNotReachable');
    expect(findCondition(undefined, 'Ready')).toBeUndefined();
    expect(conditionStatus(null, 'Ready')).toBe('Unknown');
  });
});

describe('newestCondition (several Ready entries, cluster-autoscaler-operator PR #402 createOrUpdateMaCondition)', () => {
  const ready = (status: string, reason: string, at: string | undefined): Condition => ({
    type: 'Ready',
    status,
    reason,
    message: reason,
    lastTransitionTime: at,
  });

  it.each([
    {
      name: 'the newest by lastTransitionTime wins',
      conditions: [
        ready('True', 'MachineAutoscalerReady', '2026-11-01T00:00:00Z'),
        ready('False', 'MachineAutoscalerNonAuthoritativeTargetScaleRef', '2026-11-02T00:00:00Z'),
      ],
      reason: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
    },
    {
      name: 'an older False loses to a newer True',
      conditions: [
        ready('False', 'MachineAutoscalerNonAuthoritativeTargetScaleRef', '2026-11-01T00:00:00Z'),
        ready('True', 'MachineAutoscalerReady', '2026-11-03T00:00:00Z'),
      ],
      reason: 'MachineAutoscalerReady',
    },
    {
      name: 'on a tie False wins (docs/engines/machine.md §3)',
      conditions: [
        ready('True', 'MachineAutoscalerReady', '2026-11-01T00:00:00Z'),
        ready('False', 'MachineAutoscalerNonAuthoritativeTargetScaleRef', '2026-11-01T00:00:00Z'),
      ],
      reason: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
    },
    {
      name: 'entries without a time lose to timed ones',
      conditions: [ready('False', 'NoTime', undefined), ready('True', 'MachineAutoscalerReady', '2026-11-01T00:00:00Z')],
      reason: 'MachineAutoscalerReady',
    },
    {
      name: 'two untimed entries: False wins',
      conditions: [ready('True', 'A', undefined), ready('False', 'B', undefined)],
      reason: 'B',
    },
  ])('$name', ({ conditions, reason }) => {
    expect(newestCondition(conditions, 'Ready')?.reason).toBe(reason);
  });

  it('is undefined when no condition has the type', () => {
    expect(newestCondition(clusterConditions, 'Synchronized')).toBeUndefined();
  });
});
