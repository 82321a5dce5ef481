import { pairMetrics } from '@/lib/hpa/pair-metrics';
import type { MetricPair } from '@/lib/hpa/pair-metrics';
import type { AutoscalerCondition, AutoscalerKind, AutoscalerTarget, Problem } from '@/lib/api/autoscaler';
import { findCondition, toConditionStatus } from '@/lib/k8s/conditions';
import type { Condition, HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { conditionMeaning, findMeaningRow, SCALE_DOWN_STABILIZED_LONG_SECONDS } from '@/lib/triage/condition-meaning';
import { NOT_EVALUATED_FAILING_SECONDS, REPLICAS_MISMATCH_SECONDS, severityForHealth } from '@/lib/triage/health-rules';
import { hintFor } from '@/lib/triage/hints';
import type { HintFacts } from '@/lib/triage/hints';
import { CONDITION_LANES, EARLY_EXIT_REASONS, UNREAD_METRIC_REASON } from '@/lib/triage/reasons';
import { secondsSince } from '@/lib/triage/mapper-context';
import type { MapperContext } from '@/lib/triage/mapper-context';

export interface HpaAssessment {
  conditions: AutoscalerCondition[];
  problems: Problem[];
  currentReplicas: number | null;
  desiredReplicas: number | null;
}

/** The swimlane order; other types follow in the order the API lists them. */
function ordered(kind: AutoscalerKind, conditions: readonly Condition[]): Condition[] {
  const lanes = CONDITION_LANES[kind];
  const rank = (t: string): number => {
    const i = lanes.indexOf(t);
    return i === -1 ? lanes.length : i;
  };
  return conditions
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c.type) - rank(b.c.type) || a.i - b.i)
    .map(({ c }) => c);
}

/**
 * `currentReplicas` is `omitempty` in autoscaling/v2 (types.go), so a synced HPA whose target is at 0
 * has no field at all; `desiredReplicas` is always serialized, as 0 before the first sync. Only a status
 * with conditions proves the controller wrote the counts.
 */
function replicaCounts(hpa: HorizontalPodAutoscaler): { current: number | null; desired: number | null } {
  const status = hpa.status;
  if ((status?.conditions?.length ?? 0) === 0) return { current: null, desired: null };
  return { current: status?.currentReplicas ?? 0, desired: status?.desiredReplicas ?? 0 };
}

/**
 * What assessing one version of an HPA works out whatever the context, kept between two assessments of that version
 * with different contexts (the index's first sight: `HpaShapeMemo`). Its values are the DTO's own, not copies.
 */
export interface AssessMemo {
  /** The API's conditions in swimlane order. */
  ordered?: Condition[];
  /** The DTO's conditions the last assessment made: one whose meaning the new context leaves as it was is reused. */
  conditions?: AutoscalerCondition[];
  /** `pairMetrics` of the spec and status metrics. */
  pairs?: readonly MetricPair[];
}

/** `pairMetrics` of an HPA's spec and status metrics, worked out once per memo. */
export function metricPairsOf(hpa: HorizontalPodAutoscaler, memo: AssessMemo): readonly MetricPair[] {
  return (memo.pairs ??= pairMetrics(hpa.spec.metrics, hpa.status?.currentMetrics));
}

/**
 * The DTO's conditions for `ordered`, each with the meaning `meaningOf` gives it; those of `prior` (the same version's
 * conditions from another assessment) whose meaning is unchanged are reused, and `prior` itself when all are. Reusing
 * them is not only less work: a condition made twice per first sight, half of which died, had V8 allocate every DTO
 * condition directly in the old space (pretenuring), where the dead half then waited for a full collection.
 */
function conditionsOf(
  ordered: readonly Condition[],
  given: AutoscalerCondition[] | undefined,
  meaningOf: (c: Condition) => AutoscalerCondition['meaning'],
): AutoscalerCondition[] {
  const prior = given?.length === ordered.length ? given : undefined;
  let all = prior !== undefined;
  // Made by `map`, exactly as long as the list: grown by `push`, each DTO's list of three had room for seventeen (152
  // bytes, not 40: `npm run bench:heap`).
  const conditions = ordered.map((c, i): AutoscalerCondition => {
    const meaning = meaningOf(c);
    const had = prior?.[i];
    if (had !== undefined && had.meaning === meaning) return had;
    all = false;
    return {
      type: c.type,
      status: toConditionStatus(c.status),
      reason: c.reason || null,
      message: c.message || null,
      lastTransitionTime: c.lastTransitionTime || null,
      meaning,
    };
  });
  return all && prior ? prior : conditions;
}

