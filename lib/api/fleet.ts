import { z } from 'zod';
import {
  AutoscalerIdSchema,
  AutoscalerKindSchema,
  AutoscalerRowSchema,
  AutoscalerSchema,
  HealthSchema,
  ProblemGroupSchema,
} from './autoscaler';

/**
 * The wire contract of /api/v1 (fleet, clusters, lists, detail, history, triage, stream). Routes parse
 * their input with these schemas and return the inferred types; the browser's hooks parse with the same.
 */

export const ClusterKindSchema = z.enum(['kubernetes', 'openshift', 'karmada', 'karmada-member']);
export type ClusterKind = z.infer<typeof ClusterKindSchema>;

/**
 * `degraded`: the cluster answers, but some requests fail (an API server behind a load balancer during an
 * upgrade); its data is current, so no banner and no gap. `unreachable`: nothing answered for a threshold,
 * connections refused, or every answer an error for longer: items are served stale and timelines show a gap.
 */
export const ClusterStateSchema = z.enum(['syncing', 'synced', 'degraded', 'unreachable', 'forbidden']);
export type ClusterState = z.infer<typeof ClusterStateSchema>;

/** Beside every multi-cluster answer: how fresh each cluster's part is (partial failure is data). */
export const ClusterStatusSchema = z.object({
  name: z.string(),
  state: ClusterStateSchema,
  /** When the last full sync (every watched resource listed) completed. */
  lastSyncAt: z.string().nullable(),
  /** Since when the cluster has been in this state. */
  since: z.string().nullable(),
  /** The last error in words (never a credential). */
  error: z.string().nullable(),
  /** Failed requests over all requests to the cluster in the last minute, 0..1. */
  errorRate: z.number().min(0).max(1).default(0),
  /** When the cluster last answered any request (an error status is an answer; a refused connection is not). */
  lastAnsweredAt: z.string().nullable().default(null),
});
export type ClusterStatus = z.infer<typeof ClusterStatusSchema>;

const countsByKind = z.object({
  HorizontalPodAutoscaler: z.number().int(),
  MachineAutoscaler: z.number().int(),
  FederatedHPA: z.number().int(),
});
const countsByHealth = z.object({ failing: z.number().int(), degraded: z.number().int(), ok: z.number().int(), unknown: z.number().int() });

export const ClusterSummarySchema = ClusterStatusSchema.extend({
  kind: ClusterKindSchema,
  /** `https://host:port` of the API server (never credentials). */
  server: z.string().nullable(),
  kubernetesVersion: z.string().nullable(),
  /** Karmada member: its control plane's cluster name. */
  parent: z.string().nullable(),
  /** What discovery found: `openshift-machine-api`, `cluster-api`, `karmada`, `metrics`. */
  capabilities: z.array(z.string()),
  /** Resources this cluster serves that Autoscope may not read (403), e.g. `horizontalpodautoscalers.autoscaling`. */
  forbiddenResources: z.array(z.string()),
  counts: z.object({ total: z.number().int(), byKind: countsByKind, byHealth: countsByHealth }),
});
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;

export const ClusterListResponseSchema = z.object({ clusters: z.array(ClusterSummarySchema), generatedAt: z.string() });
export type ClusterListResponse = z.infer<typeof ClusterListResponseSchema>;

/** A comma-separated query parameter, e.g. `health=failing,degraded`. */
function csv<T extends z.ZodType<string, string>>(
  item: T,
): z.ZodPipe<z.ZodPipe<z.ZodString, z.ZodTransform<string[], string>>, z.ZodArray<T>> {
  return z
    .string()
    .max(4096)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(100));
}

export const AutoscalerSortSchema = z.enum(['health', 'since', 'name', 'namespace', 'cluster', 'kind', 'replicas']);
export type AutoscalerSort = z.infer<typeof AutoscalerSortSchema>;

export const AutoscalerFilterSchema = z.object({
  kind: csv(AutoscalerKindSchema).optional(),
  cluster: csv(z.string().min(1).max(512)).optional(),
  namespace: csv(z.string().min(1).max(253)).optional(),
  health: csv(HealthSchema).optional(),
  /** A condition reason or problem code, e.g. `FailedGetResourceMetric`. */
  reason: csv(z.string().min(1).max(128)).optional(),
  /** Free text over name, namespace, cluster, target and problem titles. */
  q: z.string().max(200).optional(),
  /**
   * A triage group's key (`kind/reason` or `kind/reason/cause`, as `/api/v1/triage` gives it): the autoscalers that
   * group counts, and no others (a reason filter also keeps the reason's other causes).
   */
  group: z.string().min(1).max(600).optional(),
});
export type AutoscalerFilter = z.infer<typeof AutoscalerFilterSchema>;

