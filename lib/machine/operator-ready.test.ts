import { describe, expect, it } from 'vitest';
import type { Condition } from '@/lib/k8s/types';
import { pr402MachineAutoscaler } from './__fixtures__/builders';
import { toOperatorReady } from './operator-ready';
import type { ReadyVerdict } from './types';

// PR #402 condition.go / machineautoscaler_controller.go constants, as its tests use them.
const READY_REASON = 'MachineAutoscalerReady';
const READY_MESSAGE = 'MachineAutoscaler ready for autoscaling';
const NA_REASON = 'MachineAutoscalerNonAuthoritativeTargetScaleRef';
const NA_MESSAGE = 'targetScaleRef is not the authoritative resource';
const MOCKED_DATE = '2026-09-01T23:00:00Z';
const MOCKED_DATE_PREV = '2026-09-01T22:59:59.000000059Z';

function ready(status: string, reason: string, message: string, lastTransitionTime?: string): Condition {
  return lastTransitionTime === undefined
    ? { type: 'Ready', status, reason, message }
    : { type: 'Ready', status, reason, message, lastTransitionTime };
}

/**
 * The inputs are the `expectedConditions` of PR #402's tests: what `createOrUpdateMaCondition` leaves in
 * `status.conditions`. The dashboard must pick one entry out of each.
 */
const table: { name: string; conditions: Condition[] | null | undefined; expected: ReadyVerdict | null }[] = [
  {
    name: 'condition_test.go TestCreateOrUpdateCondition "create condition"',
    conditions: [ready('True', READY_REASON, READY_MESSAGE, MOCKED_DATE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastTransitionTime: MOCKED_DATE },
  },
  {
    name: 'condition_test.go TestCreateOrUpdateCondition "if the reason is different, create condition" (equal times and statuses: the entry appended last)',
    conditions: [ready('True', NA_REASON, READY_MESSAGE, MOCKED_DATE), ready('True', READY_REASON, READY_MESSAGE, MOCKED_DATE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastTransitionTime: MOCKED_DATE },
  },
  {
    name: 'condition_test.go TestCreateOrUpdateCondition "update condition" (the previous entry was replaced)',
    conditions: [ready('True', READY_REASON, READY_MESSAGE, MOCKED_DATE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastTransitionTime: MOCKED_DATE },
  },
  {
    name: 'machineautoscaler_controller_test.go TestUpdateMachineAutoscalerConditions "add condition with different reason appends" (no times: tie, False wins)',
    conditions: [ready('True', READY_REASON, READY_MESSAGE), ready('False', NA_REASON, NA_MESSAGE)],
    expected: { status: 'False', reason: NA_REASON, message: NA_MESSAGE },
  },
  {
    name: 'the same two entries in the other order still pick False',
    conditions: [ready('False', NA_REASON, NA_MESSAGE), ready('True', READY_REASON, READY_MESSAGE)],
    expected: { status: 'False', reason: NA_REASON, message: NA_MESSAGE },
  },
  {
    name: 'machineautoscaler_controller_test.go TestUpdateMachineAutoscalerConditions "update existing condition with same reason"',
    conditions: [ready('True', READY_REASON, READY_MESSAGE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE },
  },
  {
    name: 'a newer True beats an older False (nanosecond-precision times)',
    conditions: [ready('False', NA_REASON, NA_MESSAGE, MOCKED_DATE_PREV), ready('True', READY_REASON, READY_MESSAGE, MOCKED_DATE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastTransitionTime: MOCKED_DATE },
  },
  {
    name: 'a timed entry beats one without a time',
    conditions: [ready('True', READY_REASON, READY_MESSAGE, MOCKED_DATE_PREV), ready('False', NA_REASON, NA_MESSAGE)],
    expected: { status: 'True', reason: READY_REASON, message: READY_MESSAGE, lastTransitionTime: MOCKED_DATE_PREV },
  },
  {
    name: 'on a tie Unknown beats True but not False',
    conditions: [ready('Unknown', 'Reconciling', ''), ready('True', READY_REASON, READY_MESSAGE)],
    expected: { status: 'Unknown', reason: 'Reconciling', message: '' },
  },
  {
    name: 'other condition types are ignored',
    conditions: [{ type: 'Available', status: 'False', reason: 'X', message: 'y', lastTransitionTime: MOCKED_DATE }],
    expected: null,
  },
  { name: 'the shipped operator writes no conditions', conditions: undefined, expected: null },
  { name: 'status.conditions: null', conditions: null, expected: null },
];

describe('toOperatorReady', () => {
  it.each(table)('$name', ({ conditions, expected }) => {
    expect(toOperatorReady(conditions)).toEqual(expected);
  });

  it('picks the newer of the two contradicting entries in the PR #402 fixture', () => {
    expect(toOperatorReady(pr402MachineAutoscaler().status?.conditions)?.reason).toBe(READY_REASON);
  });
});
