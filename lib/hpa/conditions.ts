import type { Condition } from '@/lib/k8s/types';

/**
 * HPA condition vocabulary. The shipped names come from horizontal.go; the proposal names come from the seed
 * design of HPA status conditions, which was renamed before it shipped. The UI explains both.
 */

export type HpaConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/** upstream: setConditionInList — lastTransitionTime moves only when the status flips; new ones are appended. */
export function setCondition(
  conditions: Condition[],
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: string,
): void {
  let existing = conditions.find((c) => c.type === type);
  if (!existing) {
    existing = { type, status: '' };
    conditions.push(existing);
  }
  if (existing.status !== status) existing.lastTransitionTime = now;
  existing.status = status;
  existing.reason = reason;
  existing.message = message;
}

export interface ConditionNameMapping {
  /** The name in the seed proposal. */
  proposed: string;
  /** The condition type that shipped in autoscaling/v2. */
  shipped: HpaConditionType;
  /** Polarity: the proposal's "bad" state maps to this status of the shipped condition. */
  proposedTrueMeans: 'True' | 'False';
  /** Reasons of the proposal and the shipped reasons they became (historical ones marked). */
  reasons: { proposed: string; shipped: string; historical?: boolean }[];
  note: string;
}

/** The seed's proposed condition names mapped to the shipped ones, so the UI can explain both. */
export const HPA_CONDITION_NAME_MAP: readonly ConditionNameMapping[] = [
  {
    proposed: 'CanAccessScale',
    shipped: 'AbleToScale',
    proposedTrueMeans: 'True',
    reasons: [
      { proposed: 'FailedGet', shipped: 'FailedGetScale' },
      { proposed: 'FailedUpdate', shipped: 'FailedUpdateScale' },
    ],
    note: 'Shipped as AbleToScale; besides scale access it also carries the stabilization reasons (ReadyForNewScale, ScaleDownStabilized, ScaleUpStabilized, SucceededRescale).',
  },
  {
    proposed: 'CanComputeReplicas',
    shipped: 'ScalingActive',
    proposedTrueMeans: 'True',
    reasons: [
      { proposed: 'FailedGetObjectMetric', shipped: 'FailedGetObjectMetric' },
      { proposed: 'FailedGetPodsMetric', shipped: 'FailedGetPodsMetric' },
      { proposed: 'FailedGetResourceMetric', shipped: 'FailedGetResourceMetric' },
      { proposed: 'InvalidMetricSourceType', shipped: 'InvalidMetricSourceType' },
      { proposed: 'InvalidSelector', shipped: 'InvalidSelector' },
    ],
    note: 'Shipped as ScalingActive, which is also False with ScalingDisabled when the target has zero replicas.',
  },
  {
    proposed: 'DesiredOutsideRange',
    shipped: 'ScalingLimited',
    proposedTrueMeans: 'True',
    reasons: [
      { proposed: 'TooFewReplicas', shipped: 'TooFewReplicas' },
      { proposed: 'TooManyReplicas', shipped: 'TooManyReplicas' },
    ],
    note: 'Shipped as ScalingLimited, also True for the rate limits ScaleUpLimit and ScaleDownLimit.',
  },
  {
    proposed: 'InBackoff',
    shipped: 'AbleToScale',
    proposedTrueMeans: 'False',
    reasons: [
      { proposed: 'BackoffBoth', shipped: 'BackoffBoth', historical: true },
      { proposed: 'BackoffDownscale', shipped: 'BackoffDownscale', historical: true },
      { proposed: 'BackoffUpscale', shipped: 'BackoffUpscale', historical: true },
    ],
    note: 'Never a condition type: the forbidden-window reasons lived on AbleToScale=False until ~v1.12 and are no longer set; stabilization windows replaced them.',
  },
];

/** The shipped condition type for a proposed (seed) name, or the name itself when it already shipped. */
export function toShippedConditionType(name: string): string {
  return HPA_CONDITION_NAME_MAP.find((m) => m.proposed === name)?.shipped ?? name;
}
