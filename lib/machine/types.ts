import type { CapacityValue, MachineSetView } from '@/lib/api/machine';
/** The verdict `assessMachineAutoscalers` returns for one MachineAutoscaler (docs/engines/machine.md §6–§7). */

export type MachineFindingSeverity = 'error' | 'unknown' | 'warning' | 'info';

/** Every finding code, in the priority order of the §6 table (findings are reported, and Ready's reason chosen, in this order). */
export const MACHINE_FINDING_CODES = [
  'MachineAutoscalerNotReconciled',
  'MachineAutoscalerInvalidSpec',
  'MachineAutoscalerUnsupportedTarget',
  'MachineAutoscalerTargetNotFound',
  'MachineAutoscalerTargetWrongNamespace',
  'MachineAutoscalerDuplicateTargetScaleRef',
  'MachineAutoscalerNonAuthoritativeTargetScaleRef',
  'MachineAutoscalerTargetMigrating',
  'MachineAutoscalerTargetDeleting',
  'MachineAutoscalerTargetPaused',
  'MachineAutoscalerTargetOwnedByAnother',
  'MachineAutoscalerTargetAnnotationsMissing',
  'MachineAutoscalerTargetAnnotationsMismatch',
  'MachineAutoscalerScaleFromZeroUnsupported',
  'GPUAcceleratorLabelMissing',
  'ClusterAutoscalerMissing',
  'TargetMirrorNotSynchronized',
] as const;

export type MachineFindingCode = (typeof MACHINE_FINDING_CODES)[number];

export interface MachineFinding {
  code: MachineFindingCode;
  severity: MachineFindingSeverity;
  message: string;
}

export interface ReadyVerdict {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /** Only on `operatorReady`: the condition's own lastTransitionTime, when it has one. */
  lastTransitionTime?: string;
}

export type AuthoritativeAPI = 'MachineAPI' | 'ClusterAPI' | 'Migrating';

export interface MachineSetRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface MachineTargetResolution {
  apiVersion: string;
  kind: string;
  name: string;
  /** The namespace implied by the reference's API group (MAPI: openshift-machine-api, CAPI: openshift-cluster-api). */
  expectedNamespace: string;
  found: boolean;
  /** Null when no copy of the set exists. */
  authoritativeAPI: AuthoritativeAPI | null;
  /** Null when the authority is unknown (Migrating, or no copy found). */
  refIsAuthoritative: boolean | null;
  authoritativeCopy: MachineSetRef | null;
  /** The other copy of the same physical MachineSet (MAPI ↔ CAPI pair by name), if it exists. */
  mirror: MachineSetRef | null;
  /**
   * The MAPI copy's `spec.authoritativeAPI` (the user's request), null when absent or no MAPI copy exists.
   * Added beside the original fields; always set by `assessMachineAutoscalers`.
   */
  requestedAuthoritativeAPI?: 'MachineAPI' | 'ClusterAPI' | null;
  /**
   * True when the MAPI copy's `spec.authoritativeAPI` differs from its `status.authoritativeAPI`: a migration
   * is pending or in progress (docs/engines/machine.md §5, "Flag spec ≠ status"). Always set by `assessMachineAutoscalers`.
   */
  migrationPending?: boolean;
}

/** One operator event about a MachineAutoscaler (or, for the GPU warning, about its MachineSet). */
export interface MachineAutoscalerEvent {
  type: string;
  reason: string;
  regardingKind: string;
  /** core/v1 `message` or events.k8s.io/v1 `note`. Added beside the original fields; always set. */
  message?: string;
  /** The event's last occurrence (RFC 3339), null when it carries no timestamp. Always set. */
  timestamp?: string | null;
  /** Occurrences folded into this event (core/v1 `count`, events.k8s.io/v1 `series.count`), at least 1. Always set. */
  count?: number;
}

export interface MachineAutoscalerVerdict {
  /** `namespace/name` of the MachineAutoscaler. */
  machineAutoscaler: string;
  operatorReady: ReadyVerdict | null;
  derivedReady: ReadyVerdict;
  /** In the priority order of the §6 table. */
  findings: MachineFinding[];
  target: MachineTargetResolution;
  /** Operator events about this MachineAutoscaler (or, for the GPU warning, its MachineSet), newest first. */
  events: MachineAutoscalerEvent[];
}

/** The context `assessMachineAutoscalers` needs beyond the objects (docs/engines/machine.md §7, "Inputs"). */
export interface MachineAssessmentContext {
  /** Where the cluster-autoscaler-operator runs and reconciles MachineAutoscalers (openshift-machine-api). */
  operatorNamespace: string;
  /** Where `machine.openshift.io` MachineSet targets must live (openshift-machine-api). */
  machineAPINamespace: string;
  /** Where `cluster.x-k8s.io` MachineSet targets must live (openshift-cluster-api). */
  clusterAPINamespace: string;
  /** See `operatorSupportsClusterAPITargetsFromCrd`. */
  operatorSupportsClusterAPITargets: boolean;
}

export type MachineSetGroup = 'machine.openshift.io' | 'cluster.x-k8s.io';

/**
 * One MachineSet of either group and any served version, normalised (`toMachineSetView`), with its parts. The
 * shape is declared once, as the wire schema in lib/api/machine.ts (`MachineSetViewSchema`), and read here.
 */
export type { CapacityValue, MachineSetCapacity, MachineSetView } from '@/lib/api/machine';
export type CapacitySource = CapacityValue['source'];
export type MachineSetReplicas = MachineSetView['replicas'];
export type MachineSetSynchronized = NonNullable<MachineSetView['synchronized']>;
