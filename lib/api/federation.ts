import { z } from 'zod';

import { tryParseQuantity } from '@/lib/k8s/quantity';

/**
 * Wire contract of `lib/federation`: the seed proposal's FederatedHPA previews (docs/engines/federation.md §5) and
 * Karmada's shipped replica division (§3). Every function there parses its input with one of these schemas,
 * so a bad request surfaces as a ZodError whose issue path names the field (the BFF maps it to a 400).
 */

/**
 * Upper bound for every replica or seat count. Karmada's fields are int32, but Webster hands out one seat per
 * heap operation, so an unbounded count would let one request pin a CPU core.
 */
export const FEDERATION_MAX_REPLICAS = 1_000_000;
/** Upper bound for the number of clusters (parties) in one request. */
export const FEDERATION_MAX_CLUSTERS = 5_000;

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A Karmada member cluster name (`Cluster.metadata.name`, a DNS-1123 subdomain). */
export const FederationClusterNameSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(DNS1123_SUBDOMAIN, 'must be a DNS-1123 subdomain (lower-case alphanumerics, "-" and ".")');

/** A party of the apportionment helpers: any non-empty name, as upstream's tests use `A`, `PartyA`. */
export const PartyNameSchema = z.string().min(1).max(253);

const replicas = z.number().int().min(0).max(FEDERATION_MAX_REPLICAS);
/** Karmada weights are int64; JavaScript numbers are exact up to 2^53 − 1. */
const weight = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const priority = z.number().int().min(-2_147_483_648).max(2_147_483_647);
const utilization = z.number().finite().min(0).max(1_000_000);
const uid = z.string().max(253);

export const SeedPolicySchema = z.enum(['Duplicated', 'Aggregated', 'StaticWeighted', 'DynamicWeighted', 'Prioritized']);
export type SeedPolicy = z.infer<typeof SeedPolicySchema>;

export const TieBreakSchema = z.enum(['nameAsc', 'nameDesc']);
export type TieBreak = z.infer<typeof TieBreakSchema>;

export const ReplicaDividerSchema = z.enum(['webster', 'legacy']);
export type ReplicaDivider = z.infer<typeof ReplicaDividerSchema>;

/** v1.5–v1.7 order legacy ties by name; v1.8–v1.15 by lastReplicas, then at random. */
export const LegacyVariantSchema = z.enum(['v1.5', 'v1.8']);
export type LegacyVariant = z.infer<typeof LegacyVariantSchema>;

export const TargetClusterSchema = z.object({ name: FederationClusterNameSchema, replicas });
export type TargetCluster = z.infer<typeof TargetClusterSchema>;

export const MemberHpaBoundsSchema = z.object({ minReplicas: replicas, maxReplicas: replicas });
export type MemberHpaBounds = z.infer<typeof MemberHpaBoundsSchema>;

type IssueSink = { addIssue: (issue: { code: 'custom'; message: string; path: (string | number)[] }) => void };

/** Adds one issue per repeated `name` in `items`, at `[field, index, 'name']`. */
function checkUniqueNames(items: readonly { name: string }[], field: string, ctx: IssueSink): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.name))
      ctx.addIssue({ code: 'custom', message: `duplicate cluster name "${item.name}"`, path: [field, index, 'name'] });
    seen.add(item.name);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Seed proposal previews (docs/engines/federation.md §5)
// ---------------------------------------------------------------------------------------------------------

export const SeedClusterSchema = z.object({
  name: FederationClusterNameSchema,
  prevReplicas: replicas.optional(),
  availableReplicas: replicas.optional(),
  staticWeight: weight.optional(),
  priority: priority.optional(),
});
export type SeedCluster = z.infer<typeof SeedClusterSchema>;

