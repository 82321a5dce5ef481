import type { Condition } from '@/lib/k8s/types';
import type { ReadyVerdict } from './types';
import { READY_CONDITION } from './keys';

/** On equal timestamps the more alarming status wins (docs/engines/machine.md §3: "on a tie prefer False"). */
const TIE_RANK: Record<ReadyVerdict['status'], number> = { False: 2, Unknown: 1, True: 0 };

function toStatus(value: unknown): ReadyVerdict['status'] {
  return value === 'True' || value === 'False' ? value : 'Unknown';
}

function transitionTime(condition: Condition): number {
  const parsed = typeof condition.lastTransitionTime === 'string' ? Date.parse(condition.lastTransitionTime) : Number.NaN;
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

/**
 * The operator's own Ready condition, read defensively. PR #402's `createOrUpdateMaCondition` replaces an entry
 * only when the *reason* matches and appends otherwise, so several `type: Ready` entries can coexist and
 * contradict each other. Take the newest by lastTransitionTime; on a tie prefer False, then Unknown; on a full
 * tie the later entry, which that function appended last. Entries without a parsable time count as oldest.
 */
export function toOperatorReady(conditions: readonly (Condition | null | undefined)[] | null | undefined): ReadyVerdict | null {
  if (!conditions) return null;
  let best: { condition: Condition; time: number; status: ReadyVerdict['status'] } | null = null;
  for (const condition of conditions) {
    if (condition === null || typeof condition !== 'object' || condition.type !== READY_CONDITION) continue;
    const candidate = { condition, time: transitionTime(condition), status: toStatus(condition.status) };
    if (
      best === null ||
      candidate.time > best.time ||
      (candidate.time === best.time && TIE_RANK[candidate.status] >= TIE_RANK[best.status])
    ) {
      best = candidate;
    }
  }
  if (best === null) return null;
  const verdict: ReadyVerdict = {
    status: best.status,
    reason: typeof best.condition.reason === 'string' ? best.condition.reason : '',
    message: typeof best.condition.message === 'string' ? best.condition.message : '',
  };
  if (typeof best.condition.lastTransitionTime === 'string') verdict.lastTransitionTime = best.condition.lastTransitionTime;
  return verdict;
}
