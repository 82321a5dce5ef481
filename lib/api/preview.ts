import { z } from 'zod';
import { AutoscalerConditionSchema, AutoscalerIdSchema } from './autoscaler';
import {
  AssignReplicasInputSchema,
  AssignReplicasResultSchema,
  DivideReplicasInputSchema,
  DivideReplicasResultSchema,
  InitialAssignmentInputSchema,
  InitialAssignmentPreviewSchema,
  LegacyTakeByWeightInputSchema,
  LegacyTakeByWeightResultSchema,
  PeriodOptimizationInputSchema,
  PeriodOptimizationPreviewSchema,
  PrioritizedScaleDownInputSchema,
  PrioritizedScaleDownPreviewSchema,
  ScaleFromZeroInputSchema,
  ScaleFromZeroPreviewSchema,
  ScaleToZeroInputSchema,
  ScaleToZeroPreviewSchema,
  ScaleUpInputSchema,
  ScaleUpPreviewSchema,
  SeatMapSchema,
  TriggerOptimizationInputSchema,
  TriggerOptimizationPreviewSchema,
  WebsterSeatsInputSchema,
} from './federation';
import { HpaControllerConfigSchema, HpaEventSchema, HpaScalingRulesSchema, MetricSpecSchema } from './hpa';

/** One run of the HPA decision, as the pages show it. */
export const SyncSummarySchema = z.object({
  desiredReplicas: z.number().int(),
  /** What the target's scale would be after the sync (desired when it rescales, else current). */
  replicasAfter: z.number().int(),
  rescale: z.boolean(),
  conditions: z.array(AutoscalerConditionSchema),
  currentMetrics: z.array(z.looseObject({ type: z.string() })),
  events: z.array(HpaEventSchema),
  explanation: z.array(z.string()),
});
export type SyncSummary = z.infer<typeof SyncSummarySchema>;

/** What was read from the cluster for an explanation, so every number can be traced. */
export const ObservedInputSchema = z.object({
  specReplicas: z.number().int(),
  statusReplicas: z.number().int(),
  selector: z.string(),
  pods: z.object({
    total: z.number().int(),
    running: z.number().int(),
    ready: z.number().int(),
    pending: z.number().int(),
    deleting: z.number().int(),
  }),
  /** Per metric source: whether values came back, or the API's error. */
  sources: z.array(z.object({ source: z.enum(['resource', 'pods', 'object', 'external']), ok: z.boolean(), detail: z.string() })),
  /** Karmada: the member clusters whose pods were read. */
  memberClusters: z.array(z.string()).optional(),
});
export type ObservedInput = z.infer<typeof ObservedInputSchema>;

export const ExplainResponseSchema = z.object({
  id: AutoscalerIdSchema,
  fetchedAt: z.string(),
  observed: ObservedInputSchema,
  /** What the preview had to assume (controller history is not in the API). */
  assumptions: z.array(z.string()),
  result: SyncSummarySchema,
  /** The controller's own last decision (`status.desiredReplicas`), to compare with ours. */
  controllerDesiredReplicas: z.number().int().nullable(),
  agreesWithController: z.boolean().nullable(),
});
export type ExplainResponse = z.infer<typeof ExplainResponseSchema>;

/** The changes a user previews on a live HPA; absent fields keep the live value. */
export const HpaChangesSchema = z.object({
  minReplicas: z.number().int().min(0).max(100_000).optional(),
  maxReplicas: z.number().int().min(1).max(100_000).optional(),
  metrics: z.array(MetricSpecSchema).max(32).optional(),
  /** null removes `behavior` (the legacy path); an object replaces it as the API would store it. */
  behavior: z.object({ scaleUp: HpaScalingRulesSchema.nullish(), scaleDown: HpaScalingRulesSchema.nullish() }).nullable().optional(),
  /** Multiplies every observed metric value (2 = twice today's load). */
  loadFactor: z.number().positive().max(100).optional(),
});
export type HpaChanges = z.infer<typeof HpaChangesSchema>;

