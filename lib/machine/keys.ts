/**
 * Every annotation, label, finalizer, group and namespace name `lib/machine` reads, in one place
 * (docs/engines/machine.md §2, §4, §5). Values are the upstream strings verbatim.
 */

export const MACHINE_API_GROUP = 'machine.openshift.io';
export const CLUSTER_API_GROUP = 'cluster.x-k8s.io';
export const MACHINE_AUTOSCALER_GROUP = 'autoscaling.openshift.io';

export const MACHINE_API_VERSION = 'v1beta1';
/** Storage version of Cluster API; v1beta1 is still served (docs/engines/machine.md §5). */
export const CLUSTER_API_STORAGE_VERSION = 'v1beta2';
export const CLUSTER_API_SERVED_VERSIONS: readonly string[] = ['v1beta1', 'v1beta2'];

export const MACHINE_SET_KIND = 'MachineSet';
export const MACHINE_AUTOSCALER_KIND = 'MachineAutoscaler';

export const DEFAULT_OPERATOR_NAMESPACE = 'openshift-machine-api';
export const DEFAULT_MACHINE_API_NAMESPACE = 'openshift-machine-api';
export const DEFAULT_CLUSTER_API_NAMESPACE = 'openshift-cluster-api';

/** upstream: cluster-autoscaler-operator machineautoscaler_controller.go `MachineTargetFinalizer`. */
export const MACHINE_TARGET_FINALIZER = 'machinetarget.autoscaling.openshift.io';
/** upstream: machineautoscaler_controller.go `MachineTargetOwnerAnnotation`; value `<namespace>/<name>`. */
export const MACHINE_TARGET_OWNER_ANNOTATION = 'autoscaling.openshift.io/machineautoscaler';

/** The only min/max keys the operator writes (machineautoscaler_controller.go `minSizeAnnotation`). */
export const MACHINE_API_MIN_SIZE_ANNOTATION = 'machine.openshift.io/cluster-api-autoscaler-node-group-min-size';
export const MACHINE_API_MAX_SIZE_ANNOTATION = 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size';
/** What the upstream `clusterapi` provider reads with the default CAPI_GROUP (docs/engines/machine.md §4). */
export const CLUSTER_API_MIN_SIZE_ANNOTATION = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const CLUSTER_API_MAX_SIZE_ANNOTATION = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
/** Autoscaling options read by the `openshift` provider on MAPI node groups. */
export const MACHINE_API_AUTOSCALING_OPTIONS_PREFIX = 'machine.openshift.io/autoscaling-options-';

/** Scale-from-zero keys of the upstream autoscaler (clusterapi_utils.go). */
export const CAPACITY_ANNOTATION_PREFIX = 'capacity.cluster-autoscaler.kubernetes.io/';
export const CAPACITY_CPU_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/cpu';
export const CAPACITY_MEMORY_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/memory';
export const CAPACITY_EPHEMERAL_DISK_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/ephemeral-disk';
export const CAPACITY_GPU_TYPE_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/gpu-type';
export const CAPACITY_GPU_COUNT_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/gpu-count';
export const CAPACITY_MAX_PODS_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/maxPods';
export const CAPACITY_LABELS_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/labels';
export const CAPACITY_TAINTS_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/taints';
export const CAPACITY_DRA_DRIVER_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/dra-driver';
export const CAPACITY_CSI_DRIVER_ANNOTATION = 'capacity.cluster-autoscaler.kubernetes.io/csi-driver';

/**
 * Deprecated OpenShift scale-from-zero keys written by the MAPI MachineSet controllers
 * (machine-api-operator pkg/util/machineset/util.go `*KeyDeprecated`). `memoryMb` is in MiB.
 */
export const MACHINE_API_VCPU_ANNOTATION = 'machine.openshift.io/vCPU';
export const MACHINE_API_MEMORY_MB_ANNOTATION = 'machine.openshift.io/memoryMb';
export const MACHINE_API_GPU_ANNOTATION = 'machine.openshift.io/GPU';
export const MACHINE_API_MAX_PODS_ANNOTATION = 'machine.openshift.io/maxPods';

/** The clusterapi provider skips sets carrying this key, whatever its value (clusterapi_controller.go). */
export const CLUSTER_API_PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';

/** Template label the operator checks when a set has GPUs (machinetarget.go `autoscalerGPUAcceleratorLabel`). */
export const GPU_ACCELERATOR_LABEL = 'cluster-api/accelerator';

export const CLUSTER_API_CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
export const MACHINE_API_CLUSTER_LABEL = 'machine.openshift.io/cluster-api-cluster';
/** cluster-capi-operator puts this finalizer on both copies of a synchronized pair. */
export const SYNC_FINALIZER = 'sync.machine.openshift.io/finalizer';
export const MACHINE_API_DELETE_MACHINE_ANNOTATION = 'machine.openshift.io/delete-machine';
export const CLUSTER_API_DELETE_MACHINE_ANNOTATION = 'cluster.x-k8s.io/delete-machine';

/** MAPI MachineSet condition written by the MachineSet sync controller (cluster-capi-operator common_consts.go). */
export const SYNCHRONIZED_CONDITION = 'Synchronized';
export const PAUSED_CONDITION = 'Paused';
export const READY_CONDITION = 'Ready';

/** Seed and merged-design reasons (openshift/enhancements PR #1736), used verbatim. */
export const MACHINE_AUTOSCALER_READY_REASON = 'MachineAutoscalerReady';
export const MACHINE_AUTOSCALER_READY_MESSAGE = 'MachineAutoscaler ready for autoscaling';

/** The only ClusterAutoscaler name the operator accepts (its webhook rejects every other name). */
export const CLUSTER_AUTOSCALER_NAME = 'default';

/** The CRD whose schema tells whether the operator is the enhancement-era one (docs/engines/machine.md §7). */
export const MACHINE_AUTOSCALER_CRD_NAME = 'machineautoscalers.autoscaling.openshift.io';

/** Event reasons the operator's MachineAutoscaler controller records (docs/engines/machine.md §2 table). */
export const MACHINE_AUTOSCALER_EVENT_REASONS: readonly string[] = [
  'FailedValidation',
  'FailedGetTarget',
  'FailedSetOwner',
  'FailedSetLastTarget',
  'FailedGetLastTarget',
  'FailedFinalizeTarget',
  'FailedUpdateTarget',
  'SuccessfulUpdate',
  'InvalidOrMissingGPUAcceleratorLabel',
];
/** Recorded on the MachineSet rather than on the MachineAutoscaler. */
export const GPU_LABEL_EVENT_REASON = 'InvalidOrMissingGPUAcceleratorLabel';
