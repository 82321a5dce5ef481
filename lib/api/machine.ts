import { z } from 'zod';
import { MachineFindingSchema, MachineTargetResolutionSchema, ReadyVerdictSchema } from './autoscaler';

/**
 * The wire form of `lib/machine`'s verdicts and MachineSet views (specs/machineautoscaler.md §6–§7). The shapes
 * mirror `lib/machine/types.ts` field for field; `machine.test.ts` checks the two stay equal at compile time.
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
  value: z.string(),
  source: z.enum(['annotation', 'deprecated-annotation', 'infrastructure-template']),
  key: z.string(),
});
export type CapacityValue = z.infer<typeof CapacityValueSchema>;

export const MachineSetCapacitySchema = z.object({
  cpu: CapacityValueSchema.nullable(),
  memory: CapacityValueSchema.nullable(),
  gpuCount: CapacityValueSchema.nullable(),
  gpuType: CapacityValueSchema.nullable(),
  maxPods: CapacityValueSchema.nullable(),
  canScaleFromZero: z.boolean(),
  invalidKeys: z.array(z.string()),
  checked: z.string(),
});
export type MachineSetCapacity = z.infer<typeof MachineSetCapacitySchema>;

const Count = z.number().int().nullable();

export const MachineSetViewSchema = z.object({
  group: z.enum(['machine.openshift.io', 'cluster.x-k8s.io']),
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string().nullable(),
  creationTimestamp: z.string().nullable(),
  deletionTimestamp: z.string().nullable(),
  clusterName: z.string().nullable(),
  replicas: z.object({ desired: Count, current: Count, ready: Count, available: Count, upToDate: Count }),
  paused: z.boolean(),
  annotations: z.record(z.string(), z.string()),
  templateLabels: z.record(z.string(), z.string()),
  authoritativeAPI: AuthoritativeAPISchema.nullable(),
  requestedAuthoritativeAPI: StableAuthoritativeAPISchema.nullable(),
  synchronizedAPI: StableAuthoritativeAPISchema.nullable(),
  synchronizedGeneration: z.number().int().nullable(),
  synchronized: z
    .object({ status: z.string(), reason: z.string().nullable(), message: z.string().nullable(), lastTransitionTime: z.string().nullable() })
    .nullable(),
  capacity: MachineSetCapacitySchema,
  infrastructureRef: z.object({ apiGroup: z.string(), kind: z.string(), name: z.string(), namespace: z.string() }).nullable(),
});
export type MachineSetView = z.infer<typeof MachineSetViewSchema>;
