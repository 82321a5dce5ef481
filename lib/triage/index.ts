export { conditionMeaning, CONDITION_MEANINGS, findMeaningRow, HPA_KINDS, SCALE_DOWN_STABILIZED_LONG_SECONDS } from './condition-meaning';
export type { ConditionLike, MeaningFact, MeaningFacts, MeaningRow } from './condition-meaning';
export { CONDITION_LANES, CONDITIONS, EARLY_EXIT_REASONS, REASONS, UNREAD_METRIC_REASON } from './reasons';
export type { ConditionEntry, Meaning, MetricsApiId, ReasonEntry } from './reasons';
export {
  groupProblems,
  groupTallies,
  METRICS_OUTAGE_MIN_AUTOSCALERS,
  ProblemLedger,
  problemInGroup,
  tallyProblems,
} from './group-problems';
export type { GroupProblemsOptions, ProblemTally } from './group-problems';
export { HEALTH_RULES, HEALTH_RANK, healthOfProblems, REPLICAS_MISMATCH_SECONDS, SEVERITY_RANK } from './health-rules';
export type { HealthRule } from './health-rules';
export { groupHintFor, groupTitleFor, hintFor, HINTS, separateCause } from './hints';
export type { HintEntry, HintFacts, HintRefinement } from './hints';
export type * from './karmada-types';
export type { Instant, MapperContext } from './mapper-context';
export { toMetricPairs } from './metric-pairs';
export { toFederatedAutoscaler, toFederationMembers, toFederationStrategy } from './to-federated-autoscaler';
export type { FederationContext } from './to-federated-autoscaler';
export { toHpaAutoscaler } from './to-hpa-autoscaler';
export type { HpaShapeMemo } from './to-hpa-autoscaler';
export { toMachineAutoscaler } from './to-machine-autoscaler';
export { namespaceOf, toAutoscalerBase } from './autoscaler-base';
export type { AutoscalerBase } from './autoscaler-base';
export { indexFederationObjects, toFederationPlacement } from './federation-placement';
export type { FederationLookup, ResourceRef } from './federation-placement';
export { toEventFiling } from './to-event-dto';
export type { EventFiling } from './to-event-dto';
export { isPinnedAtBound } from './pinned-at-bound';
