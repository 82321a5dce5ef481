import type { AutoscalerKind, Health, Problem, ProblemSeverity } from '@/lib/api/autoscaler';
import { EARLY_EXIT_REASONS } from '@/lib/triage/reasons';

/**
 * The health rules, one row each, in the order docs/health.md lists them. A rule that finds something
 * adds a problem; an autoscaler's health is the worst of its problems' severities.
 */
export interface HealthRule {
  id: string;
  kinds: readonly AutoscalerKind[];
  /** The health the rule's problem stands for; `by-meaning` when it comes from the condition meaning table. */
  health: Health | 'by-meaning' | 'by-severity';
  /** The problem code it raises, when it has one fixed code. */
  code: string | null;
  when: string;
}

/** kube-prometheus `KubeHpaReplicasMismatch` fires after 15 minutes; so do we. */
export const REPLICAS_MISMATCH_SECONDS = 15 * 60;

/** kube-controller-manager `--horizontal-pod-autoscaler-sync-period` default (config/v1alpha1/defaults.go). */
export const HPA_SYNC_PERIOD_SECONDS = 15;
/** A few sync periods: a new HPA gets ScalingActive in its first sync, or its second after a min/max short-circuit. */
export const NOT_EVALUATED_FAILING_SECONDS = 4 * HPA_SYNC_PERIOD_SECONDS;

export const HEALTH_RULES: readonly HealthRule[] = [
  {
    id: 'condition-meaning',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA'],
    health: 'by-meaning',
    code: null,
    when: 'every condition whose meaning (CONDITION_MEANINGS) is not plain ok raises a problem named after its reason: failing → error, degraded → warning, unknown → unknown, ok with a note (ScalingDisabled on a target at 0) → info',
  },
  {
    id: 'left-over-conditions',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA'],
    health: 'by-meaning',
    code: null,
    when: `conditions the controller did not rewrite in its last sync are not judged: ScalingActive and ScalingLimited after an AbleToScale=False that stops the sync before metrics (${[...EARLY_EXIT_REASONS].join(', ')}), and ScalingLimited while ScalingActive=False`,
  },
  {
    id: 'metric-unread',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA'],
    health: 'degraded',
    code: null,
    when: 'ScalingActive=True but a spec metric has no value in status.currentMetrics: the controller could not read it (it emits FailedGet*Metric), decided on the others and refuses to scale down; the problem is named after that event reason, as a warning',
  },
  {
    id: 'conditions-absent',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA'],
    health: 'unknown',
    code: 'ConditionsAbsent',
    when: 'status.conditions is absent or empty: the controller has not synced the object',
  },
  {
    id: 'scaling-not-evaluated',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA'],
    health: 'unknown',
    code: 'ScalingNotEvaluated',
    when: 'conditions but no ScalingActive (and no AbleToScale=False that stops the sync first): no replica count computed yet → unknown; failing once the HPA has existed (creationTimestamp to now) for 4 sync periods (60 s) or more',
  },
  {
    id: 'replicas-mismatch',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA', 'MachineAutoscaler'],
    health: 'degraded',
    code: 'ReplicasMismatch',
    when: 'desiredReplicas ≠ currentReplicas for 15 minutes or more (since: Autoscope’s own observation, else status.lastScaleTime for HPAs)',
  },
  {
    id: 'member-cluster-not-ready',
    kinds: ['FederatedHPA'],
    health: 'degraded',
    code: 'MemberClusterNotReady',
    when: 'a member cluster of the ResourceBinding has a Karmada Cluster whose Ready condition is not True',
  },
  {
    id: 'machine-findings',
    kinds: ['MachineAutoscaler'],
    health: 'by-severity',
    code: null,
    when: 'every finding of the derived verdict is a problem with its own severity: error (derived Ready=False) → failing, unknown (Ready=Unknown) → unknown, warning → degraded, info → ok',
  },
  {
    id: 'worst-wins',
    kinds: ['HorizontalPodAutoscaler', 'FederatedHPA', 'MachineAutoscaler'],
    health: 'by-severity',
    code: null,
    when: 'health is the worst problem: failing > unknown > degraded > ok; no problems is ok',
  },
];

/** Worst first: an unknown Ready outranks a warning, as in the MachineAutoscaler verdict (docs/engines/machine.md §7). */
export const SEVERITY_RANK: Record<ProblemSeverity, number> = { error: 3, unknown: 2, warning: 1, info: 0 };
export const HEALTH_RANK: Record<Health, number> = { failing: 3, unknown: 2, degraded: 1, ok: 0 };

export function severityForHealth(health: Health): ProblemSeverity {
  return ({ failing: 'error', unknown: 'unknown', degraded: 'warning', ok: 'info' } as const)[health];
}

export function healthForSeverity(severity: ProblemSeverity): Health {
  return ({ error: 'failing', unknown: 'unknown', warning: 'degraded', info: 'ok' } as const)[severity];
}

export function healthOfProblems(problems: readonly Problem[]): Health {
  let worst: Health = 'ok';
  for (const p of problems) {
    const h = healthForSeverity(p.severity);
    if (HEALTH_RANK[h] > HEALTH_RANK[worst]) worst = h;
  }
  return worst;
}

/** Worst severity first, then the order the rules raised them (stable). */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => SEVERITY_RANK[b.p.severity] - SEVERITY_RANK[a.p.severity] || a.i - b.i)
    .map(({ p }) => p);
}
