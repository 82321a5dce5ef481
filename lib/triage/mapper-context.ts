/** What the server knows about an object beyond the API: staleness and the history it observed. */
export interface MapperContext {
  /** The cluster is unreachable and the object is from its last sync. */
  stale: boolean;
  /**
   * Per condition type, when its current status *and reason* began, as Autoscope observed it. The API's
   * `lastTransitionTime` moves only when the status flips (horizontal.go setCondition), so it cannot tell
   * when a reason began; it is the fallback.
   */
  conditionSince?: Record<string, string>;
  /** When desiredReplicas ≠ currentReplicas began; null or absent when unknown. */
  replicasMismatchSince?: string | null;
  /** Per problem code, when Autoscope first saw it (MachineAutoscaler findings carry no time of their own). */
  problemSince?: Record<string, string>;
}

/** `now` as callers pass it: an RFC 3339 string or epoch milliseconds. */
export type Instant = string | number;

export function toEpochMs(t: Instant): number {
  return typeof t === 'number' ? t : Date.parse(t);
}

/** Whole seconds from `since` to `nowMs`, or null when `since` is missing or unparsable. */
export function secondsSince(since: string | null | undefined, nowMs: number): number | null {
  if (!since) return null;
  const ms = Date.parse(since);
  return Number.isNaN(ms) || Number.isNaN(nowMs) ? null : Math.floor((nowMs - ms) / 1000);
}
