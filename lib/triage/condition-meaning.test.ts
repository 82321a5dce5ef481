import { describe, expect, it } from 'vitest';
import type { AutoscalerKind, Health } from '@/lib/api/autoscaler';
import { CONDITION_MEANINGS, conditionMeaning, findMeaningRow, SCALE_DOWN_STABILIZED_LONG_SECONDS } from '@/lib/triage/condition-meaning';
import type { MeaningFacts } from '@/lib/triage/condition-meaning';

type Case = [AutoscalerKind, string, string, string | undefined, MeaningFacts, Health];

const HPA = 'HorizontalPodAutoscaler';
const FHPA = 'FederatedHPA';
const MA = 'MachineAutoscaler';

// docs/ui.md "Colour means health": every row of the meaning table, with both sides of each exception.
const cases: Case[] = [
  [HPA, 'AbleToScale', 'True', 'ReadyForNewScale', {}, 'ok'],
  [HPA, 'AbleToScale', 'True', 'SucceededGetScale', {}, 'ok'],
  [HPA, 'AbleToScale', 'True', 'SucceededRescale', {}, 'ok'],
  [HPA, 'AbleToScale', 'True', 'ScaleUpStabilized', {}, 'ok'],
  [HPA, 'AbleToScale', 'True', 'ScaleDownStabilized', {}, 'ok'],
  [HPA, 'AbleToScale', 'True', 'ScaleDownStabilized', { heldSeconds: SCALE_DOWN_STABILIZED_LONG_SECONDS - 1 }, 'ok'],
  [HPA, 'AbleToScale', 'True', 'ScaleDownStabilized', { heldSeconds: SCALE_DOWN_STABILIZED_LONG_SECONDS }, 'degraded'],
  [HPA, 'AbleToScale', 'False', 'FailedGetScale', {}, 'failing'],
  [HPA, 'AbleToScale', 'False', 'FailedUpdateScale', {}, 'failing'],
  [HPA, 'AbleToScale', 'False', 'BackoffBoth', {}, 'ok'],
  [HPA, 'AbleToScale', 'False', 'BackoffDownscale', {}, 'ok'],
  [HPA, 'AbleToScale', 'False', 'BackoffUpscale', {}, 'ok'],
  [FHPA, 'AbleToScale', 'False', 'FailedGetScaleTargetRef', {}, 'failing'],
  [FHPA, 'AbleToScale', 'False', 'FailedGetBinding', {}, 'failing'],
  [FHPA, 'AbleToScale', 'False', 'FailedGetTargetClusters', {}, 'failing'],
  [HPA, 'ScalingActive', 'True', 'ValidMetricFound', {}, 'ok'],
  [HPA, 'ScalingActive', 'False', 'FailedGetResourceMetric', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'FailedGetContainerResourceMetric', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'FailedGetPodsMetric', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'FailedGetObjectMetric', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'FailedGetExternalMetric', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'InvalidMetricSourceType', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'InvalidSelector', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'AmbiguousSelector', {}, 'failing'],
  [HPA, 'ScalingActive', 'False', 'ScalingDisabled', { currentReplicas: 0 }, 'ok'],
  [HPA, 'ScalingActive', 'False', 'ScalingDisabled', { currentReplicas: 1 }, 'failing'],
  [FHPA, 'ScalingActive', 'False', 'ScalingDisabled', { currentReplicas: 0 }, 'ok'],
  [FHPA, 'ScalingActive', 'False', 'ScalingDisabled', { currentReplicas: 4 }, 'failing'],
  [HPA, 'ScalingLimited', 'False', 'DesiredWithinRange', {}, 'ok'],
  [HPA, 'ScalingLimited', 'True', 'TooManyReplicas', {}, 'degraded'],
  [HPA, 'ScalingLimited', 'True', 'ScaleUpLimit', {}, 'degraded'],
  [HPA, 'ScalingLimited', 'True', 'ScaleDownLimit', {}, 'degraded'],
  [HPA, 'ScalingLimited', 'True', 'TooFewReplicas', {}, 'ok'],
  [HPA, 'ScaledToZero', 'True', 'ScaledToZero', {}, 'ok'],
  [HPA, 'ScaledToZero', 'False', 'NotScaledToZero', {}, 'ok'],
  [HPA, 'ScalingActive', 'Unknown', undefined, {}, 'unknown'],
  [HPA, 'SomeFutureCondition', 'True', 'Whatever', {}, 'unknown'],
  [MA, 'Ready', 'True', 'MachineAutoscalerReady', {}, 'ok'],
  [MA, 'Ready', 'False', 'MachineAutoscalerDuplicateTargetScaleRef', {}, 'failing'],
  [MA, 'Ready', 'Unknown', 'MachineAutoscalerTargetMigrating', {}, 'unknown'],
  // The tables are per kind: HPA condition types mean nothing on a MachineAutoscaler and vice versa.
  [MA, 'AbleToScale', 'False', 'FailedGetScale', {}, 'unknown'],
  [HPA, 'Ready', 'False', 'Whatever', {}, 'unknown'],
];

describe('conditionMeaning (docs/ui.md meaning table)', () => {
  it.each(cases)('%s %s=%s (%s) %j → %s', (kind, type, status, reason, facts, expected) => {
    expect(conditionMeaning(kind, { type, status, reason }, facts)).toBe(expected);
  });

  it('an absent condition is unknown (grey), never the colour of a neighbour', () => {
    expect(conditionMeaning(HPA, undefined)).toBe('unknown');
    expect(conditionMeaning(MA, null)).toBe('unknown');
  });

  it('without facts, ScalingDisabled reads as the deliberate pause it is by construction (currentReplicas == 0 in horizontal.go)', () => {
    expect(conditionMeaning(HPA, { type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled' })).toBe('ok');
  });

  it('every row of the table is reached by some case above', () => {
    const reached = new Set(cases.map(([kind, type, status, reason]) => findMeaningRow(kind, { type, status, reason })));
    for (const row of CONDITION_MEANINGS) expect(reached.has(row), `${row.type}=${row.status} ${row.reason}`).toBe(true);
  });
});
