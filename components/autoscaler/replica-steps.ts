import type { HistoryResponse } from '@/lib/api';
import type { TimeRange } from './time-scale';

type Sample = HistoryResponse['replicas'][number];

/** One point of the replicas chart; the values hold until the next point (step lines). */
export interface ReplicaPoint {
  t: number;
  current: number | null;
  desired: number | null;
  min: number | null;
  max: number | null;
  /** The min–max band as recharts draws a range area. */
  band: [number, number] | null;
}

function toPoint(t: number, s: Sample): ReplicaPoint {
  return {
    t,
    current: s.current,
    desired: s.desired,
    min: s.min,
    max: s.max,
    band: s.min !== null && s.max !== null ? [s.min, s.max] : null,
  };
}

/**
 * Samples are change points (the store writes one when a value changes). The sample before the range starts the
 * chart at `from`; the last one is carried to the end of the range (or to `now`, whichever comes first).
 */
export function toReplicaSteps(samples: readonly Sample[], range: TimeRange, now: number): ReplicaPoint[] {
  const limit = Math.min(range.to, now);
  const sorted = [...samples].map((s) => ({ t: Date.parse(s.at), s })).sort((a, b) => a.t - b.t);
  const points: ReplicaPoint[] = [];
  for (const { t, s } of sorted) {
    if (t > limit) break;
    if (t < range.from) {
      points.length = 0;
      points.push(toPoint(range.from, s));
    } else {
      points.push(toPoint(t, s));
    }
  }
  const last = points[points.length - 1];
  if (last && last.t < limit) points.push({ ...last, t: limit });
  return points;
}

/** The values in force at `t` (the last change at or before it), or null before the first sample. */
export function replicasAt(points: readonly ReplicaPoint[], t: number): ReplicaPoint | null {
  let found: ReplicaPoint | null = null;
  for (const p of points) {
    if (p.t > t) break;
    found = p;
  }
  return found;
}
