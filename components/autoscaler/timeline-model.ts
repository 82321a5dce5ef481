import type { AutoscalerKind, ConditionSegment, Health, HistoryResponse } from '@/lib/api';
import { CONDITION_LANES } from '@/lib/triage/reasons';
import type { TimeRange } from './time-scale';

/** One swimlane per condition type, in the registry's lane order; other types a controller reports follow, by name. */

export function laneOrder(kind: AutoscalerKind, reported: readonly string[]): string[] {
  const fixed = CONDITION_LANES[kind];
  return [...fixed, ...[...new Set(reported)].filter((t) => !fixed.includes(t)).sort()];
}

/** Why a stretch of a lane is unknown: drawn hatched, never as the neighbouring state. */
export type UnknownCause = 'before-first-seen' | 'unreachable' | 'not-reported';

export type LanePiece =
  | { kind: 'state'; start: number; end: number; open: boolean; segment: ConditionSegment }
  | { kind: 'unknown'; start: number; end: number; cause: UnknownCause }
  /** Several state changes too narrow to draw apart at this zoom; coloured by the worst of them. */
  | { kind: 'cluster'; start: number; end: number; count: number; worst: Health; reasons: string[] };

type Gap = HistoryResponse['gaps'][number];

/** Removes [cutStart, cutEnd) from the state pieces. */
function cut(pieces: LanePiece[], cutStart: number, cutEnd: number): LanePiece[] {
  return pieces.flatMap((p) => {
    if (p.end <= cutStart || p.start >= cutEnd) return [p];
    const out: LanePiece[] = [];
    if (p.start < cutStart) out.push({ ...p, end: cutStart, ...(p.kind === 'state' ? { open: false } : {}) });
    if (p.end > cutEnd) out.push({ ...p, start: cutEnd });
    return out;
  });
}

/**
 * One lane's pieces across the range, from its condition segments: each segment clipped to the range and to
 * `now`; a period when the cluster was unreachable (`gaps`) cut out and drawn unknown; whatever no segment
 * covers drawn unknown too (before Autoscope first saw the object, or while the controller did not report the
 * condition). A segment that starts before `firstSeen` keeps its start: it comes from the condition's own
 * `lastTransitionTime`, which the object itself vouches for.
 */
export function toLanePieces(
  segments: readonly ConditionSegment[],
  gaps: readonly Gap[],
  firstSeen: string | null,
  range: TimeRange,
  now: number,
): LanePiece[] {
  const limit = Math.min(range.to, now);
  if (limit <= range.from) return [];
  let pieces: LanePiece[] = segments
    .map((segment): LanePiece => {
      const start = Date.parse(segment.start);
      const end = segment.end === null ? limit : Date.parse(segment.end);
      return { kind: 'state', start: Math.max(range.from, start), end: Math.min(limit, end), open: segment.end === null, segment };
    })
    .filter((p) => p.end > p.start)
    .sort((a, b) => a.start - b.start);

  const gapPieces: LanePiece[] = [];
  for (const g of gaps) {
    const start = Math.max(range.from, Date.parse(g.start));
    const end = Math.min(limit, g.end === null ? limit : Date.parse(g.end));
    if (end <= start) continue;
    pieces = cut(pieces, start, end);
    gapPieces.push({ kind: 'unknown', start, end, cause: 'unreachable' });
  }
  const covered = [...pieces, ...gapPieces].sort((a, b) => a.start - b.start);

  const seen = firstSeen ? Date.parse(firstSeen) : null;
  const out: LanePiece[] = [];
  let cursor = range.from;
  const fill = (until: number): void => {
    if (until <= cursor) return;
    // Split an uncovered stretch at firstSeen: before it nothing was watched, after it nothing was reported.
    if (seen !== null && seen > cursor && seen < until) {
      out.push({ kind: 'unknown', start: cursor, end: seen, cause: 'before-first-seen' });
      out.push({ kind: 'unknown', start: seen, end: until, cause: 'not-reported' });
    } else {
      out.push({
        kind: 'unknown',
        start: cursor,
        end: until,
        cause: seen === null || until <= seen ? 'before-first-seen' : 'not-reported',
      });
    }
  };
  for (const p of covered) {
    fill(p.start);
    out.push(p.start < cursor ? { ...p, start: cursor } : p);
    cursor = Math.max(cursor, p.end);
  }
  fill(limit);
  return out.filter((p) => p.end > p.start);
}

const WORST: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

/**
 * Runs of at least `minRun` state pieces, each narrower than `minFraction` of the range, become one cluster piece:
 * a 30-day window of a flapping condition would otherwise be thousands of one-pixel buttons. Zooming in (the
 * cluster is a button that zooms to itself) brings the individual segments back.
 */
export function coalesceSlivers(pieces: readonly LanePiece[], span: number, minFraction = 0.004, minRun = 3): LanePiece[] {
  const out: LanePiece[] = [];
  let run: Extract<LanePiece, { kind: 'state' }>[] = [];
  const flush = (): void => {
    if (run.length >= minRun) {
      const first = run[0];
      const last = run[run.length - 1];
      if (first && last) {
        const worst = WORST.find((h) => run.some((p) => p.segment.meaning === h)) ?? 'unknown';
        const reasons = [...new Set(run.map((p) => `${p.segment.status}${p.segment.reason ? ` ${p.segment.reason}` : ''}`))];
        out.push({ kind: 'cluster', start: first.start, end: last.end, count: run.length, worst, reasons });
      }
    } else out.push(...run);
    run = [];
  };
  for (const p of pieces) {
    // The open segment is the current state: always drawn on its own.
    if (p.kind === 'state' && !p.open && (p.end - p.start) / span < minFraction) run.push(p);
    else {
      flush();
      out.push(p);
    }
  }
  flush();
  return out;
}

export const unknownCauseText: Record<UnknownCause, string> = {
  'before-first-seen': 'No history: Autoscope was not watching this object yet (or was not running)',
  unreachable: 'No history: the cluster was unreachable',
  'not-reported': 'No history: the condition was not reported, or Autoscope was not recording',
};
