/** The verdict `assessMachineAutoscalers` returns for one MachineAutoscaler (specs/machineautoscaler.md §6–§7). */

export type MachineFindingSeverity = 'error' | 'unknown' | 'warning' | 'info';

export type MachineFindingCode =
  | 'MachineAutoscalerNotReconciled'
  | 'MachineAutoscalerInvalidSpec'
  | 'MachineAutoscalerUnsupportedTarget'
  | 'MachineAutoscalerTargetNotFound'
  | 'MachineAutoscalerTargetWrongNamespace'
  | 'MachineAutoscalerDuplicateTargetScaleRef'
  | 'MachineAutoscalerNonAuthoritativeTargetScaleRef'
  | 'MachineAutoscalerTargetMigrating'
  | 'MachineAutoscalerTargetDeleting'
  | 'MachineAutoscalerTargetPaused'
  | 'MachineAutoscalerTargetOwnedByAnother'
  | 'MachineAutoscalerTargetAnnotationsMissing'
  | 'MachineAutoscalerTargetAnnotationsMismatch'
  | 'MachineAutoscalerScaleFromZeroUnsupported'
  | 'GPUAcceleratorLabelMissing'
  | 'ClusterAutoscalerMissing'
  | 'TargetMirrorNotSynchronized';

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
}

export interface MachineAutoscalerVerdict {
  /** `namespace/name` of the MachineAutoscaler. */
  machineAutoscaler: string;
  operatorReady: ReadyVerdict | null;
  derivedReady: ReadyVerdict;
  /** In the priority order of the §6 table. */
  findings: MachineFinding[];
  target: MachineTargetResolution;
  /** Operator events about this MachineAutoscaler (or, for the GPU warning, its MachineSet). */
  events: { type: string; reason: string; regardingKind: string }[];
}