export const InitialAssignmentInputSchema = z
  .object({
    policy: SeedPolicySchema,
    federatedMinReplicas: replicas.min(1),
    federatedMaxReplicas: replicas.min(1),
    scaleToZero: z.boolean().optional(),
    tieBreak: TieBreakSchema.optional(),
    /** The binding's `spec.resource.uid`: picks Webster's tie direction like the live scheduler when `tieBreak` is unset. */
    uid: uid.optional(),
    clusters: z.array(SeedClusterSchema).max(FEDERATION_MAX_CLUSTERS),
    previousBinding: z.array(TargetClusterSchema).max(FEDERATION_MAX_CLUSTERS).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.federatedMinReplicas > value.federatedMaxReplicas) {
      ctx.addIssue({ code: 'custom', message: 'must not exceed federatedMaxReplicas', path: ['federatedMinReplicas'] });
    }
    checkUniqueNames(value.clusters, 'clusters', ctx);
    checkUniqueNames(value.previousBinding ?? [], 'previousBinding', ctx);
  });
export type InitialAssignmentInput = z.infer<typeof InitialAssignmentInputSchema>;

/** What a step of a federation explanation computes: the column or fact of the preview it traces. */
export const ExplanationFieldSchema = z.enum([
  'rule',
  'minReplicas',
  'maxReplicas',
  'binding',
  'excluded',
  'deficit',
  'room',
  'increments',
  'totalLoad',
  'totalDesired',
  'excess',
  'removal',
  'pool',
  'shares',
  'freed',
  'newMax',
  'order',
  'result',
]);
export type ExplanationField = z.infer<typeof ExplanationFieldSchema>;

/**
 * One step of an engine's explanation as data: its sentence, the member clusters it is about and the quantity it
 * computes. Pages trace a number to the steps with its cluster and field, never by reading the sentence.
 */
export const ExplanationStepSchema = z.object({
  text: z.string(),
  clusters: z.array(z.string()),
  field: ExplanationFieldSchema,
});
export type ExplanationStep = z.infer<typeof ExplanationStepSchema>;