export const HpaPreviewRequestSchema = z
  .object({
    id: AutoscalerIdSchema,
    changes: HpaChangesSchema.default({}),
    config: HpaControllerConfigSchema.optional(),
    /** Play a load curve: one sync every `intervalSeconds` with the observed load multiplied by each factor. */
    playback: z
      .object({
        factors: z.array(z.number().min(0).max(100)).min(1).max(240),
        intervalSeconds: z.number().int().min(1).max(3600).default(15),
      })
      .optional(),
  })
  .refine(
    (b) => b.changes.minReplicas === undefined || b.changes.maxReplicas === undefined || b.changes.minReplicas <= b.changes.maxReplicas,
    {
      message: 'minReplicas must not exceed maxReplicas',
      path: ['changes', 'minReplicas'],
    },
  );
export type HpaPreviewRequest = z.input<typeof HpaPreviewRequestSchema>;

export const PlaybackStepSchema = z.object({
  /** Seconds from the first sync. */
  t: z.number(),
  factor: z.number(),
  before: z.object({ replicas: z.number().int(), desired: z.number().int(), limited: z.string().nullable() }),
  after: z.object({ replicas: z.number().int(), desired: z.number().int(), limited: z.string().nullable() }),
});
export type PlaybackStep = z.infer<typeof PlaybackStepSchema>;

export const HpaPreviewResponseSchema = z.object({
  id: AutoscalerIdSchema,
  fetchedAt: z.string(),
  observed: ObservedInputSchema,
  assumptions: z.array(z.string()),
  before: SyncSummarySchema,
  after: SyncSummarySchema,
  /** Human-readable differences ("desired replicas 6 → 9", "ScalingLimited: TooManyReplicas → DesiredWithinRange"). */
  differences: z.array(z.string()),
  /** The edited HPA spec, ready to export as YAML. */
  editedSpec: z.looseObject({}),
  playback: z.array(PlaybackStepSchema).optional(),
});
export type HpaPreviewResponse = z.infer<typeof HpaPreviewResponseSchema>;

/** The lib/federation functions behind POST /api/v1/preview/federation/{operation}. */
export const federationOperations = {
  'initial-assignment': { input: InitialAssignmentInputSchema, result: InitialAssignmentPreviewSchema },
  'scale-up': { input: ScaleUpInputSchema, result: ScaleUpPreviewSchema },
  'prioritized-scale-down': { input: PrioritizedScaleDownInputSchema, result: PrioritizedScaleDownPreviewSchema },
  'period-optimization': { input: PeriodOptimizationInputSchema, result: PeriodOptimizationPreviewSchema },
  'trigger-optimization': { input: TriggerOptimizationInputSchema, result: TriggerOptimizationPreviewSchema },
  'scale-to-zero': { input: ScaleToZeroInputSchema, result: ScaleToZeroPreviewSchema },
  'scale-from-zero': { input: ScaleFromZeroInputSchema, result: ScaleFromZeroPreviewSchema },
  'assign-replicas': { input: AssignReplicasInputSchema, result: AssignReplicasResultSchema },
  'divide-replicas': { input: DivideReplicasInputSchema, result: DivideReplicasResultSchema },
  'webster-seats': { input: WebsterSeatsInputSchema, result: SeatMapSchema },
  'take-by-weight-legacy': { input: LegacyTakeByWeightInputSchema, result: LegacyTakeByWeightResultSchema },
} as const;

export type FederationOperation = keyof typeof federationOperations;
export const FederationOperationSchema = z.enum(Object.keys(federationOperations) as [FederationOperation, ...FederationOperation[]]);

/** Inputs for the federation preview, filled from a live FederatedHPA (its binding, members and policy). */
export const FederationPreviewInputsSchema = z.object({
  id: AutoscalerIdSchema,
  fetchedAt: z.string(),
  /** Shipped Karmada: what karmada-scheduler would be asked now. */
  assignReplicas: AssignReplicasInputSchema,
  /** The seed's design, seeded with the same clusters. */
  initialAssignment: InitialAssignmentInputSchema,
  notes: z.array(z.string()),
});
export type FederationPreviewInputs = z.infer<typeof FederationPreviewInputsSchema>;
