import type { Autoscaler } from '@/lib/api/autoscaler';

/** An autoscaler the controller is holding at a bound: `ScalingLimited=True` (at max, at min, or rate-limited). */
export function isPinnedAtBound(a: Autoscaler): boolean {
  return a.conditions.some((c) => c.type === 'ScalingLimited' && c.status === 'True');
}
