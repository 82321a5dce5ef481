/**
 * The Karmada objects lib/triage reads, as karmada-apiserver serves them in JSON. Only read fields are
 * typed (sources: karmada pkg/apis/work/v1alpha2/binding_types.go, pkg/apis/cluster/v1alpha1/types.go,
 * pkg/apis/policy/v1alpha1/propagation_types.go); everything else passes through `KubeObject`.
 */
import type { Condition, HorizontalPodAutoscaler, KubeObject, Quantity } from '@/lib/k8s/types';

/** `autoscaling.karmada.io/v1alpha1` FederatedHPA: spec and status are autoscaling/v2's. */
export type FederatedHPAObject = HorizontalPodAutoscaler;

export interface ReplicaSchedulingStrategy {
  replicaSchedulingType?: string; // 'Duplicated', 'Divided', or any other value the API serves
  replicaDivisionPreference?: string; // 'Aggregated', 'Weighted', or any other value the API serves
  weightPreference?: {
    staticWeightList?: { targetCluster?: Record<string, unknown>; weight?: number }[] | null;
    dynamicWeight?: string;
  } | null;
}

export interface KarmadaPlacement {
  replicaScheduling?: ReplicaSchedulingStrategy | null;
  [key: string]: unknown;
}

export interface KarmadaTargetCluster {
  name: string;
  /** `omitempty`: absent means 0. */
  replicas?: number;
}

/** `work.karmada.io/v1alpha2` ResourceBinding. */
export interface ResourceBindingObject extends KubeObject {
  spec?: {
    resource?: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string };
    replicas?: number;
    replicaRequirements?: { resourceRequest?: Record<string, Quantity> } | null;
    clusters?: KarmadaTargetCluster[] | null;
    placement?: KarmadaPlacement | null;
    [key: string]: unknown;
  };
  status?: { conditions?: Condition[] | null; [key: string]: unknown };
}

export interface KarmadaResourceSummary {
  allocatable?: Record<string, Quantity>;
  allocating?: Record<string, Quantity>;
  allocated?: Record<string, Quantity>;
  [key: string]: unknown;
}

/** `cluster.karmada.io/v1alpha1` Cluster (cluster-scoped). */
export interface KarmadaClusterObject extends KubeObject {
  /** `syncMode`: 'Push' or 'Pull'. */
  spec?: { syncMode?: string; apiEndpoint?: string; [key: string]: unknown };
  status?: { conditions?: Condition[] | null; resourceSummary?: KarmadaResourceSummary | null; [key: string]: unknown };
}

/** `policy.karmada.io/v1alpha1` PropagationPolicy (or ClusterPropagationPolicy). */
export interface PropagationPolicyObject extends KubeObject {
  spec?: { placement?: KarmadaPlacement | null; [key: string]: unknown };
}
