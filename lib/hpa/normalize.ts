import type { HpaBehavior, HpaScalingPolicy, HpaScalingRules } from '@/lib/k8s/types';
import { goInt32 } from '@/lib/hpa/replica-calculator';

/**
 * Normalization of the metrics proposal, ported from horizontal.go (normalizeDesiredReplicas,
 * normalizeDesiredReplicasWithBehaviors and their helpers) and the API defaults of
 * pkg/apis/autoscaling/v2/defaults.go. Times are epoch milliseconds.
 */

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

export interface Recommendation {
  replicas: number;
  timestampMs: number;
}

export interface ScaleEvent {
  replicaChange: number;
  timestampMs: number;
  outdated: boolean;
}

/** HPAScalingRules after defaulting: every field but the scale-down window is set. */
export interface ResolvedScalingRules {
  stabilizationWindowSeconds: number | null;
  selectPolicy: string;
  policies: HpaScalingPolicy[];
  tolerance?: HpaScalingRules['tolerance'];
}

export interface ResolvedBehavior {
  scaleUp: ResolvedScalingRules;
  scaleDown: ResolvedScalingRules;
}

/** upstream defaults.go: defaultHPAScaleUpRules */
export function defaultScaleUpRules(): ResolvedScalingRules {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** upstream defaults.go: defaultHPAScaleDownRules (the window stays nil: the controller flag fills it). */
export function defaultScaleDownRules(): ResolvedScalingRules {
  return { stabilizationWindowSeconds: null, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** upstream: copyHPAScalingRules — a user-set field replaces the default field, `policies` as a whole list. */
function copyScalingRules(from: HpaScalingRules | null | undefined, to: ResolvedScalingRules): ResolvedScalingRules {
  if (!from) return to;
  const result: ResolvedScalingRules = { ...to };
  if (from.selectPolicy !== undefined && from.selectPolicy !== null) result.selectPolicy = from.selectPolicy;
  if (from.stabilizationWindowSeconds !== undefined && from.stabilizationWindowSeconds !== null)
    result.stabilizationWindowSeconds = from.stabilizationWindowSeconds;
  if (from.policies !== undefined && from.policies !== null) result.policies = from.policies.map((p) => ({ ...p }));
  if (from.tolerance !== undefined && from.tolerance !== null) result.tolerance = from.tolerance;
  return result;
}

/** upstream: GenerateHPAScaleUpRules */
export function generateScaleUpRules(rules: HpaScalingRules | null | undefined): ResolvedScalingRules {
  return copyScalingRules(rules, defaultScaleUpRules());
}

/** upstream: GenerateHPAScaleDownRules */
export function generateScaleDownRules(rules: HpaScalingRules | null | undefined): ResolvedScalingRules {
  return copyScalingRules(rules, defaultScaleDownRules());
}

/** upstream: SetDefaults_HorizontalPodAutoscalerBehavior — defaults are filled only when `behavior` is set. */
export function resolveBehavior(behavior: HpaBehavior | null | undefined): ResolvedBehavior | null {
  if (!behavior) return null;
  return { scaleUp: generateScaleUpRules(behavior.scaleUp), scaleDown: generateScaleDownRules(behavior.scaleDown) };
}

export interface LimitResult {
  replicas: number;
  reason: string;
  message: string;
}

/** upstream: stabilizeRecommendation (legacy path: downscale only, entries exactly at the cutoff count). */
export function stabilizeRecommendation(
  recommendations: Recommendation[],
  proposal: number,
  nowMs: number,
  windowMs: number,
): { stabilized: number; recommendations: Recommendation[] } {
  let max = proposal;
  let oldIndex = -1;
  const cutoff = nowMs - windowMs;
  recommendations.forEach((rec, i) => {
    if (rec.timestampMs < cutoff) oldIndex = i;
    else if (rec.replicas > max) max = rec.replicas;
  });
  const next = recommendations.map((r) => ({ ...r }));
  const entry = { replicas: proposal, timestampMs: nowMs };
  if (oldIndex >= 0) next[oldIndex] = entry;
  else next.push(entry);
  return { stabilized: max, recommendations: next };
}

/** upstream: calculateScaleUpLimit — max(factor × current, minimum), per sync, with no time period. */
export function calculateScaleUpLimit(currentReplicas: number, factor: number, minimum: number): number {
  return goInt32(Math.max(factor * currentReplicas, minimum));
}

/** upstream: convertDesiredReplicasWithRules (legacy path). */
export function convertDesiredReplicasWithRules(
  currentReplicas: number,
  desiredReplicas: number,
  minReplicas: number,
  maxReplicas: number,
  factor: number,
  minimum: number,
): LimitResult {
  const scaleUpLimit = calculateScaleUpLimit(currentReplicas, factor, minimum);
  let maximumAllowed: number;
  let reason: string;
  let message: string;
  if (maxReplicas > scaleUpLimit) {
    maximumAllowed = scaleUpLimit;
    reason = 'ScaleUpLimit';
    message = 'the desired replica count is increasing faster than the maximum scale rate';
  } else {
    maximumAllowed = maxReplicas;
    reason = 'TooManyReplicas';
    message = 'the desired replica count is more than the maximum replica count';
  }
  if (desiredReplicas < minReplicas) {
    return { replicas: minReplicas, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  }
  if (desiredReplicas > maximumAllowed) return { replicas: maximumAllowed, reason, message };
  return { replicas: desiredReplicas, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

export interface StabilizeWithBehaviorsResult {
  stabilized: number;
  reason: string;
  message: string;
  recommendations: Recommendation[];
  upRecommendation: number;
  downRecommendation: number;
}

/**
 * upstream: stabilizeRecommendationWithBehaviors. Strict comparisons: with a window of 0 no stored entry
 * counts. The log keeps the unstabilized proposals for both directions.
 */
export function stabilizeRecommendationWithBehaviors(
  recommendations: Recommendation[],
  currentReplicas: number,
  desiredReplicas: number,
  upWindowSeconds: number,
  downWindowSeconds: number,
  nowMs: number,
): StabilizeWithBehaviorsResult {
  let upRecommendation = desiredReplicas;
  let downRecommendation = desiredReplicas;
  const upCutoff = nowMs - upWindowSeconds * 1000;
  const downCutoff = nowMs - downWindowSeconds * 1000;
  let oldIndex = -1;
  recommendations.forEach((rec, i) => {
    if (rec.timestampMs > upCutoff) upRecommendation = Math.min(rec.replicas, upRecommendation);
    if (rec.timestampMs > downCutoff) downRecommendation = Math.max(rec.replicas, downRecommendation);
    if (rec.timestampMs < upCutoff && rec.timestampMs < downCutoff) oldIndex = i;
  });
  let recommendation = currentReplicas;
  if (recommendation < upRecommendation) recommendation = upRecommendation;
  if (recommendation > downRecommendation) recommendation = downRecommendation;

  const next = recommendations.map((r) => ({ ...r }));
  const entry = { replicas: desiredReplicas, timestampMs: nowMs };
  if (oldIndex >= 0) next[oldIndex] = entry;
  else next.push(entry);

  const up = desiredReplicas >= currentReplicas;
  return {
    stabilized: recommendation,
    reason: up ? 'ScaleUpStabilized' : 'ScaleDownStabilized',
    message: up
      ? 'recent recommendations were lower than current one, applying the lowest recent recommendation'
      : 'recent recommendations were higher than current one, applying the highest recent recommendation',
    recommendations: next,
    upRecommendation,
    downRecommendation,
  };
}

/** upstream: getReplicasChangePerPeriod (events strictly after now − period count). */
export function getReplicasChangePerPeriod(periodSeconds: number, events: readonly ScaleEvent[], nowMs: number): number {
  const cutoff = nowMs - periodSeconds * 1000;
  let replicas = 0;
  for (const event of events) if (event.timestampMs > cutoff) replicas = goInt32(replicas + event.replicaChange);
  return replicas;
}

/** upstream: calculateScaleUpLimitWithScalingRules */
export function calculateScaleUpLimitWithScalingRules(
  currentReplicas: number,
  scaleUpEvents: readonly ScaleEvent[],
  scaleDownEvents: readonly ScaleEvent[],
  rules: ResolvedScalingRules,
  nowMs: number,
): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const minChange = rules.selectPolicy === 'Min';
  let result = minChange ? INT32_MAX : INT32_MIN;
  // `proposed` lives outside the loop upstream: a policy of unknown type re-uses the previous proposal
  let proposed = 0;
  for (const policy of rules.policies) {
    const added = getReplicasChangePerPeriod(policy.periodSeconds, scaleUpEvents, nowMs);
    const deleted = getReplicasChangePerPeriod(policy.periodSeconds, scaleDownEvents, nowMs);
    const periodStart = currentReplicas - added + deleted;
    if (policy.type === 'Pods') proposed = periodStart + policy.value;
    else if (policy.type === 'Percent') proposed = goInt32(Math.ceil(periodStart * (1 + policy.value / 100)));
    result = minChange ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** upstream: calculateScaleDownLimitWithBehaviors (Percent truncates toward zero and may go negative). */
export function calculateScaleDownLimitWithBehaviors(
  currentReplicas: number,
  scaleUpEvents: readonly ScaleEvent[],
  scaleDownEvents: readonly ScaleEvent[],
  rules: ResolvedScalingRules,
  nowMs: number,
): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const minChange = rules.selectPolicy === 'Min';
  let result = minChange ? INT32_MIN : INT32_MAX;
  let proposed = 0;
  for (const policy of rules.policies) {
    const added = getReplicasChangePerPeriod(policy.periodSeconds, scaleUpEvents, nowMs);
    const deleted = getReplicasChangePerPeriod(policy.periodSeconds, scaleDownEvents, nowMs);
    const periodStart = currentReplicas - added + deleted;
    if (policy.type === 'Pods') proposed = periodStart - policy.value;
    else if (policy.type === 'Percent') proposed = goInt32(periodStart * (1 - policy.value / 100));
    result = minChange ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

export interface BehaviorRateResult extends LimitResult {
  /** The policy limit that applied in the direction of change, before the current-replicas floor/ceiling. */
  limit?: number;
}

/** upstream: convertDesiredReplicasWithBehaviorRate */
export function convertDesiredReplicasWithBehaviorRate(
  currentReplicas: number,
  desiredReplicas: number,
  minReplicas: number,
  maxReplicas: number,
  behavior: ResolvedBehavior,
  scaleUpEvents: readonly ScaleEvent[],
  scaleDownEvents: readonly ScaleEvent[],
  nowMs: number,
): BehaviorRateResult {
  if (desiredReplicas > currentReplicas) {
    let scaleUpLimit = calculateScaleUpLimitWithScalingRules(currentReplicas, scaleUpEvents, scaleDownEvents, behavior.scaleUp, nowMs);
    // no further scale-up until the recent scale-up events age out
    if (scaleUpLimit < currentReplicas) scaleUpLimit = currentReplicas;
    let maximumAllowed = maxReplicas;
    let reason = 'TooManyReplicas';
    let message = 'the desired replica count is more than the maximum replica count';
    if (maximumAllowed > scaleUpLimit) {
      maximumAllowed = scaleUpLimit;
      reason = 'ScaleUpLimit';
      message = 'the desired replica count is increasing faster than the maximum scale rate';
    }
    if (desiredReplicas > maximumAllowed) return { replicas: maximumAllowed, reason, message, limit: scaleUpLimit };
  } else if (desiredReplicas < currentReplicas) {
    let scaleDownLimit = calculateScaleDownLimitWithBehaviors(currentReplicas, scaleUpEvents, scaleDownEvents, behavior.scaleDown, nowMs);
    if (scaleDownLimit > currentReplicas) scaleDownLimit = currentReplicas;
    let minimumAllowed = minReplicas;
    let reason = 'TooFewReplicas';
    let message = 'the desired replica count is less than the minimum replica count';
    if (minimumAllowed < scaleDownLimit) {
      minimumAllowed = scaleDownLimit;
      reason = 'ScaleDownLimit';
      message = 'the desired replica count is decreasing faster than the maximum scale rate';
    }
    if (desiredReplicas < minimumAllowed) return { replicas: minimumAllowed, reason, message, limit: scaleDownLimit };
  }
  return { replicas: desiredReplicas, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/** upstream: getLongestPolicyPeriod */
export function getLongestPolicyPeriod(rules: ResolvedScalingRules): number {
  let longest = 0;
  for (const policy of rules.policies) if (policy.periodSeconds > longest) longest = policy.periodSeconds;
  return longest;
}

/** upstream: markScaleEventsOutdated + storeScaleEvent. Events are recorded only when the HPA has `behavior`. */
export function storeScaleEvent(
  behavior: ResolvedBehavior | null,
  scaleUpEvents: readonly ScaleEvent[],
  scaleDownEvents: readonly ScaleEvent[],
  prevReplicas: number,
  newReplicas: number,
  nowMs: number,
): { scaleUpEvents: ScaleEvent[]; scaleDownEvents: ScaleEvent[] } {
  const up = scaleUpEvents.map((e) => ({ ...e }));
  const down = scaleDownEvents.map((e) => ({ ...e }));
  if (!behavior) return { scaleUpEvents: up, scaleDownEvents: down };
  const scalingUp = newReplicas > prevReplicas;
  const events = scalingUp ? up : down;
  const longest = getLongestPolicyPeriod(scalingUp ? behavior.scaleUp : behavior.scaleDown);
  const cutoff = nowMs - longest * 1000;
  let oldIndex = -1;
  events.forEach((event, i) => {
    if (event.timestampMs < cutoff) event.outdated = true;
    if (event.outdated) oldIndex = i;
  });
  const entry: ScaleEvent = {
    replicaChange: scalingUp ? newReplicas - prevReplicas : prevReplicas - newReplicas,
    timestampMs: nowMs,
    outdated: false,
  };
  if (oldIndex >= 0) events[oldIndex] = entry;
  else events.push(entry);
  return { scaleUpEvents: up, scaleDownEvents: down };
}