export const AutoscalerQuerySchema = AutoscalerFilterSchema.extend({
  sort: AutoscalerSortSchema.default('health'),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** The `nextCursor` of the previous page (opaque; it carries the last item's place in the order). */
  cursor: z.string().max(4096).optional(),
  /** Download the whole filtered set instead of a page. */
  format: z.enum(['csv', 'json']).optional(),
  /** `row`: each item as a table row shows it (`AutoscalerRow`); `all` (or left out): the whole DTO. Pages only. */
  fields: z.enum(['all', 'row']).optional(),
}).superRefine((query, ctx) => {
  if (query.format && query.fields === 'row')
    ctx.addIssue({ code: 'custom', path: ['fields'], message: 'row shapes pages; a download (format) always carries whole autoscalers' });
});
export type AutoscalerQueryInput = z.input<typeof AutoscalerQuerySchema>;
export type AutoscalerQuery = z.infer<typeof AutoscalerQuerySchema>;

export const AutoscalerListResponseSchema = z.object({
  items: z.array(AutoscalerSchema),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
  clusters: z.array(ClusterStatusSchema),
  generatedAt: z.string(),
});
export type AutoscalerListResponse = z.infer<typeof AutoscalerListResponseSchema>;

/** `GET /api/v1/autoscalers?fields=row`: the same page with each item as a table row. */
export const AutoscalerRowListResponseSchema = AutoscalerListResponseSchema.extend({ items: z.array(AutoscalerRowSchema) });
export type AutoscalerRowListResponse = z.infer<typeof AutoscalerRowListResponseSchema>;

export const EventSchema = z.object({
  uid: z.string(),
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  count: z.number().int(),
  firstSeen: z.string().nullable(),
  lastSeen: z.string().nullable(),
  source: z.string().nullable(),
  /** The object the event is about, e.g. `MachineSet/…` for the operator's GPU warning. */
  regarding: z.string(),
});
export type EventDto = z.infer<typeof EventSchema>;

export const KubectlCommandSchema = z.object({ label: z.string(), command: z.string() });

export const MachineSetCopySchema = z.object({
  apiVersion: z.string(),
  namespace: z.string(),
  name: z.string(),
  authoritativeAPI: z.string().nullable(),
  /** `spec.authoritativeAPI` of the Machine API copy (what was asked for). */
  requestedAuthoritativeAPI: z.string().nullable(),
  replicas: z.number().int().nullable(),
  readyReplicas: z.number().int().nullable(),
  paused: z.boolean(),
  /** The autoscaler annotations on this copy: owner, min and max (the prefix depends on the group). */
  owner: z.string().nullable(),
  minAnnotation: z.string().nullable(),
  maxAnnotation: z.string().nullable(),
});
export type MachineSetCopy = z.infer<typeof MachineSetCopySchema>;

export const FederationPlacementSchema = z.object({
  strategy: z.enum(['Duplicated', 'StaticWeight', 'DynamicWeight', 'Aggregated', 'Unknown']),
  policy: z.string().nullable(),
  binding: z.string().nullable(),
  bindingUid: z.string().nullable(),
  templateReplicas: z.number().int().nullable(),
  staticWeights: z.record(z.string(), z.number()).nullable(),
  members: z.array(
    z.object({
      cluster: z.string(),
      replicas: z.number().int(),
      ready: z.enum(['True', 'False', 'Unknown']),
      readyReason: z.string().nullable(),
      availableReplicas: z.number().int().nullable(),
      /** Member workload status from the binding's aggregatedStatus. */
      readyReplicas: z.number().int().nullable(),
      applied: z.boolean().nullable(),
    }),
  ),
});
export type FederationPlacement = z.infer<typeof FederationPlacementSchema>;

export const AutoscalerDetailResponseSchema = z.object({
  autoscaler: AutoscalerSchema,
  /** `spec.behavior` as stored (null: the legacy path). */
  behavior: z.unknown().nullable(),
  /** `spec.metrics` as stored. */
  specMetrics: z.array(z.unknown()),
  machineSets: z.array(MachineSetCopySchema).optional(),
  placement: FederationPlacementSchema.optional(),
  events: z.array(EventSchema),
  /** The object as YAML, without managedFields and kubectl's last-applied-configuration annotation. */
  yaml: z.string(),
  kubectl: z.array(KubectlCommandSchema),
  clusters: z.array(ClusterStatusSchema),
});
export type AutoscalerDetailResponse = z.infer<typeof AutoscalerDetailResponseSchema>;

export const HistoryQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] });
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

