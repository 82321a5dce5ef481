import { z } from 'zod';
import { MACHINE_FINDING_CODES } from '@/lib/machine/types';

/**
 * The one autoscaler DTO every endpoint and view uses (lib/triage builds it). It is kept in memory for
 * up to 100,000 autoscalers, so it holds only what a page shows: no managedFields, no raw specs.
 */

export const AutoscalerKindSchema = z.enum(['HorizontalPodAutoscaler', 'MachineAutoscaler', 'FederatedHPA']);
export type AutoscalerKind = z.infer<typeof AutoscalerKindSchema>;

export const HealthSchema = z.enum(['failing', 'degraded', 'ok', 'unknown']);
export type Health = z.infer<typeof HealthSchema>;

export const ConditionStatusSchema = z.enum(['True', 'False', 'Unknown']);

export const AutoscalerConditionSchema = z.object({
  type: z.string(),
  status: ConditionStatusSchema,
  reason: z.string().nullable(),
  message: z.string().nullable(),
  lastTransitionTime: z.string().nullable(),
  /** What the condition means for health, from lib/triage's meaning table; colours come from this, never from `status`. */
  meaning: HealthSchema,
});
export type AutoscalerCondition = z.infer<typeof AutoscalerConditionSchema>;

export const MetricTargetSchema = z.object({
  type: z.string(),
  value: z.string().optional(),
  averageValue: z.string().optional(),
  averageUtilization: z.number().int().optional(),
});
export type MetricTargetDto = z.infer<typeof MetricTargetSchema>;

export const MetricCurrentSchema = z.object({
  value: z.string().optional(),
  averageValue: z.string().optional(),
  averageUtilization: z.number().int().optional(),
});
export type MetricCurrentDto = z.infer<typeof MetricCurrentSchema>;

export const MetricPairSchema = z.object({
  /** Identity key from lib/hpa/pair-metrics, e.g. `Resource/cpu`, `External/queue_depth{queue=a}`. */
  key: z.string(),
  type: z.string(),
  name: z.string(),
  container: z.string().optional(),
  selector: z.string().optional(),
  describedObject: z.string().optional(),
  target: MetricTargetSchema.nullable(),
  current: MetricCurrentSchema.nullable(),
  /** current / target on the basis the controller uses (e.g. utilization 92 vs 60 → 1.53), 2 decimals. */
  ratio: z.number().nullable(),
  /** e.g. "cpu 92% / 60%". */
  summary: z.string(),
});
export type MetricPairDto = z.infer<typeof MetricPairSchema>;

export const ProblemSeveritySchema = z.enum(['error', 'warning', 'info', 'unknown']);
export type ProblemSeverity = z.infer<typeof ProblemSeveritySchema>;

export const ProblemSchema = z.object({
  /** An upstream reason or finding code verbatim (`FailedGetResourceMetric`), or a dashboard code (`ReplicasMismatch`). */
  code: z.string(),
  severity: ProblemSeveritySchema,
  title: z.string(),
  message: z.string(),
  since: z.string().nullable(),
  /** The next step, from lib/triage/hints.ts. */
  hint: z.string(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export const AutoscalerTargetSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  namespace: z.string(),
});
export type AutoscalerTarget = z.infer<typeof AutoscalerTargetSchema>;

export const MachineFindingCodeSchema = z.enum(MACHINE_FINDING_CODES);

export const ReadyVerdictSchema = z.object({
  status: ConditionStatusSchema,
  reason: z.string(),
  message: z.string(),
  lastTransitionTime: z.string().optional(),
});

export const MachineFindingSchema = z.object({
  code: MachineFindingCodeSchema,
  severity: z.enum(['error', 'unknown', 'warning', 'info']),
  message: z.string(),
});

const MachineSetRefSchema = z.object({ apiVersion: z.string(), kind: z.string(), namespace: z.string(), name: z.string() });

export const MachineTargetResolutionSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  expectedNamespace: z.string(),
  found: z.boolean(),
  authoritativeAPI: z.enum(['MachineAPI', 'ClusterAPI', 'Migrating']).nullable(),
  refIsAuthoritative: z.boolean().nullable(),
  authoritativeCopy: MachineSetRefSchema.nullable(),
  mirror: MachineSetRefSchema.nullable(),
  requestedAuthoritativeAPI: z.enum(['MachineAPI', 'ClusterAPI']).nullable().optional(),
  migrationPending: z.boolean().optional(),
});

export const MachineDetailsSchema = z.object({
  derivedReady: ReadyVerdictSchema,
  operatorReady: ReadyVerdictSchema.nullable(),
  findings: z.array(MachineFindingSchema),
  target: MachineTargetResolutionSchema,
});
export type MachineDetails = z.infer<typeof MachineDetailsSchema>;

/** karmada-scheduler's strategy (`newAssignState`, pkg/scheduler/core/assignment.go); `Unknown` without a placement. */
export const FederationStrategySchema = z.enum(['Duplicated', 'StaticWeight', 'DynamicWeight', 'Aggregated', 'Unknown']);
export type FederationStrategy = z.infer<typeof FederationStrategySchema>;

export const FederationMemberSchema = z.object({
  cluster: z.string(),
  /** `ResourceBinding.spec.clusters[].replicas` (omitted in JSON when 0). */
  replicas: z.number().int(),
  /** The Karmada Cluster's `Ready` condition; `Unknown` when the Cluster object or the condition is missing. */
  ready: ConditionStatusSchema,
  readyReason: z.string().nullable(),
  /** Estimated like Karmada's general estimator from `Cluster.status.resourceSummary`; null without a Cluster object. */
  availableReplicas: z.number().int().nullable(),
});
export type FederationMember = z.infer<typeof FederationMemberSchema>;

