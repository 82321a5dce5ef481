/**
 * What Autoscope knows about when a condition's current state began, from its recorded history.
 * `start`: where the open segment starts — the condition's own `lastTransitionTime` for a status flip or a
 * first sight, the first observation for a reason change. `reasonSince`: since when the status *and* the
 * reason are known to have held — `start` for a change Autoscope saw happen, the first sight otherwise.
 */
export interface OpenSegment {
  type: string;
  status: string;
  start: string;
  reasonSince: string;
}

/**
 * When the condition's current state began, for the "since" clocks of triage (how long a problem has
 * held). `AbleToScale=True` changes its reason on routine syncs (ReadyForNewScale → ScaleDownStabilized →
 * SucceededRescale, upstream horizontal.go) without a status flip, so its lastTransitionTime dates nothing
 * about the reason: there the observation of the reason counts. For every other condition the status
 * carries the meaning, and the segment start is the truth.
 */
export function conditionSince(segment: OpenSegment): string {
  return segment.type === 'AbleToScale' && segment.status === 'True' ? segment.reasonSince : segment.start;
}