export const ConditionSegmentSchema = z.object({
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  meaning: HealthSchema,
  start: z.string(),
  /** null: still open. */
  end: z.string().nullable(),
});
export type ConditionSegment = z.infer<typeof ConditionSegmentSchema>;

export const HistoryResponseSchema = z.object({
  id: AutoscalerIdSchema,
  from: z.string(),
  to: z.string(),
  /** When Autoscope first saw this object; before it the timeline is unknown. */
  firstSeen: z.string().nullable(),
  conditions: z.array(z.object({ type: z.string(), segments: z.array(ConditionSegmentSchema) })),
  replicas: z.array(
    z.object({
      at: z.string(),
      current: z.number().int().nullable(),
      desired: z.number().int().nullable(),
      min: z.number().int().nullable(),
      max: z.number().int().nullable(),
    }),
  ),
  events: z.array(EventSchema),
  /** Periods when the cluster was unreachable: drawn as unknown, never as the neighbouring state. */
  gaps: z.array(z.object({ start: z.string(), end: z.string().nullable(), state: ClusterStateSchema })),
});
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

export const TriageResponseSchema = z.object({
  groups: z.array(ProblemGroupSchema),
  totals: z.object({
    total: z.number().int(),
    failing: z.number().int(),
    degraded: z.number().int(),
    ok: z.number().int(),
    unknown: z.number().int(),
  }),
  clusters: z.array(ClusterStatusSchema),
  generatedAt: z.string(),
});
export type TriageResponse = z.infer<typeof TriageResponseSchema>;

export const TransitionSchema = z.object({
  id: z.string(),
  cluster: z.string(),
  kind: AutoscalerKindSchema,
  namespace: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  meaning: HealthSchema,
  at: z.string(),
  /** The state this transition replaced; null on the first sight of the condition. */
  previous: z.object({ status: z.enum(['True', 'False', 'Unknown']), reason: z.string().nullable(), meaning: HealthSchema }).nullable(),
  /** A status flip, a change of meaning or a first sight (not AbleToScale=True's reason churn). */
  notable: z.boolean(),
});
export type Transition = z.infer<typeof TransitionSchema>;

export const TransitionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cluster: z.string().max(512).optional(),
  /** `true`: only notable transitions (status flips, changes of meaning, first sights). */
  notable: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export const TransitionsResponseSchema = z.object({ transitions: z.array(TransitionSchema) });
export type TransitionsResponse = z.infer<typeof TransitionsResponseSchema>;

export const ReadyResponseSchema = z.object({ ready: z.boolean(), clusters: z.array(ClusterStatusSchema) });
export type ReadyResponse = z.infer<typeof ReadyResponseSchema>;

/** What /api/v1/stream sends (Server-Sent Events, `data:` is this JSON). */
export const StreamMessageSchema = z.discriminatedUnion('type', [
  /** `truncated`: more ids changed than were sent (a client then refreshes every open autoscaler). */
  z.object({ type: z.literal('changed'), ids: z.array(z.string()), truncated: z.boolean().optional() }),
  z.object({ type: z.literal('cluster'), cluster: ClusterStatusSchema }),
  z.object({ type: z.literal('heartbeat'), at: z.string() }),
]);
export type StreamMessage = z.infer<typeof StreamMessageSchema>;

/** Path parameters of /api/v1/autoscalers/{cluster}/{kind}/{namespace}/{name}. */
export const AutoscalerPathSchema = z.object({
  cluster: z.string().min(1).max(512),
  kind: AutoscalerKindSchema,
  namespace: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .max(63),
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a DNS-1123 subdomain')
    .max(253),
});
export type AutoscalerPath = z.infer<typeof AutoscalerPathSchema>;

/**
 * `gc=1`: run a full garbage collection before reading memory, so the heap figure counts live objects only. Only a
 * server started with AUTOSCOPE_STATS_GC=1 (the benchmarks) accepts it: a full collection of a large heap stops the
 * process for up to a second.
 */
export const StatsQuerySchema = z.object({ gc: z.literal('1', { error: 'must be 1 (or left out)' }).optional() });
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

/** Process figures for operators and the benchmark (no object data, no credentials). */
export const StatsResponseSchema = z.object({
  autoscalers: z.number().int(),
  clusters: z.number().int(),
  streamSubscribers: z.number().int(),
  heapUsedBytes: z.number(),
  rssBytes: z.number(),
  uptimeSeconds: z.number(),
  startedAt: z.string(),
});
export type StatsResponse = z.infer<typeof StatsResponseSchema>;