/** Conditions with their meaning, and the problems the HPA rules of health-rules.ts find. */
export function assessHpa(
  kind: AutoscalerKind,
  hpa: HorizontalPodAutoscaler,
  facts: Omit<HintFacts, 'message' | 'currentReplicas' | 'desiredReplicas'>,
  context: MapperContext,
  nowMs: number,
  memo: AssessMemo = {},
): HpaAssessment {
  const raw = hpa.status?.conditions ?? [];
  const { current, desired } = replicaCounts(hpa);
  const hintFacts = (message: string): HintFacts => ({ ...facts, message, currentReplicas: current, desiredReplicas: desired });
  const heldSeconds = (type: string): number | null => secondsSince(context.conditionSince?.[type], nowMs);

  const conditions = conditionsOf((memo.ordered ??= ordered(kind, raw)), memo.conditions, (c) =>
    conditionMeaning(kind, c, { currentReplicas: current, heldSeconds: heldSeconds(c.type) }),
  );
  memo.conditions = conditions;

  const problems: Problem[] = [];
  if (conditions.length === 0) {
    const message = `${kind} ${facts.namespace}/${facts.name} has no status conditions`;
    const { title, hint } = hintFor('ConditionsAbsent', hintFacts(message));
    problems.push({ code: 'ConditionsAbsent', severity: 'unknown', title, message, since: hpa.metadata.creationTimestamp ?? null, hint });
    return { conditions, problems, currentReplicas: current, desiredReplicas: desired };
  }

  const ableToScale = findCondition(raw, 'AbleToScale');
  const scalingActive = findCondition(raw, 'ScalingActive');
  const leftOver = new Set<string>();
  const earlyExit = ableToScale?.status === 'False' && EARLY_EXIT_REASONS.has(ableToScale.reason ?? '');
  if (earlyExit) {
    leftOver.add('ScalingActive');
    leftOver.add('ScalingLimited');
  }
  if (scalingActive?.status === 'False') leftOver.add('ScalingLimited');

  for (const c of conditions) {
    if (leftOver.has(c.type)) continue;
    const row = findMeaningRow(kind, { type: c.type, status: c.status, reason: c.reason });
    if (c.meaning === 'ok' && !(row?.notice && row.meaning === 'ok')) continue;
    const code = c.status === 'Unknown' ? 'ConditionUnknown' : (c.reason ?? `${c.type}${c.status}`);
    const message =
      c.status === 'Unknown' ? `${c.type} is Unknown${c.message ? `: ${c.message}` : ''}` : (c.message ?? `${c.type}=${c.status}`);
    const { title, hint } = hintFor(code, hintFacts(message));
    problems.push({
      code,
      severity: severityForHealth(c.meaning),
      title,
      message,
      since: context.conditionSince?.[c.type] ?? c.lastTransitionTime,
      hint,
    });
  }

  // Conditions, but no ScalingActive: the controller read the target's scale and has not yet computed a
  // replica count from the metrics (a new HPA before its first metric read, or a sync that took the
  // min/max short-circuit of horizontal.go reconcileAutoscaler, which updates only AbleToScale). Nothing
  // has been evaluated, so the verdict is unknown, and failing once it outlasts a few sync periods.
  if (!scalingActive && !earlyExit) {
    const created = hpa.metadata.creationTimestamp ?? null;
    const age = secondsSince(created, nowMs);
    const stuck = age !== null && age >= NOT_EVALUATED_FAILING_SECONDS;
    const message = stuck
      ? `no ScalingActive condition since creation (${created}): the controller reads the scale but never computed a replica count from the metrics`
      : 'not evaluated yet: no ScalingActive condition, so the controller has not computed a replica count from the metrics';
    const { title, hint } = hintFor('ScalingNotEvaluated', hintFacts(message));
    problems.push({ code: 'ScalingNotEvaluated', severity: stuck ? 'error' : 'unknown', title, message, since: created, hint });
  }

  // A metric the controller could not read while the others still decided: ScalingActive stays True
  // (horizontal.go scales up on the valid metrics) but the status entry for it is empty, the controller
  // emits FailedGet*Metric events, and it refuses to scale down until the metric reads again.
  if (scalingActive?.status === 'True' && !leftOver.has('ScalingActive') && (hpa.status?.currentMetrics?.length ?? 0) > 0) {
    for (const pair of metricPairsOf(hpa, memo)) {
      if (!pair.spec || pair.status) continue;
      const code = UNREAD_METRIC_REASON[pair.identity.type];
      if (!code) continue;
      const metric = pair.identity.container ? `${pair.identity.name} (container ${pair.identity.container})` : pair.identity.name;
      const message = `the ${metric} ${pair.identity.type} metric could not be read in the last sync; the controller decided on the other metrics and will not scale down while one fails`;
      const { title, hint } = hintFor(code, hintFacts(message));
      problems.push({ code, severity: 'warning', title, message, since: context.problemSince?.[code] ?? null, hint });
    }
  }

  if (current !== null && desired !== null && current !== desired) {
    const since = context.replicasMismatchSince ?? hpa.status?.lastScaleTime ?? null;
    const held = secondsSince(since, nowMs);
    if (held !== null && held >= REPLICAS_MISMATCH_SECONDS) {
      const message = `desiredReplicas ${desired} ≠ currentReplicas ${current} since ${since}`;
      const { title, hint } = hintFor('ReplicasMismatch', hintFacts(message));
      problems.push({ code: 'ReplicasMismatch', severity: 'warning', title, message, since, hint });
    }
  }
  return { conditions, problems, currentReplicas: current, desiredReplicas: desired };
}

