import { z } from 'zod';
import { MachineFindingSchema, MachineTargetResolutionSchema, ReadyVerdictSchema } from './autoscaler';

/**
 * The wire form of `lib/machine`'s verdicts and MachineSet views (docs/engines/machine.md §6–§7). The verdict
 * mirrors `lib/machine/types.ts` field for field (`machine.test.ts` checks the two stay equal at compile time);
 * the MachineSet view is declared only here and lib/machine reads its type from this schema.
 * The finding, Ready and target-resolution schemas already live in `./autoscaler` (the triage DTO embeds them)
 * and are reused here rather than declared twice.
 */

export const AuthoritativeAPISchema = z.enum(['MachineAPI', 'ClusterAPI', 'Migrating']);
export type AuthoritativeAPI = z.infer<typeof AuthoritativeAPISchema>;

const StableAuthoritativeAPISchema = z.enum(['MachineAPI', 'ClusterAPI']);

export const MachineSetRefSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
});
export type MachineSetRef = z.infer<typeof MachineSetRefSchema>;

export const MachineAutoscalerEventSchema = z.object({
  type: z.string(),
  reason: z.string(),
  regardingKind: z.string(),
  message: z.string().optional(),
  timestamp: z.string().nullable().optional(),
  count: z.number().int().min(1).optional(),
});
export type MachineAutoscalerEvent = z.infer<typeof MachineAutoscalerEventSchema>;

export const MachineAutoscalerVerdictSchema = z.object({
  machineAutoscaler: z.string(),
  operatorReady: ReadyVerdictSchema.nullable(),
  derivedReady: ReadyVerdictSchema,
  findings: z.array(MachineFindingSchema),
  target: MachineTargetResolutionSchema,
  events: z.array(MachineAutoscalerEventSchema),
});
export type MachineAutoscalerVerdict = z.infer<typeof MachineAutoscalerVerdictSchema>;

export const CapacityValueSchema = z.object({
  /** As written (a Kubernetes quantity); `memoryMb` is shown converted, e.g. `16384Mi`. */
  value: z.string(),
  /** Where the value came from, in the order the autoscaler consults them. */
  source: z.enum(['annotation', 'deprecated-annotation', 'infrastructure-template']),
  /** The annotation key or `status.capacity.<resource>` it was read from. */
  key: z.string(),
});
export type CapacityValue = z.infer<typeof CapacityValueSchema>;

export const MachineSetCapacitySchema = z.object({
  cpu: CapacityValueSchema.nullable(),
  memory: CapacityValueSchema.nullable(),
  gpuCount: CapacityValueSchema.nullable(),
  gpuType: CapacityValueSchema.nullable(),
  maxPods: CapacityValueSchema.nullable(),
  /**
   * Whether the provider that reads this copy's group can build a node template from it: CPU and memory both
   * known and non-zero (clusterapi_unstructured.go `CanScaleFromZero`).
   */
  canScaleFromZero: z.boolean(),
  /** Capacity annotations whose value does not parse; for a CAPI set any of them disables scale from zero. */
  invalidKeys: z.array(z.string()),
  /** Where the values were looked for, in words, for the ScaleFromZeroUnsupported message. */
  checked: z.string(),
});
export type MachineSetCapacity = z.infer<typeof MachineSetCapacitySchema>;

const Count = z.number().int().nullable();

/** One MachineSet of either group and any served version, normalised (`toMachineSetView` in lib/machine). */
export const MachineSetViewSchema = z.object({
  group: z.enum(['machine.openshift.io', 'cluster.x-k8s.io']),
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string().nullable(),
  creationTimestamp: z.string().nullable(),
  deletionTimestamp: z.string().nullable(),
  /** CAPI `spec.clusterName`, else the cluster-name label of either group. */
  clusterName: z.string().nullable(),
  /**
   * `desired` is `spec.replicas` (MAPI defaults an absent value to 1; CAPI leaves it null until defaulted);
   * `upToDate` has v1beta2 semantics only, null for MAPI.
   */
  replicas: z.object({ desired: Count, current: Count, ready: Count, available: Count, upToDate: Count }),
  /**
   * CAPI: carries `cluster.x-k8s.io/paused` (the autoscaler skips it). MAPI: its `Paused` condition is True,
   * i.e. the Machine API controllers stand aside because the set is not MachineAPI-authoritative.
   */
  paused: z.boolean(),
  annotations: z.record(z.string(), z.string()),
  /** MAPI `spec.template.spec.metadata.labels` (labels its Nodes get); CAPI `spec.template.metadata.labels` (its Machines'). */
  templateLabels: z.record(z.string(), z.string()),
  /** MAPI `status.authoritativeAPI` (effective authority); null for CAPI or when unset. */
  authoritativeAPI: AuthoritativeAPISchema.nullable(),
  /** MAPI `spec.authoritativeAPI` (requested authority); null for CAPI or when unset. */
  requestedAuthoritativeAPI: StableAuthoritativeAPISchema.nullable(),
  /** MAPI `status.synchronizedAPI`: the last stable authority. */
  synchronizedAPI: StableAuthoritativeAPISchema.nullable(),
  synchronizedGeneration: z.number().int().nullable(),
  /** MAPI `Synchronized` condition, null when the sync controller never wrote one. */
  synchronized: z
    .object({
      status: z.string(),
      reason: z.string().nullable(),
      message: z.string().nullable(),
      lastTransitionTime: z.string().nullable(),
    })
    .nullable(),
  capacity: MachineSetCapacitySchema,
  /** CAPI only; v1beta1's apiVersion reduced to its group so both shapes compare. */
  infrastructureRef: z.object({ apiGroup: z.string(), kind: z.string(), name: z.string(), namespace: z.string() }).nullable(),
});
export type MachineSetView = z.infer<typeof MachineSetViewSchema>;
