import { describe, expect, it } from 'vitest';
import type { HpaScalingRules } from '@/lib/k8s/types';
import type { Recommendation, ResolvedBehavior, ScaleEvent } from '@/lib/hpa/normalize';
import {
  calculateScaleDownLimitWithBehaviors,
  calculateScaleUpLimit,
  calculateScaleUpLimitWithScalingRules,
  convertDesiredReplicasWithBehaviorRate,
  convertDesiredReplicasWithRules,
  generateScaleDownRules,
  generateScaleUpRules,
  getReplicasChangePerPeriod,
  resolveBehavior,
  stabilizeRecommendation,
  stabilizeRecommendationWithBehaviors,
  storeScaleEvent,
} from '@/lib/hpa/normalize';

/** horizontal_test.go's normalization tables, with the test-only scaleUpLimitFactor of 8. */

const NOW_MS = Date.parse('2025-06-01T12:00:00Z');
const FACTOR = 8;
const MINIMUM = 4;
const ago = (seconds: number): number => NOW_MS - seconds * 1000;
const rec = (replicas: number, secondsAgo: number): Recommendation => ({ replicas, timestampMs: ago(secondsAgo) });

/** upstream: generateScalingRules(pods, podsPeriod, percent, percentPeriod, stabilizationWindow) */
function generateScalingRules(pods: number, podsPeriod: number, percent: number, percentPeriod: number, window: number): HpaScalingRules {
  return {
    stabilizationWindowSeconds: window,
    selectPolicy: 'Max',
    policies: [
      ...(pods ? [{ type: 'Pods', value: pods, periodSeconds: podsPeriod }] : []),
      ...(percent ? [{ type: 'Percent', value: percent, periodSeconds: percentPeriod }] : []),
    ],
  };
}

/** upstream: generateEventsUniformDistribution — events centred in equal segments of the last periodSeconds. */
function generateEventsUniformDistribution(rawEvents: number[], periodSeconds: number): ScaleEvent[] {
  const segment = periodSeconds / rawEvents.length;
  return rawEvents.map((change, idx) => ({
    replicaChange: change,
    timestampMs: ago(Math.trunc(periodSeconds - segment * (idx + 1) + segment / 2)),
    outdated: false,
  }));
}

describe('convertDesiredReplicasWithRules — TestConvertDesiredReplicasWithRules', () => {
  it.each([
    [5, 7, 3, 8, 7, 'DesiredWithinRange', 'prenormalized desired replicas within range'],
    [3, 1, 2, 8, 2, 'TooFewReplicas', 'prenormalized desired replicas < minReplicas'],
    [1, 0, 0, 10, 0, 'DesiredWithinRange', 'prenormalized desired zeroed replicas within range'],
    [20, 1000, 1, 10, 10, 'TooManyReplicas', 'maxReplicas is the limit because maxReplicas < scaleUpLimit'],
    [
      3,
      1000,
      1,
      2000,
      calculateScaleUpLimit(3, FACTOR, MINIMUM),
      'ScaleUpLimit',
      'scaleUpLimit is the limit because scaleUpLimit < maxReplicas',
    ],
  ] as const)(
    'TestConvertDesiredReplicasWithRules: current %i desired %i min %i max %i → %i %s (%s)',
    (current, desired, min, max, expected, reason, _annotation) => {
      const r = convertDesiredReplicasWithRules(current, desired, min, max, FACTOR, MINIMUM);
      expect([r.replicas, r.reason]).toEqual([expected, reason]);
    },
  );

  it('calculateScaleUpLimit uses max(factor × current, minimum): production factor 2 gives 8 from 4, 4 from 1', () => {
    expect([calculateScaleUpLimit(4, 2, 4), calculateScaleUpLimit(1, 2, 4), calculateScaleUpLimit(3, 8, 4)]).toEqual([8, 4, 24]);
  });
});