export const InitialAssignmentPreviewSchema = z.object({
  hpa: z.record(z.string(), MemberHpaBoundsSchema),
  resourceBinding: z.array(TargetClusterSchema),
  excludedClusters: z.array(z.string()),
  removedFromBinding: z.array(z.string()),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type InitialAssignmentPreview = z.infer<typeof InitialAssignmentPreviewSchema>;

export const ScaleUpInputSchema = z
  .object({
    policy: SeedPolicySchema,
    targetUtilization: utilization.gt(0),
    tieBreak: TieBreakSchema.optional(),
    uid: uid.optional(),
    blockedCluster: z.object({
      name: FederationClusterNameSchema,
      currentReplicas: replicas,
      maxReplicas: replicas,
      currentUtilization: utilization,
      /** Pending pods: the seed's other trigger ("if there are pending pods, the behavior will be the same"). */
      pendingReplicas: replicas.optional(),
    }),
    eligibleClusters: z
      .array(
        z.object({
          name: FederationClusterNameSchema,
          currentReplicas: replicas,
          maxReplicas: replicas,
          currentUtilization: utilization.optional(),
          availableReplicas: replicas.optional(),
          staticWeight: weight.optional(),
          priority: priority.optional(),
        }),
      )
      .max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => {
    checkUniqueNames(value.eligibleClusters, 'eligibleClusters', ctx);
    value.eligibleClusters.forEach((cluster, index) => {
      if (cluster.name === value.blockedCluster.name) {
        ctx.addIssue({ code: 'custom', message: 'the blocked cluster cannot also be eligible', path: ['eligibleClusters', index, 'name'] });
      }
    });
    const pending = value.blockedCluster.pendingReplicas;
    if (pending !== undefined && pending > value.blockedCluster.currentReplicas) {
      ctx.addIssue({ code: 'custom', message: 'must not exceed currentReplicas', path: ['blockedCluster', 'pendingReplicas'] });
    }
  });
export type ScaleUpInput = z.infer<typeof ScaleUpInputSchema>;

export const ScaleUpPreviewSchema = z.object({
  blockedDesiredReplicas: z.number().int(),
  deficit: z.number().int(),
  increments: z.record(z.string(), z.number().int()),
  unplaced: z.number().int(),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type ScaleUpPreview = z.infer<typeof ScaleUpPreviewSchema>;

export const PrioritizedScaleDownInputSchema = z
  .object({
    targetUtilization: utilization.gt(0),
    clusters: z
      .array(
        z.object({
          name: FederationClusterNameSchema,
          currentReplicas: replicas,
          minReplicas: replicas,
          maxReplicas: replicas,
          currentUtilization: utilization,
          priority,
        }),
      )
      .max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => {
    checkUniqueNames(value.clusters, 'clusters', ctx);
    value.clusters.forEach((cluster, index) => {
      if (cluster.minReplicas > cluster.maxReplicas) {
        ctx.addIssue({ code: 'custom', message: 'must not exceed maxReplicas', path: ['clusters', index, 'minReplicas'] });
      }
    });
  });
export type PrioritizedScaleDownInput = z.infer<typeof PrioritizedScaleDownInputSchema>;

export const PrioritizedScaleDownPreviewSchema = z.object({
  totalLoad: z.number(),
  totalDesiredReplicas: z.number().int(),
  excessReplicas: z.number().int(),
  removalOrder: z.array(z.string()),
  final: z.array(TargetClusterSchema),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type PrioritizedScaleDownPreview = z.infer<typeof PrioritizedScaleDownPreviewSchema>;

const optimizationCluster = z.object({
  name: FederationClusterNameSchema,
  staticWeight: weight.optional(),
  availableReplicas: replicas.optional(),
  priority: priority.optional(),
  currentReplicas: replicas,
  maxReplicas: replicas,
});

export const PeriodOptimizationInputSchema = z
  .object({
    policy: SeedPolicySchema,
    tieBreak: TieBreakSchema.optional(),
    uid: uid.optional(),
    clusters: z.array(optimizationCluster).max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => checkUniqueNames(value.clusters, 'clusters', ctx));
export type PeriodOptimizationInput = z.infer<typeof PeriodOptimizationInputSchema>;

export const PeriodOptimizationPreviewSchema = z.object({
  pool: z.number().int(),
  shares: z.record(z.string(), z.number().int()),
  newMax: z.record(z.string(), z.number().int()),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type PeriodOptimizationPreview = z.infer<typeof PeriodOptimizationPreviewSchema>;

export const TriggerOptimizationInputSchema = z
  .object({
    policy: SeedPolicySchema,
    tieBreak: TieBreakSchema.optional(),
    uid: uid.optional(),
    blockedCluster: optimizationCluster.extend({
      pendingReplicas: replicas,
      /** The blocked cluster's HPA minReplicas: its new max never drops below it (default 1, an HPA's floor). */
      minReplicas: replicas.optional(),
    }),
    otherClusters: z.array(optimizationCluster).max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => {
    checkUniqueNames(value.otherClusters, 'otherClusters', ctx);
    value.otherClusters.forEach((cluster, index) => {
      if (cluster.name === value.blockedCluster.name) {
        ctx.addIssue({
          code: 'custom',
          message: 'the blocked cluster cannot also be in otherClusters',
          path: ['otherClusters', index, 'name'],
        });
      }
    });
    if (value.blockedCluster.pendingReplicas > value.blockedCluster.currentReplicas) {
      ctx.addIssue({ code: 'custom', message: 'must not exceed currentReplicas', path: ['blockedCluster', 'pendingReplicas'] });
    }
    const min = value.blockedCluster.minReplicas;
    if (min !== undefined && min > value.blockedCluster.maxReplicas) {
      ctx.addIssue({ code: 'custom', message: 'must not exceed maxReplicas', path: ['blockedCluster', 'minReplicas'] });
    }
  });
export type TriggerOptimizationInput = z.infer<typeof TriggerOptimizationInputSchema>;

export const TriggerOptimizationPreviewSchema = z.object({
  blockedNewMax: z.number().int(),
  freed: z.number().int(),
  shares: z.record(z.string(), z.number().int()),
  newMax: z.record(z.string(), z.number().int()),
  sumMaxBefore: z.number().int(),
  sumMaxAfter: z.number().int(),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type TriggerOptimizationPreview = z.infer<typeof TriggerOptimizationPreviewSchema>;

const zeroCluster = z.object({
  name: FederationClusterNameSchema,
  replicas,
  minReplicas: replicas.min(1),
  staticWeight: weight.optional(),
  availableReplicas: replicas.optional(),
  priority: priority.optional(),
});

export const ScaleToZeroInputSchema = z
  .object({
    policy: SeedPolicySchema,
    federatedMinReplicas: replicas.min(1),
    clusters: z.array(zeroCluster).max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => checkUniqueNames(value.clusters, 'clusters', ctx));
export type ScaleToZeroInput = z.infer<typeof ScaleToZeroInputSchema>;

export const ScaleToZeroPreviewSchema = z.object({
  zeroed: z.array(z.string()),
  resourceBinding: z.array(TargetClusterSchema),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type ScaleToZeroPreview = z.infer<typeof ScaleToZeroPreviewSchema>;

export const ScaleFromZeroInputSchema = z
  .object({
    policy: SeedPolicySchema,
    clusters: z.array(zeroCluster).max(FEDERATION_MAX_CLUSTERS),
  })
  .superRefine((value, ctx) => checkUniqueNames(value.clusters, 'clusters', ctx));
export type ScaleFromZeroInput = z.infer<typeof ScaleFromZeroInputSchema>;

export const ScaleFromZeroPreviewSchema = z.object({
  woken: z.array(z.string()),
  resourceBinding: z.array(TargetClusterSchema),
  notes: z.array(z.string()),
  explanation: z.array(z.string()),
  steps: z.array(ExplanationStepSchema),
});
export type ScaleFromZeroPreview = z.infer<typeof ScaleFromZeroPreviewSchema>;

// ---------------------------------------------------------------------------------------------------------
// Shipped Karmada division (docs/engines/federation.md §3)
// ---------------------------------------------------------------------------------------------------------

export const WebsterSeatsInputSchema = z.object({
  newSeats: replicas,
  votes: z.record(PartyNameSchema, weight),
  initial: z.record(PartyNameSchema, replicas).optional(),
  uid: uid.optional(),
  tieBreak: TieBreakSchema.optional(),
});
export type WebsterSeatsInput = z.infer<typeof WebsterSeatsInputSchema>;

export const SeatMapSchema = z.record(z.string(), z.number().int());
export type SeatMap = z.infer<typeof SeatMapSchema>;

export const LegacyTakeByWeightInputSchema = z.object({
  numReplicas: replicas,
  weights: z.record(PartyNameSchema, weight),
  initial: z.record(PartyNameSchema, replicas).optional(),
  /** v1.8+ `ClusterWeightInfo.LastReplicas` (the previous schedule); defaults to `initial`. */
  lastReplicas: z.record(PartyNameSchema, replicas).optional(),
  variant: LegacyVariantSchema.optional(),
});
export type LegacyTakeByWeightInput = z.infer<typeof LegacyTakeByWeightInputSchema>;

export const LegacyTakeByWeightResultSchema = z.object({
  replicas: SeatMapSchema,
  /** Every outcome upstream can produce (v1.8–v1.15 random ties); one entry when the result is deterministic. */
  alternatives: z.array(SeatMapSchema),
  alternativeCount: z.number().int(),
  notes: z.array(z.string()),
});
export type LegacyTakeByWeightResult = z.infer<typeof LegacyTakeByWeightResultSchema>;

export const KarmadaStrategySchema = z.enum(['Duplicated', 'StaticWeight', 'DynamicWeight', 'Aggregated']);
export type KarmadaStrategy = z.infer<typeof KarmadaStrategySchema>;

export const DivideReplicasInputSchema = z
  .object({
    strategy: z.enum(['DynamicWeight', 'Aggregated']),
    targetReplicas: replicas,
    /** Estimated available replicas per candidate, in candidate order (the scheduler's `sortClusters` order). */
    availableClusters: z.array(TargetClusterSchema).max(FEDERATION_MAX_CLUSTERS),
    scheduledClusters: z.array(TargetClusterSchema).max(FEDERATION_MAX_CLUSTERS),
    divider: ReplicaDividerSchema,
    legacyVariant: LegacyVariantSchema.optional(),
    uid: uid.optional(),
  })
  .superRefine((value, ctx) => {
    checkUniqueNames(value.availableClusters, 'availableClusters', ctx);
    checkUniqueNames(value.scheduledClusters, 'scheduledClusters', ctx);
  });
export type DivideReplicasInput = z.infer<typeof DivideReplicasInputSchema>;

export const DivideReplicasResultSchema = z.union([
  z.object({
    replicas: SeatMapSchema,
    notes: z.array(z.string()),
    explanation: z.array(z.string()),
    steps: z.array(ExplanationStepSchema),
  }),
  z.object({ error: z.string() }),
]);
export type DivideReplicasResult = z.infer<typeof DivideReplicasResultSchema>;

export const AssignmentCandidateSchema = z.object({
  name: FederationClusterNameSchema,
  /** The max `staticWeightList` weight among entries whose `targetCluster` matches this candidate. */
  staticWeight: weight.optional(),
  /** Estimator headroom for new replicas; absent means no estimator bound (upstream's MaxInt32 → `spec.replicas`). */
  allocatableReplicas: replicas.optional(),
});
export type AssignmentCandidate = z.infer<typeof AssignmentCandidateSchema>;

export const AssignReplicasInputSchema = z
  .object({
    strategy: KarmadaStrategySchema,
    replicas,
    candidates: z.array(AssignmentCandidateSchema).max(FEDERATION_MAX_CLUSTERS),
    previousClusters: z.array(TargetClusterSchema).max(FEDERATION_MAX_CLUSTERS),
    uid,
    divider: ReplicaDividerSchema.optional(),
    legacyVariant: LegacyVariantSchema.optional(),
    /** `Fresh` when `spec.rescheduleTriggeredAt` is newer than `status.lastScheduledTime`. */
    mode: z.enum(['Steady', 'Fresh']).optional(),
  })
  .superRefine((value, ctx) => {
    checkUniqueNames(value.candidates, 'candidates', ctx);
    checkUniqueNames(value.previousClusters, 'previousClusters', ctx);
  });
export type AssignReplicasInput = z.infer<typeof AssignReplicasInputSchema>;

export const AssignReplicasResultSchema = z.union([
  z.object({
    clusters: z.array(TargetClusterSchema),
    notes: z.array(z.string()),
    explanation: z.array(z.string()),
    steps: z.array(ExplanationStepSchema),
  }),
  z.object({ error: z.string() }),
]);
export type AssignReplicasResult = z.infer<typeof AssignReplicasResultSchema>;

/** A Kubernetes quantity as JSON carries it (`"3800m"`, `"16Gi"`, `110`). */
/** Quantities past 10^±64 are not resources; bounding them keeps exact BigInt arithmetic cheap. */
function isBoundedQuantity(value: string | number): boolean {
  const parsed = tryParseQuantity(value);
  return parsed !== null && Math.abs(parsed.exponent) <= 64;
}

export const FederationQuantitySchema = z
  .union([z.string().max(64), z.number().finite()])
  .refine(isBoundedQuantity, 'must be a Kubernetes quantity (e.g. "3800m", "16Gi", "110")');
export type FederationQuantity = z.infer<typeof FederationQuantitySchema>;

const resourceList = z.record(z.string().min(1).max(253), FederationQuantitySchema);

/** The parts of a `cluster.karmada.io/v1alpha1` Cluster the general estimator reads (§3.8). */
export const KarmadaClusterSchema = z.object({
  metadata: z.object({ name: z.string().min(1).max(253) }).passthrough(),
  status: z
    .object({
      resourceSummary: z
        .object({
          allocatable: resourceList.optional(),
          allocating: resourceList.optional(),
          allocated: resourceList.optional(),
        })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
});
export type KarmadaCluster = z.infer<typeof KarmadaClusterSchema>;

/** A replica's `resourceRequest` (`ResourceBinding.spec.replicaRequirements.resourceRequest`). */
export const ReplicaRequestSchema = resourceList;
export type ReplicaRequest = z.infer<typeof ReplicaRequestSchema>;
