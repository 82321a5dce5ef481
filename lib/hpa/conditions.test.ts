import { describe, expect, it } from 'vitest';
import type { Condition } from '@/lib/k8s/types';
import { HPA_CONDITION_NAME_MAP, setCondition, toShippedConditionType } from '@/lib/hpa/conditions';

describe('setCondition — upstream setConditionInList', () => {
  it('appends a new type with lastTransitionTime now, keeps the time when only the reason changes, moves it on a flip', () => {
    const conditions: Condition[] = [
      { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'm', lastTransitionTime: '2025-06-01T11:00:00Z' },
    ];
    setCondition(conditions, 'ScalingActive', 'True', 'ValidMetricFound', 'ok', '2025-06-01T12:00:00Z');
    setCondition(conditions, 'AbleToScale', 'True', 'SucceededRescale', 'scaled', '2025-06-01T12:00:00Z');
    expect(conditions).toEqual([
      { type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'scaled', lastTransitionTime: '2025-06-01T11:00:00Z' },
      { type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'ok', lastTransitionTime: '2025-06-01T12:00:00Z' },
    ]);
    setCondition(conditions, 'AbleToScale', 'False', 'FailedUpdateScale', 'denied', '2025-06-01T12:00:15Z');
    expect(conditions[0]).toEqual({
      type: 'AbleToScale',
      status: 'False',
      reason: 'FailedUpdateScale',
      message: 'denied',
      lastTransitionTime: '2025-06-01T12:00:15Z',
    });
  });
});

describe('HPA_CONDITION_NAME_MAP — seed proposal names to shipped ones', () => {
  it('maps each proposed type to the shipped type and keeps the historical Backoff* reasons', () => {
    expect(HPA_CONDITION_NAME_MAP.map((m) => [m.proposed, m.shipped])).toEqual([
      ['CanAccessScale', 'AbleToScale'],
      ['CanComputeReplicas', 'ScalingActive'],
      ['DesiredOutsideRange', 'ScalingLimited'],
      ['InBackoff', 'AbleToScale'],
    ]);
    const backoff = HPA_CONDITION_NAME_MAP.find((m) => m.proposed === 'InBackoff');
    expect(backoff?.reasons.map((r) => [r.shipped, r.historical])).toEqual([
      ['BackoffBoth', true],
      ['BackoffDownscale', true],
      ['BackoffUpscale', true],
    ]);
    expect(HPA_CONDITION_NAME_MAP.find((m) => m.proposed === 'CanAccessScale')?.reasons).toEqual([
      { proposed: 'FailedGet', shipped: 'FailedGetScale' },
      { proposed: 'FailedUpdate', shipped: 'FailedUpdateScale' },
    ]);
  });

  it.each([
    ['CanAccessScale', 'AbleToScale'],
    ['CanComputeReplicas', 'ScalingActive'],
    ['DesiredOutsideRange', 'ScalingLimited'],
    ['ScalingLimited', 'ScalingLimited'],
  ])('toShippedConditionType(%s) = %s', (proposed, shipped) => {
    expect(toShippedConditionType(proposed)).toBe(shipped);
  });
});