describe('limits with behavior — TestCalculateScaleUpLimitWithScalingRules / TestCalculateScaleDownLimitWithBehaviors', () => {
  const minPolicy = (): ResolvedBehavior['scaleUp'] => ({
    stabilizationWindowSeconds: 300,
    selectPolicy: 'Min',
    policies: [
      { type: 'Pods', value: 2, periodSeconds: 60 },
      { type: 'Percent', value: 50, periodSeconds: 60 },
    ],
  });
  it('TestCalculateScaleUpLimitWithScalingRules', () => {
    expect(calculateScaleUpLimitWithScalingRules(1, [], [], minPolicy(), NOW_MS)).toBe(2);
  });
  it('TestCalculateScaleDownLimitWithBehaviors', () => {
    expect(calculateScaleDownLimitWithBehaviors(5, [], [], minPolicy(), NOW_MS)).toBe(3);
  });
  it('selectPolicy Disabled forbids any change in that direction', () => {
    const disabled = { ...minPolicy(), selectPolicy: 'Disabled' };
    expect([
      calculateScaleUpLimitWithScalingRules(7, [], [], disabled, NOW_MS),
      calculateScaleDownLimitWithBehaviors(7, [], [], disabled, NOW_MS),
    ]).toEqual([7, 7]);
  });
});

describe('stabilizeRecommendation — TestNormalizeDesiredReplicas', () => {
  it.each([
    ['empty log', [], 5, 5, 1],
    ['stabilize', [rec(4, 120), rec(5, 60)], 3, 5, 3],
    ['no stabilize', [rec(1, 120), rec(2, 60)], 3, 3, 3],
    ['no stabilize - old recommendations', [rec(10, 600), rec(9, 540)], 3, 3, 2],
    ['stabilize - old recommendations', [rec(10, 600), rec(4, 60), rec(5, 120), rec(9, 540)], 3, 5, 4],
  ] as const)('TestNormalizeDesiredReplicas/%s', (_n, recommendations, proposal, expected, logLength) => {
    const r = stabilizeRecommendation([...recommendations], proposal, NOW_MS, 300_000);
    expect([r.stabilized, r.recommendations.length]).toEqual([expected, logLength]);
  });

  it('an entry exactly at the cutoff still counts (Before is strict)', () => {
    expect(stabilizeRecommendation([rec(9, 300)], 3, NOW_MS, 300_000).stabilized).toBe(9);
    expect(stabilizeRecommendation([rec(9, 301)], 3, NOW_MS, 300_000).stabilized).toBe(3);
  });
});

