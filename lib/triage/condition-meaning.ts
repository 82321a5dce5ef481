import type { AutoscalerKind, Health } from '@/lib/api/autoscaler';
import { toConditionStatus } from '@/lib/k8s/conditions';
import type { ConditionStatus } from '@/lib/k8s/conditions';

/**
 * What a condition *means* for health (UI.md, "Colour means health, not True/False"). The UI colours
 * every condition segment, badge and row from this table, and the health rules in `assess-*.ts` use the
 * same table, so a red segment and a failing row can never disagree. docs/health.md prints it.
 */

/** Facts about the autoscaler that turn a row into its exception. */
export type MeaningFact = 'targetNotAtZero' | 'heldLong';

export interface MeaningRow {
  kinds: readonly AutoscalerKind[];
  type: string | '*';
  status: ConditionStatus | '*';
  reason: string | '*';
  meaning: Health;
  note: string;
  exception?: { fact: MeaningFact; meaning: Health; note: string };
  /** An ok meaning still worth telling the operator: raises an `info` problem. */
  notice?: boolean;
}

export const HPA_KINDS: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'FederatedHPA'];
const ALL_KINDS: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'FederatedHPA', 'MachineAutoscaler'];
const MACHINE: readonly AutoscalerKind[] = ['MachineAutoscaler'];

/**
 * A scale-down held by stabilization for longer than the longest window the API admits
 * (`stabilizationWindowSeconds` ≤ 3600, HPAScalingRules validation) means fresh, higher
 * recommendations keep arriving inside every window: the load oscillates.
 */
export const SCALE_DOWN_STABILIZED_LONG_SECONDS = 3600;

/** First matching row wins; rows with a concrete reason come before the `*` row of their type and status. */
export const CONDITION_MEANINGS: readonly MeaningRow[] = [
  { kinds: ALL_KINDS, type: '*', status: 'Unknown', reason: '*', meaning: 'unknown', note: 'status Unknown: the controller cannot tell (for MachineAutoscaler: the target is migrating)' },
  {
    kinds: HPA_KINDS,
    type: 'AbleToScale',
    status: 'True',
    reason: 'ScaleDownStabilized',
    meaning: 'ok',
    note: 'a scale-down waits for the stabilization window, as designed',
    exception: { fact: 'heldLong', meaning: 'degraded', note: 'held for an hour or more (longer than any stabilization window): the recommendations keep swinging' },
  },
  { kinds: HPA_KINDS, type: 'AbleToScale', status: 'True', reason: '*', meaning: 'ok', note: 'the scale subresource can be read and written' },
  { kinds: HPA_KINDS, type: 'AbleToScale', status: 'False', reason: '*', meaning: 'failing', note: 'the controller cannot read or update the target scale (FailedGetScale, FailedUpdateScale; Karmada: FailedGetScaleTargetRef, FailedGetBinding, FailedGetTargetClusters)' },
  {
    kinds: HPA_KINDS,
    type: 'ScalingActive',
    status: 'False',
    reason: 'ScalingDisabled',
    meaning: 'ok',
    note: 'the target was deliberately scaled to 0; the HPA waits until it has replicas again',
    notice: true,
    exception: { fact: 'targetNotAtZero', meaning: 'failing', note: 'the target is not at 0 replicas, so the condition is not a deliberate pause' },
  },
  { kinds: HPA_KINDS, type: 'ScalingActive', status: 'True', reason: '*', meaning: 'ok', note: 'a replica count was computed from the metrics' },
  { kinds: HPA_KINDS, type: 'ScalingActive', status: 'False', reason: '*', meaning: 'failing', note: 'no replica count can be computed (metrics or selector failing)' },
  { kinds: HPA_KINDS, type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas', meaning: 'ok', note: 'held at minReplicas: the workload needs less than its floor, which is what a floor is for' },
  { kinds: HPA_KINDS, type: 'ScalingLimited', status: 'True', reason: '*', meaning: 'degraded', note: 'the desired count was clamped: at maxReplicas (TooManyReplicas) or rate-limited (ScaleUpLimit, ScaleDownLimit)' },
  { kinds: HPA_KINDS, type: 'ScalingLimited', status: 'False', reason: '*', meaning: 'ok', note: 'the desired count is within range' },
  { kinds: HPA_KINDS, type: 'ScaledToZero', status: '*', reason: '*', meaning: 'ok', note: 'HPAScaleToZero fork condition: informational' },
  { kinds: MACHINE, type: 'Ready', status: 'True', reason: '*', meaning: 'ok', note: 'MachineAutoscaler ready for autoscaling' },
  { kinds: MACHINE, type: 'Ready', status: 'False', reason: '*', meaning: 'failing', note: 'the derived verdict found an error' },
];

export interface ConditionLike {
  type: string;
  status: string;
  reason?: string | null;
}

export interface MeaningFacts {
  /** The replicas the controller last saw; `ScalingDisabled` is deliberate only at 0. */
  currentReplicas?: number | null;
  /** How long the condition has held its current status and reason, as Autoscope observed it. */
  heldSeconds?: number | null;
}

function factHolds(fact: MeaningFact, facts: MeaningFacts): boolean {
  switch (fact) {
    case 'targetNotAtZero':
      return typeof facts.currentReplicas === 'number' && facts.currentReplicas > 0;
    case 'heldLong':
      return typeof facts.heldSeconds === 'number' && facts.heldSeconds >= SCALE_DOWN_STABILIZED_LONG_SECONDS;
  }
}

export function findMeaningRow(kind: AutoscalerKind, condition: ConditionLike): MeaningRow | undefined {
  const status = toConditionStatus(condition.status);
  return CONDITION_MEANINGS.find(
    (row) =>
      row.kinds.includes(kind) &&
      (row.type === '*' || row.type === condition.type) &&
      (row.status === '*' || row.status === status) &&
      (row.reason === '*' || row.reason === condition.reason),
  );
}

/**
 * The health a condition stands for. An absent condition, and a type this table does not know, are
 * `unknown` (grey): never borrow the colour of a neighbouring state.
 */
export function conditionMeaning(kind: AutoscalerKind, condition: ConditionLike | null | undefined, facts: MeaningFacts = {}): Health {
  if (!condition) return 'unknown';
  const row = findMeaningRow(kind, condition);
  if (!row) return 'unknown';
  return row.exception && factHolds(row.exception.fact, facts) ? row.exception.meaning : row.meaning;
}
