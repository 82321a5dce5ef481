import type { AutoscalerKind, Health } from '@/lib/api/autoscaler';
import { toConditionStatus } from '@/lib/k8s/conditions';
import type { ConditionStatus } from '@/lib/k8s/conditions';
import { ALL_KINDS, CONDITIONS, REASONS, UNKNOWN_STATUS_MEANING } from '@/lib/triage/reasons';
import type { Meaning, MeaningFact } from '@/lib/triage/reasons';

export { HPA_KINDS } from '@/lib/triage/reasons';
export type { MeaningFact } from '@/lib/triage/reasons';

/**
 * What a condition *means* for health (docs/ui.md, "colour means health, not True/False"). The UI colours
 * every condition segment, badge and row from this table, and the health rules in `assess-*.ts` use the
 * same table, so a red segment and a failing row can never disagree. The table is derived from the reason
 * registry (reasons.ts); docs/health.md prints it.
 */

export interface MeaningRow {
  kinds: readonly AutoscalerKind[];
  type: string;
  status: ConditionStatus | '*';
  reason: string;
  meaning: Health;
  note: string;
  exception?: { fact: MeaningFact; meaning: Health; note: string };
  /** An ok meaning still worth telling the operator: raises an `info` problem. */
  notice?: boolean;
}

/**
 * A scale-down held by stabilization for longer than the longest window the API admits
 * (`stabilizationWindowSeconds` ≤ 3600, HPAScalingRules validation) means fresh, higher
 * recommendations keep arriving inside every window: the load oscillates.
 */
export const SCALE_DOWN_STABILIZED_LONG_SECONDS = 3600;

function toRow(kinds: readonly AutoscalerKind[], type: string, status: ConditionStatus | '*', reason: string, m: Meaning): MeaningRow {
  return {
    kinds,
    type,
    status,
    reason,
    meaning: m.health,
    note: m.note,
    ...(m.exception ? { exception: { fact: m.exception.fact, meaning: m.exception.health, note: m.exception.note } } : {}),
    ...(m.notice ? { notice: true } : {}),
  };
}

/**
 * First matching row wins: status Unknown first, then per condition (in lane order) the reasons with a
 * meaning of their own, then the condition's default per status.
 */
export const CONDITION_MEANINGS: readonly MeaningRow[] = [
  toRow(ALL_KINDS, '*', 'Unknown', '*', UNKNOWN_STATUS_MEANING),
  ...CONDITIONS.flatMap((c) => [
    ...Object.entries(REASONS).flatMap(([reason, r]) =>
      r.meaning && r.condition?.type === c.type ? [toRow(c.kinds, c.type, r.condition.status, reason, r.meaning)] : [],
    ),
    ...c.defaults.map((d) => toRow(c.kinds, c.type, d.status, '*', d.meaning)),
  ]),
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
