import type { Transition } from '@/sim/world/ground-truth';

/** A row of Autoscope's `condition_transitions`, as the comparison reads it. */
export interface RecordedRow {
  seq: number;
  id: string;
  uid: string;
  type: string;
  status: string;
  reason: string | null;
  at: string;
  /** The resourceVersion of the object version the row was seen in. */
  resource_version: string | null;
}

export interface Comparison {
  total: number;
  recorded: number;
  unobservable: number;
  /** Not recorded: served to a process only in the moments before it was killed (see `lostInFlight`). */
  lostInFlight: number;
  missing: { id: string; type: string; status: string; reason: string; at: string; rv?: string }[];
  /** Rows whose state is not the one in effect at the object version they were seen in: never right. */
  inconsistent: { id: string; type: string; status: string; reason: string; at: string; resourceVersion: string | null; truth: string }[];
}

export interface CompareInput {
  /** Ground-truth transitions by `<autoscope id>|<condition type>`, in the order the simulator made them. */
  truthBy: Map<string, Transition[]>;
  /** Autoscope's rows by the same key, in the order they were written. */
  recordedBy: Map<string, RecordedRow[]>;
  /** Whether a transition was due to be seen by the end (it happened before what the API had served). */
  due: (t: Transition) => boolean;
  /** Proof that the state `t` began, lasting until `next`, was never served to Autoscope. */
  unobservableState: (t: Transition, next: Transition | undefined) => boolean;
  /**
   * Proof that the state `t` began, lasting until `next`, reached a process only just before it was killed
   * (still in the socket, the ingest queue or an uncommitted write when it died) and was replaced before any
   * other answer showed it: lost with the process, counted apart from both the unobservable and the missing.
   */
  lostInFlight?: (t: Transition, next: Transition | undefined) => boolean;
}

/**
 * Compares what Autoscope recorded with what the simulator did, condition by condition, by object version:
 * every ground-truth transition carries the resourceVersion of the write that made it, and every recorded
 * row the resourceVersion of the object version Autoscope saw it in. A row records the transition in
 * effect at its version (the latest one written at or before it); a row whose state differs from that one
 * recorded something that never was (`inconsistent`). The expected transitions start with the one in effect
 * at Autoscope's first sight and hold every later one that was due by the end.
 *
 * A transition no row records counts as unobservable when `unobservableState` proves it was never served,
 * or when it returned, behind such a state, to the state Autoscope already held (a flip and back that no
 * answer showed). A transition whose state reached only a process killed moments later counts as lost in
 * flight when `lostInFlight` proves it. Everything else is missing.
 */
export function compareWithTruth(input: CompareInput): Comparison {
  const out: Comparison = { total: 0, recorded: 0, unobservable: 0, lostInFlight: 0, missing: [], inconsistent: [] };
  for (const [key, list] of input.truthBy) {
    const [id = '', type = ''] = key.split('|');
    const mine = (input.recordedBy.get(key) ?? []).filter((r) => r.reason !== 'Deleted');
    if (mine.length === 0) continue; // never listed by Autoscope (a cluster it does not watch, an object gone before it started)
    const rvs = list.map((t) => Number(t.rv ?? NaN));
    /** The index of the transition in effect at object version `rv`: the last one written at or before it. */
    const inEffect = (rv: number): number => {
      let found = -1;
      for (let i = 0; i < rvs.length && (rvs[i] ?? Infinity) <= rv; i++) found = i;
      return found;
    };
    const matched = new Set<number>();
    for (const r of mine) {
      const at = inEffect(Number(r.resource_version ?? NaN));
      const t = list[at];
      if (t && t.status === r.status && t.reason === (r.reason ?? '')) matched.add(at);
      else
        out.inconsistent.push({
          id,
          type,
          status: r.status,
          reason: r.reason ?? '',
          at: r.at,
          resourceVersion: r.resource_version,
          truth: t ? `${t.status}/${t.reason} (rv ${t.rv})` : 'none',
        });
    }
    const startIdx = Math.max(0, inEffect(Number(mine[0]?.resource_version ?? NaN)));
    const decision: ('recorded' | 'unseen' | 'missing')[] = [];
    let believed: Transition | null = null;
    for (let i = startIdx; i < list.length; i++) {
      const t = list[i] as Transition;
      if (!input.due(t)) break;
      out.total += 1;
      const k = i - startIdx;
      if (matched.has(i)) {
        out.recorded += 1;
        decision[k] = 'recorded';
        believed = t;
        continue;
      }
      const prior: Transition | null = believed;
      const flipBack = k > 0 && decision[k - 1] === 'unseen' && prior !== null && prior.status === t.status && prior.reason === t.reason;
      if (input.unobservableState(t, list[i + 1]) || flipBack) {
        decision[k] = 'unseen';
        out.unobservable += 1;
      } else if (input.lostInFlight?.(t, list[i + 1])) {
        decision[k] = 'unseen';
        out.lostInFlight += 1;
      } else {
        decision[k] = 'missing';
        out.missing.push({ id, type, status: t.status, reason: t.reason, at: t.at, rv: t.rv });
      }
    }
  }
  return out;
}
