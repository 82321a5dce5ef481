import type { Condition } from '@/lib/k8s/types';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** Condition lists as they arrive: `conditions` is `omitempty`, so absent and `null` both occur. */
export type ConditionList = readonly Condition[] | null | undefined;

/**
 * The status as one of the three values metav1 defines. Anything else (an empty string from a
 * half-written object, a lower-case "true" from a hand-made manifest) is `Unknown`, as
 * `meta.IsStatusConditionTrue` would also not treat it as True.
 */
export function toConditionStatus(status: string | null | undefined): ConditionStatus {
  return status === 'True' || status === 'False' ? status : 'Unknown';
}

/** The first condition of `type`; list-map semantics (`+listMapKey=type`) allow only one. */
export function findCondition(conditions: ConditionList, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** `Unknown` when the condition is absent, as `meta.IsStatusConditionPresentAndEqual` reads it. */
export function conditionStatus(conditions: ConditionList, type: string): ConditionStatus {
  return toConditionStatus(findCondition(conditions, type)?.status);
}

export function isConditionTrue(conditions: ConditionList, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

function transitionMs(c: Condition): number {
  const ms = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * The newest condition of `type` by lastTransitionTime, for lists that break list-map semantics:
 * cluster-autoscaler-operator PR #402 (`createOrUpdateMaCondition`) replaces an entry only when the
 * *reason* matches, so one MachineAutoscaler can carry several `Ready` entries. On a tie `False`
 * wins (docs/engines/machine.md §3), then `Unknown`, then `True`.
 */
export function newestCondition(conditions: ConditionList, type: string): Condition | undefined {
  const rank = (c: Condition): number => ({ False: 2, Unknown: 1, True: 0 })[toConditionStatus(c.status)];
  let best: Condition | undefined;
  for (const c of conditions ?? []) {
    if (c.type !== type) continue;
    if (!best) {
      best = c;
      continue;
    }
    const d = transitionMs(c) - transitionMs(best);
    if (d > 0 || (d === 0 && rank(c) > rank(best)) || (Number.isNaN(d) && rank(c) > rank(best))) best = c;
  }
  return best;
}