export const FederationDetailsSchema = z.object({
  strategy: FederationStrategySchema,
  members: z.array(FederationMemberSchema),
});
export type FederationDetails = z.infer<typeof FederationDetailsSchema>;

export const AutoscalerSchema = z.object({
  /** `encodeURIComponent(cluster)/kind/namespace/name`; see `toAutoscalerId`. */
  id: z.string(),
  cluster: z.string(),
  kind: AutoscalerKindSchema,
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  target: AutoscalerTargetSchema,
  minReplicas: z.number().int().nullable(),
  maxReplicas: z.number().int().nullable(),
  currentReplicas: z.number().int().nullable(),
  desiredReplicas: z.number().int().nullable(),
  conditions: z.array(AutoscalerConditionSchema),
  metrics: z.array(MetricPairSchema),
  health: HealthSchema,
  problems: z.array(ProblemSchema),
  /** The cluster is unreachable and this is its last synced state. */
  stale: z.boolean(),
  createdAt: z.string().nullable(),
  lastScaleTime: z.string().nullable(),
  machine: MachineDetailsSchema.optional(),
  federation: FederationDetailsSchema.optional(),
});
export type Autoscaler = z.infer<typeof AutoscalerSchema>;

/** A problem as a table row carries it: everything but the hint (the detail page shows that). */
export const RowProblemSchema = ProblemSchema.omit({ hint: true });
export type RowProblem = z.infer<typeof RowProblemSchema>;

/**
 * What a table row shows of an autoscaler (`GET /api/v1/autoscalers?fields=row`): its identity, health, replicas and
 * problems, without conditions, metrics, target or the per-kind details. About a third of the full DTO's JSON; the
 * virtualized tables read thousands of rows, and read them all again whenever the stream says the fleet changed.
 */
export const AutoscalerRowSchema = AutoscalerSchema.pick({
  id: true,
  cluster: true,
  kind: true,
  namespace: true,
  name: true,
  health: true,
  stale: true,
  minReplicas: true,
  maxReplicas: true,
  currentReplicas: true,
  desiredReplicas: true,
}).extend({ problems: z.array(RowProblemSchema) });
export type AutoscalerRow = z.infer<typeof AutoscalerRowSchema>;

/** An autoscaler as a table row (`AutoscalerRowSchema`): what the server's `fields=row` pages carry. */
export function toAutoscalerRow(a: Autoscaler): AutoscalerRow {
  return {
    id: a.id,
    cluster: a.cluster,
    kind: a.kind,
    namespace: a.namespace,
    name: a.name,
    health: a.health,
    stale: a.stale,
    minReplicas: a.minReplicas,
    maxReplicas: a.maxReplicas,
    currentReplicas: a.currentReplicas,
    desiredReplicas: a.desiredReplicas,
    problems: a.problems.map(({ hint: _hint, ...problem }) => problem),
  };
}

export const ProblemGroupSchema = z.object({
  key: z.string(),
  kind: AutoscalerKindSchema,
  reason: z.string(),
  title: z.string(),
  /** Autoscalers in the group. */
  count: z.number().int(),
  clusters: z.array(z.string()),
  namespaces: z.array(z.string()),
  oldestSince: z.string().nullable(),
  worstSeverity: ProblemSeveritySchema,
  /** A cause shared by the members, e.g. "metrics API unavailable in cluster X". */
  likelyCause: z.string().optional(),
  hint: z.string(),
  sampleIds: z.array(z.string()),
});
export type ProblemGroup = z.infer<typeof ProblemGroupSchema>;

export interface AutoscalerIdParts {
  cluster: string;
  kind: AutoscalerKind;
  namespace: string;
  name: string;
}

/**
 * `cluster/kind/namespace/name`. Cluster names come from kubeconfig contexts and may hold `/` and `:`
 * (EKS ARNs, `karmada/member1`), so the cluster part is `encodeURIComponent`-ed; namespace and name are
 * DNS-1123 and never contain `/`.
 */
export function toAutoscalerId(cluster: string, kind: AutoscalerKind, namespace: string, name: string): string {
  return `${encodeURIComponent(cluster)}/${kind}/${namespace}/${name}`;
}

/** The id of an autoscaler object as the API serves it; a missing namespace reads as `default`, as the mappers read it. */
export function autoscalerIdOf(cluster: string, kind: AutoscalerKind, metadata: { namespace?: string; name: string }): string {
  return toAutoscalerId(cluster, kind, metadata.namespace ?? 'default', metadata.name);
}

/** The inverse of `toAutoscalerId`; null for anything it could not have produced. */
export function parseAutoscalerId(id: string): AutoscalerIdParts | null {
  const parts = id.split('/');
  if (parts.length !== 4) return null;
  const [encodedCluster, kind, namespace, name] = parts as [string, string, string, string];
  const parsedKind = AutoscalerKindSchema.safeParse(kind);
  if (!parsedKind.success || !encodedCluster || !namespace || !name) return null;
  let cluster: string;
  try {
    cluster = decodeURIComponent(encodedCluster);
  } catch {
    return null;
  }
  if (encodeURIComponent(cluster) !== encodedCluster) return null;
  return { cluster, kind: parsedKind.data, namespace, name };
}

/** Validates a path or query parameter as an autoscaler id. */
export const AutoscalerIdSchema = z
  .string()
  .max(1024)
  .refine((id) => parseAutoscalerId(id) !== null, { message: 'not an autoscaler id (cluster/kind/namespace/name)' });
