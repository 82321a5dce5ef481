import 'server-only';
import type { AutoscalerKind, ClusterState, ConditionSegment, HistoryResponse, Transition } from '@/lib/api';
import { conditionMeaning } from '@/lib/triage';

/** A stored transition as the timeline reads it, ordered by type, then time, then the order it was written. */
export interface SegmentStartRow {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string | null;
  message: string | null;
  at: string;
}

/**
 * Condition segments inside [from, to] from every transition of one object: each transition starts a segment
 * and ends the one before it; the "Deleted" markers only end segments.
 */
export function conditionSegments(
  kind: AutoscalerKind,
  rows: readonly SegmentStartRow[],
  from: string,
  to: string,
): HistoryResponse['conditions'] {
  const byType = new Map<string, ConditionSegment[]>();
  for (const r of rows) {
    const list = byType.get(r.type) ?? [];
    const previous = list[list.length - 1];
    if (previous && previous.end === null) previous.end = r.at;
    list.push({
      status: r.status,
      reason: r.reason,
      message: r.message,
      meaning: conditionMeaning(kind, { type: r.type, status: r.status, reason: r.reason ?? undefined }),
      start: r.at,
      end: null,
    });
    byType.set(r.type, list);
  }
  return [...byType.entries()].map(([type, segments]) => ({
    type,
    segments: segments.filter((s) => s.start <= to && (s.end === null || s.end >= from) && s.reason !== 'Deleted'),
  }));
}

/**
 * A cluster's outages inside [from, to], from its recorded states in the order they were recorded: an outage's
 * row is dated back to when the cluster last answered, which can be before the row recorded just ahead of it
 * (a degraded spell that turned into an outage).
 */
export function clusterGaps(states: readonly { state: ClusterState; at: string }[], from: string, to: string): HistoryResponse['gaps'] {
  const gaps: HistoryResponse['gaps'] = [];
  states.forEach((s, i) => {
    if (s.state !== 'unreachable') return;
    const end = states.slice(i + 1).find((n) => n.state !== 'unreachable')?.at ?? null;
    if (s.at <= to && (end === null || end >= from)) gaps.push({ start: s.at, end, state: s.state });
  });
  return gaps;
}

export type TransitionRowRead = Omit<Transition, 'meaning' | 'previous' | 'notable'> & {
  kind: AutoscalerKind;
  prevStatus: Transition['status'] | null;
  prevReason: string | null;
  notable: boolean | number;
};

/** Stored transitions as the fleet feed serves them, each with the state it replaced and what both mean. */
export function toTransitions(rows: readonly TransitionRowRead[]): Transition[] {
  return rows.map(({ prevStatus, prevReason, notable, ...r }) => ({
    ...r,
    meaning: conditionMeaning(r.kind, { type: r.type, status: r.status, reason: r.reason ?? undefined }),
    previous: prevStatus
      ? {
          status: prevStatus,
          reason: prevReason,
          meaning: conditionMeaning(r.kind, { type: r.type, status: prevStatus, reason: prevReason ?? undefined }),
        }
      : null,
    notable: notable === true || notable === 1,
  }));
}
