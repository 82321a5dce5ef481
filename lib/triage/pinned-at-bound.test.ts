import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api/autoscaler';
import { isPinnedAtBound } from './pinned-at-bound';

const withConditions = (conditions: { type: string; status: 'True' | 'False' | 'Unknown'; reason: string }[]): Autoscaler =>
  ({ conditions: conditions.map((c) => ({ ...c, message: null, lastTransitionTime: null, meaning: 'ok' })) }) as unknown as Autoscaler;

describe('isPinnedAtBound', () => {
  it('is ScalingLimited=True, whatever the reason; False, Unknown or absent is not', () => {
    expect(isPinnedAtBound(withConditions([{ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }]))).toBe(true);
    expect(isPinnedAtBound(withConditions([{ type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas' }]))).toBe(true);
    expect(isPinnedAtBound(withConditions([{ type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange' }]))).toBe(false);
    expect(isPinnedAtBound(withConditions([{ type: 'ScalingLimited', status: 'Unknown', reason: '' }]))).toBe(false);
    expect(isPinnedAtBound(withConditions([{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }]))).toBe(false);
  });
});
