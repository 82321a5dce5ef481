/** The verdict `assessMachineAutoscalers` returns for one MachineAutoscaler (specs/machineautoscaler.md §6–§7). */

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
   * is pending or in progress (specs §5, "Flag spec ≠ status"). Always set by `assessMachineAutoscalers`.
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

/** The context `assessMachineAutoscalers` needs beyond the objects (specs §7, "Inputs"). */
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

/** Where one capacity value came from, in the order the autoscaler consults them. */
export type CapacitySource = 'annotation' | 'deprecated-annotation' | 'infrastructure-template';

export interface CapacityValue {
  /** As written (a Kubernetes quantity); `memoryMb` is shown converted, e.g. `16384Mi`. */
  value: string;
  source: CapacitySource;
  /** The annotation key or `status.capacity.<resource>` it was read from. */
  key: string;
}

export interface MachineSetCapacity {
  cpu: CapacityValue | null;
  memory: CapacityValue | null;
  gpuCount: CapacityValue | null;
  gpuType: CapacityValue | null;
  maxPods: CapacityValue | null;
  /**
   * Whether the provider that reads this copy's group can build a node template from it: CPU and memory both
   * known and non-zero (clusterapi_unstructured.go `CanScaleFromZero`).
   */
  canScaleFromZero: boolean;
  /** Capacity annotations whose value does not parse; for a CAPI set any of them disables scale from zero. */
  invalidKeys: string[];
  /** Where the values were looked for, in words, for the ScaleFromZeroUnsupported message. */
  checked: string;
}

export interface MachineSetReplicas {
  /** `spec.replicas` (MAPI defaults an absent value to 1; CAPI leaves it null until defaulted). */
  desired: number | null;
  current: number | null;
  ready: number | null;
  available: number | null;
  /** v1beta2 semantics only; null for MAPI. */
  upToDate: number | null;
}

export interface MachineSetSynchronized {
  status: string;
  reason: string | null;
  message: string | null;
  lastTransitionTime: string | null;
}

/** One MachineSet of either group and any served version, normalised (`toMachineSetView`). */
export interface MachineSetView {
  group: MachineSetGroup;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string | null;
  creationTimestamp: string | null;
  deletionTimestamp: string | null;
  /** CAPI `spec.clusterName`, else the cluster-name label of either group. */
  clusterName: string | null;
  replicas: MachineSetReplicas;
  /**
   * CAPI: carries `cluster.x-k8s.io/paused` (the autoscaler skips it). MAPI: its `Paused` condition is True,
   * i.e. the Machine API controllers stand aside because the set is not MachineAPI-authoritative.
   */
  paused: boolean;
  annotations: Record<string, string>;
  /** MAPI `spec.template.spec.metadata.labels` (labels its Nodes get); CAPI `spec.template.metadata.labels` (its Machines'). */
  templateLabels: Record<string, string>;
  /** MAPI `status.authoritativeAPI` (effective authority); null for CAPI or when unset. */
  authoritativeAPI: AuthoritativeAPI | null;
  /** MAPI `spec.authoritativeAPI` (requested authority); null for CAPI or when unset. */
  requestedAuthoritativeAPI: 'MachineAPI' | 'ClusterAPI' | null;
  /** MAPI `status.synchronizedAPI`: the last stable authority. */
  synchronizedAPI: 'MachineAPI' | 'ClusterAPI' | null;
  synchronizedGeneration: number | null;
  /** MAPI `Synchronized` condition, null when the sync controller never wrote one. */
  synchronized: MachineSetSynchronized | null;
  capacity: MachineSetCapacity;
  /** CAPI only; v1beta1's apiVersion reduced to its group so both shapes compare. */
  infrastructureRef: { apiGroup: string; kind: string; name: string; namespace: string } | null;
}