/**
 * The earliest instant after `nowMs` at which `assessHpa` can answer differently for this object with the same
 * context, or null when no later instant can. Three rules read the clock, each with a known edge:
 * - a condition whose meaning turns once it has held long (a `heldLong` exception, such as ScaleDownStabilized
 *   held an hour): `conditionSince` + that hour; once past it, the meaning stays;
 * - conditions but no ScalingActive (not evaluated): failing from creation + NOT_EVALUATED_FAILING_SECONDS; the
 *   message names the creation time, not the minutes since (which made the DTO change every minute);
 * - desiredReplicas ≠ currentReplicas: a problem from the mismatch's start + REPLICAS_MISMATCH_SECONDS; past it
 *   the problem names the start, not the time held, and stays the same.
 * The index's minute re-map (FleetIndex.refreshAll) re-maps an HPA only once its instant has come, instead of
 * re-mapping every HPA a rule touches each minute; `clock.test.ts` checks that nothing moves before it.
 * Seconds held are whole seconds rounded down (`secondsSince`), so "held ≥ T s" first holds at `since + T·1000` ms.
 */
export function nextClockChange(kind: AutoscalerKind, hpa: HorizontalPodAutoscaler, context: MapperContext, nowMs: number): number | null {
  const raw = hpa.status?.conditions ?? [];
  if (raw.length === 0 || Number.isNaN(nowMs)) return null;
  let next = Number.POSITIVE_INFINITY;
  const at = (since: string | null | undefined, seconds: number): void => {
    const ms = since ? Date.parse(since) : Number.NaN;
    if (!Number.isNaN(ms) && ms + seconds * 1000 > nowMs) next = Math.min(next, ms + seconds * 1000);
  };
  for (const c of raw) {
    if (findMeaningRow(kind, { type: c.type, status: c.status, reason: c.reason || null })?.exception?.fact === 'heldLong')
      at(context.conditionSince?.[c.type], SCALE_DOWN_STABILIZED_LONG_SECONDS);
  }
  const ableToScale = findCondition(raw, 'AbleToScale');
  const earlyExit = ableToScale?.status === 'False' && EARLY_EXIT_REASONS.has(ableToScale.reason ?? '');
  if (!findCondition(raw, 'ScalingActive') && !earlyExit) {
    at(hpa.metadata.creationTimestamp, NOT_EVALUATED_FAILING_SECONDS);
  }
  const { current, desired } = replicaCounts(hpa);
  if (current !== desired) at(context.replicasMismatchSince ?? hpa.status?.lastScaleTime, REPLICAS_MISMATCH_SECONDS);
  return next === Number.POSITIVE_INFINITY ? null : next;
}

export function targetOf(hpa: HorizontalPodAutoscaler, namespace: string): AutoscalerTarget {
  const ref = hpa.spec.scaleTargetRef;
  return { apiVersion: ref.apiVersion ?? '', kind: ref.kind, name: ref.name, namespace };
}