describe('stabilizeRecommendationWithBehaviors — TestNormalizeDesiredReplicasWithBehavior', () => {
  const cases: {
    name: string;
    recs: Recommendation[];
    current: number;
    proposal: number;
    expected: number;
    log?: number[];
    up?: number;
    down?: number;
  }[] = [
    { name: 'empty recommendations for scaling down', recs: [], current: 100, proposal: 5, expected: 5, log: [5] },
    {
      name: 'simple scale down stabilization',
      recs: [rec(4, 120), rec(5, 60)],
      current: 100,
      proposal: 3,
      expected: 5,
      log: [4, 5, 3],
      down: 180,
    },
    {
      name: 'simple scale up stabilization',
      recs: [rec(4, 120), rec(5, 60)],
      current: 1,
      proposal: 7,
      expected: 4,
      log: [4, 5, 7],
      up: 300,
    },
    {
      name: 'no scale down stabilization',
      recs: [rec(1, 120), rec(2, 60)],
      current: 100,
      proposal: 3,
      expected: 3,
      log: [1, 2, 3],
      up: 300,
    },
    { name: 'no scale up stabilization', recs: [rec(4, 120), rec(5, 60)], current: 1, proposal: 3, expected: 3, log: [4, 5, 3], down: 300 },
    {
      name: 'no scale down stabilization, reuse recommendation element',
      recs: [rec(10, 600), rec(9, 540)],
      current: 100,
      proposal: 3,
      expected: 3,
      log: [10, 3],
    },
    {
      name: 'no scale up stabilization, reuse recommendation element',
      recs: [rec(10, 600), rec(9, 540)],
      current: 1,
      proposal: 100,
      expected: 100,
      log: [10, 100],
    },
    {
      name: 'scale down stabilization, reuse one of obsolete recommendation element',
      recs: [rec(10, 600), rec(4, 60), rec(5, 120), rec(9, 540)],
      current: 100,
      proposal: 3,
      expected: 5,
      log: [10, 4, 5, 3],
      down: 180,
    },
    {
      name: 'scale up stabilization, reuse one of obsolete recommendation element',
      recs: [rec(10, 6000), rec(6, 60), rec(5, 120), rec(9, 180)],
      current: 1,
      proposal: 100,
      expected: 5,
      log: [100, 6, 5, 9],
      up: 300,
    },
    {
      name: 'scale up and down stabilization, do not scale up when prenormalized rec goes down',
      recs: [rec(2, 6000), rec(3, 180)],
      current: 2,
      proposal: 1,
      expected: 2,
      up: 300,
      down: 300,
    },
    {
      name: 'scale up and down stabilization, do not scale down when prenormalized rec goes up',
      recs: [rec(2, 6000), rec(1, 180)],
      current: 2,
      proposal: 3,
      expected: 2,
      up: 300,
      down: 300,
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('TestNormalizeDesiredReplicasWithBehavior/%s', (_n, c) => {
    const r = stabilizeRecommendationWithBehaviors(c.recs, c.current, c.proposal, c.up ?? 0, c.down ?? 0, NOW_MS);
    expect(r.stabilized).toBe(c.expected);
    if (c.log) expect(r.recommendations.map((x) => x.replicas)).toEqual(c.log);
  });

  it('names the direction: ScaleUpStabilized when the proposal is at or above current', () => {
    expect(stabilizeRecommendationWithBehaviors([rec(4, 120)], 1, 7, 300, 0, NOW_MS).reason).toBe('ScaleUpStabilized');
    expect(stabilizeRecommendationWithBehaviors([rec(5, 60)], 100, 3, 0, 180, NOW_MS).reason).toBe('ScaleDownStabilized');
  });
});

describe('convertDesiredReplicasWithBehaviorRate — TestScalingWithRules', () => {
  interface RuleCase {
    name: string;
    scaleUpEvents?: ScaleEvent[];
    scaleDownEvents?: ScaleEvent[];
    min: number;
    max: number;
    scaleUpRules?: HpaScalingRules;
    scaleDownRules?: HpaScalingRules;
    current: number;
    desired: number;
    expected: number;
    reason: string;
  }
  const up = (raw: number[]) => generateEventsUniformDistribution(raw, 120);
  const cases: RuleCase[] = [
    {
      name: 'prenormalized desired replicas within range',
      current: 5,
      desired: 7,
      min: 3,
      max: 8,
      expected: 7,
      reason: 'DesiredWithinRange',
    },
    { name: 'prenormalized desired replicas < minReplicas', current: 3, desired: 1, min: 2, max: 8, expected: 2, reason: 'TooFewReplicas' },
    {
      name: 'prenormalized desired replicas within range when minReplicas is 0',
      current: 1,
      desired: 0,
      min: 0,
      max: 10,
      expected: 0,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'maxReplicas is the limit because maxReplicas < scaleUpLimit',
      current: 20,
      desired: 1000,
      min: 1,
      max: 10,
      expected: 10,
      reason: 'TooManyReplicas',
    },
    {
      name: 'desired replica count is more than the maximum replica count',
      current: 100,
      desired: 1000,
      min: 100,
      max: 150,
      expected: 150,
      reason: 'TooManyReplicas',
    },
    {
      name: 'scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies',
      current: 3,
      desired: 1000,
      min: 1,
      max: 2000,
      expected: 4,
      reason: 'ScaleUpLimit',
      scaleUpRules: generateScalingRules(0, 0, 1, 60, 0),
    },
    { name: 'scaleUp with default behavior', min: 1, max: 1000, current: 10, desired: 50, expected: 20, reason: 'ScaleUpLimit' },
    {
      name: 'scaleUp with pods policy larger than percent policy',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(100, 60, 100, 60, 0),
      current: 10,
      desired: 500,
      expected: 110,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy larger than pods policy',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(2, 60, 100, 60, 0),
      current: 10,
      desired: 500,
      expected: 20,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with spec MaxReplicas limitation with large pod policy',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(100, 60, 0, 0, 0),
      current: 10,
      desired: 50,
      expected: 50,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'scaleUp with spec MaxReplicas limitation with large percent policy',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(10000, 60, 0, 0, 0),
      current: 10,
      desired: 50,
      expected: 50,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'scaleUp with pod policy limitation',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(30, 60, 0, 0, 0),
      current: 10,
      desired: 50,
      expected: 40,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy limitation',
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(0, 0, 200, 60, 0),
      current: 10,
      desired: 50,
      expected: 30,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleDown with percent policy larger than pod policy',
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(20, 60, 1, 60, 300),
      current: 100,
      desired: 2,
      expected: 80,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with pod policy larger than percent policy',
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(2, 60, 1, 60, 300),
      current: 100,
      desired: 2,
      expected: 98,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with spec MinReplicas limitation with large pod policy',
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(100, 60, 0, 0, 300),
      current: 10,
      desired: 0,
      expected: 1,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with spec MinReplicas limitation with large percent policy',
      min: 5,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 100, 60, 300),
      current: 10,
      desired: 2,
      expected: 5,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with pod policy limitation',
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(5, 60, 0, 0, 300),
      current: 10,
      desired: 2,
      expected: 5,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with percent policy limitation',
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 50, 60, 300),
      current: 10,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'scaleUp with spec MaxReplicas limitation with large pod policy and events',
      scaleUpEvents: up([1, 5, 9]),
      min: 1,
      max: 200,
      scaleUpRules: generateScalingRules(300, 60, 0, 0, 0),
      current: 100,
      desired: 500,
      expected: 200,
      reason: 'TooManyReplicas',
    },
    {
      name: 'scaleUp with spec MaxReplicas limitation with large percent policy and events',
      scaleUpEvents: up([1, 5, 9]),
      min: 1,
      max: 200,
      scaleUpRules: generateScalingRules(0, 0, 10000, 60, 0),
      current: 100,
      desired: 500,
      expected: 200,
      reason: 'TooManyReplicas',
    },
    {
      name: 'scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events',
      scaleUpEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(5, 120, 0, 0, 0),
      current: 100,
      desired: 500,
      expected: 100,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with pod policy and previous scale up events',
      scaleUpEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(150, 120, 0, 0, 0),
      current: 100,
      desired: 500,
      expected: 235,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy and previous scale up events',
      scaleUpEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(0, 0, 200, 120, 0),
      current: 100,
      desired: 500,
      expected: 255,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleUp with percent policy and previous scale up and down events',
      scaleUpEvents: up([4]),
      scaleDownEvents: up([2]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(0, 0, 300, 300, 0),
      current: 6,
      desired: 24,
      expected: 16,
      reason: 'ScaleUpLimit',
    },
    {
      name: 'scaleDown with default policy and previous events',
      scaleDownEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      current: 10,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
    {
      name: 'scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events',
      scaleDownEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(115, 120, 0, 0, 300),
      current: 100,
      desired: 0,
      expected: 1,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with spec MinReplicas limitation with large pod policy and previous events',
      scaleDownEvents: up([1, 5, 9]),
      min: 5,
      max: 1000,
      scaleDownRules: generateScalingRules(130, 120, 0, 0, 300),
      current: 100,
      desired: 0,
      expected: 5,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with spec MinReplicas limitation with large percent policy and previous events',
      scaleDownEvents: up([1, 5, 9]),
      min: 5,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 100, 120, 300),
      current: 100,
      desired: 2,
      expected: 5,
      reason: 'TooFewReplicas',
    },
    {
      name: 'scaleDown with pod policy limitation and previous events',
      scaleDownEvents: up([1, 5, 9]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(5, 120, 0, 0, 300),
      current: 100,
      desired: 2,
      expected: 100,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with percent policy limitation and previous events',
      scaleDownEvents: up([2, 4, 6]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 50, 120, 300),
      current: 100,
      desired: 0,
      expected: 56,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with percent policy and previous scale up and down events',
      scaleUpEvents: up([2]),
      scaleDownEvents: up([4]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 50, 180, 0),
      current: 10,
      desired: 1,
      expected: 6,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with previous events preventing further scale down',
      scaleDownEvents: up([10, 10, 10]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 10, 120, 300),
      current: 100,
      desired: 0,
      expected: 100,
      reason: 'ScaleDownLimit',
    },
    {
      name: 'scaleDown with with previous events still allowing more scale down',
      scaleDownEvents: up([10, 10, 10]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(0, 0, 1000, 120, 300),
      current: 10,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check 'outdated' flag for events for one behavior for up",
      scaleUpEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(1000, 60, 0, 0, 0),
      current: 100,
      desired: 200,
      expected: 200,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check that events were not marked 'outdated' for two different policies in the behavior for up",
      scaleUpEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(1000, 120, 100, 60, 0),
      current: 100,
      desired: 200,
      expected: 200,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check that events were marked 'outdated' for two different policies in the behavior for up",
      scaleUpEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleUpRules: generateScalingRules(1000, 30, 100, 60, 0),
      current: 100,
      desired: 200,
      expected: 200,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check 'outdated' flag for events for one behavior for down",
      scaleDownEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(1000, 60, 0, 0, 300),
      current: 100,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check that events were not marked 'outdated' for two different policies in the behavior for down",
      scaleDownEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(1000, 120, 100, 60, 300),
      current: 100,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
    {
      name: "check that events were marked 'outdated' for two different policies in the behavior for down",
      scaleDownEvents: up([8, 12, 9, 11]),
      min: 1,
      max: 1000,
      scaleDownRules: generateScalingRules(1000, 30, 100, 60, 300),
      current: 100,
      desired: 5,
      expected: 5,
      reason: 'DesiredWithinRange',
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('TestScalingWithRules/%s', (_n, c) => {
    const behavior: ResolvedBehavior = {
      scaleUp: generateScaleUpRules(c.scaleUpRules),
      scaleDown: generateScaleDownRules(c.scaleDownRules),
    };
    const r = convertDesiredReplicasWithBehaviorRate(
      c.current,
      c.desired,
      c.min,
      c.max,
      behavior,
      c.scaleUpEvents ?? [],
      c.scaleDownEvents ?? [],
      NOW_MS,
    );
    expect([r.replicas, r.reason]).toEqual([c.expected, c.reason]);
  });
});

describe('storeScaleEvent — TestStoreScaleEvents', () => {
  const ev = (replicaChange: number, secondsAgo: number, outdated = false): ScaleEvent => ({
    replicaChange,
    timestampMs: ago(secondsAgo),
    outdated,
  });
  const cases: { name: string; prev: ScaleEvent[]; next: [number, boolean][]; rules?: HpaScalingRules; expectedChange: number }[] = [
    { name: 'empty entries with default behavior', prev: [], next: [], expectedChange: 0 },
    {
      name: 'empty entries with two-policy-behavior',
      prev: [],
      next: [[5, false]],
      rules: generateScalingRules(10, 60, 100, 60, 0),
      expectedChange: 0,
    },
    { name: 'one outdated entry to be kept untouched without behavior', prev: [ev(7, 61)], next: [[7, false]], expectedChange: 0 },
    {
      name: 'one outdated entry to be replaced with behavior',
      prev: [ev(7, 61)],
      next: [[5, false]],
      rules: generateScalingRules(10, 60, 100, 60, 0),
      expectedChange: 0,
    },
    {
      name: 'one actual entry to be not touched with behavior',
      prev: [ev(7, 58)],
      next: [
        [7, false],
        [5, false],
      ],
      rules: generateScalingRules(10, 60, 100, 60, 0),
      expectedChange: 7,
    },
    {
      name: 'two entries, one of them to be replaced',
      prev: [ev(7, 61), ev(6, 59)],
      next: [
        [5, false],
        [6, false],
      ],
      rules: generateScalingRules(10, 60, 0, 0, 0),
      expectedChange: 6,
    },
    {
      name: 'replace one entry, use policies with different periods',
      prev: [ev(8, 29), ev(6, 59), ev(7, 61), ev(9, 61)],
      next: [
        [8, false],
        [6, false],
        [7, true],
        [5, false],
      ],
      rules: generateScalingRules(10, 60, 100, 30, 0),
      expectedChange: 14,
    },
    {
      name: 'two entries, both actual',
      prev: [ev(7, 58), ev(6, 59)],
      next: [
        [7, false],
        [6, false],
        [5, false],
      ],
      rules: generateScalingRules(10, 120, 100, 30, 0),
      expectedChange: 13,
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('TestStoreScaleEvents/%s', (_n, c) => {
    expect(getReplicasChangePerPeriod(60, c.prev, NOW_MS)).toBe(c.expectedChange);
    const upBehavior = c.rules ? resolveBehavior({ scaleUp: c.rules }) : null;
    const upStored = storeScaleEvent(upBehavior, c.prev, [], 10, 15, NOW_MS).scaleUpEvents;
    expect(upStored.map((e) => [e.replicaChange, e.outdated])).toEqual(c.next);
    const downBehavior = c.rules ? resolveBehavior({ scaleDown: c.rules }) : null;
    const downStored = storeScaleEvent(downBehavior, [], c.prev, 10, 5, NOW_MS).scaleDownEvents;
    expect(downStored.map((e) => [e.replicaChange, e.outdated])).toEqual(c.next);
  });
});

describe('behavior defaults — defaults.go', () => {
  it('fills both directions only when behavior is set, field by field, policies as a whole', () => {
    expect(resolveBehavior(null)).toBeNull();
    expect(resolveBehavior({ scaleUp: { stabilizationWindowSeconds: 60 } })).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 60,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: null, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
    expect(generateScaleDownRules({ policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], tolerance: '0.05' })).toEqual({
      stabilizationWindowSeconds: null,
      selectPolicy: 'Max',
      policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }],
      tolerance: '0.05',
    });
  });
});
