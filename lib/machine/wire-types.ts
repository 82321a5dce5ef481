/**
 * The Kubernetes JSON `lib/machine` reads, as the API serves it. Only read fields are typed; every
 * object still carries `[key: string]: unknown` through `KubeObject`. Fields the schema marks required
 * are optional here anyway, because a MachineAutoscaler admitted while the webhook was down
 * (failurePolicy Ignore) or a half-synchronized mirror can lack them.
 */
import type { Condition, CoreEvent, KubeObject } from '@/lib/k8s/types';

export interface MachineAutoscalerTargetRef {
  apiVersion?: string;
  kind?: string;
  name?: string;
}

/** `autoscaling.openshift.io/v1beta1` MachineAutoscaler; `status.conditions` only with PR #402. */
export interface MachineAutoscalerObject extends KubeObject {
  spec?: {
    minReplicas?: number;
    maxReplicas?: number;
    scaleTargetRef?: MachineAutoscalerTargetRef;
    [key: string]: unknown;
  };
  status?: {
    lastTargetRef?: MachineAutoscalerTargetRef | null;
    conditions?: Condition[] | null;
    [key: string]: unknown;
  };
}

interface TemplateMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** v1beta1 `{apiVersion, kind, name, namespace}`; v1beta2 `{apiGroup, kind, name}`. */
export interface InfrastructureRef {
  apiVersion?: string;
  apiGroup?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

/** `machine.openshift.io/v1beta1` MachineSet (openshift/api machine/v1beta1/types_machineset.go). */
export interface MachineAPIMachineSetObject extends KubeObject {
  spec?: {
    replicas?: number;
    authoritativeAPI?: string;
    template?: { metadata?: TemplateMetadata; spec?: { metadata?: TemplateMetadata; [key: string]: unknown } };
    [key: string]: unknown;
  };
  status?: {
    replicas?: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    authoritativeAPI?: string;
    synchronizedAPI?: string;
    synchronizedGeneration?: number;
    errorReason?: string;
    errorMessage?: string;
    conditions?: Condition[] | null;
    [key: string]: unknown;
  };
}

/** `cluster.x-k8s.io` MachineSet in either served shape (cluster-api api/core/v1beta{1,2}/machineset_types.go). */
export interface ClusterAPIMachineSetObject extends KubeObject {
  spec?: {
    clusterName?: string;
    replicas?: number;
    deletePolicy?: string;
    deletion?: { order?: string };
    template?: {
      metadata?: TemplateMetadata;
      spec?: { infrastructureRef?: InfrastructureRef; [key: string]: unknown };
    };
    [key: string]: unknown;
  };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    upToDateReplicas?: number;
    fullyLabeledReplicas?: number;
    conditions?: Condition[] | null;
    /** v1beta1 only: the new-semantics counters and conditions. */
    v1beta2?: { readyReplicas?: number; availableReplicas?: number; upToDateReplicas?: number; conditions?: Condition[] | null };
    /** v1beta2 only: the legacy counters and conditions. */
    deprecated?: {
      v1beta1?: { readyReplicas?: number; availableReplicas?: number; fullyLabeledReplicas?: number; conditions?: Condition[] | null };
    };
    [key: string]: unknown;
  };
}

export type MachineSetObject = MachineAPIMachineSetObject | ClusterAPIMachineSetObject;

/** An infrastructure machine template (e.g. AWSMachineTemplate); only `status.capacity` is read. */
export interface InfrastructureTemplateObject extends KubeObject {
  status?: { capacity?: Record<string, string>; [key: string]: unknown };
}

/** `events.k8s.io/v1` Event (the operator's recorder since commit 789c149e). */
export interface EventsV1Event extends KubeObject {
  regarding?: { kind?: string; name?: string; namespace?: string; uid?: string; apiVersion?: string };
  related?: { kind?: string; name?: string; namespace?: string; apiVersion?: string } | null;
  reason?: string;
  note?: string;
  type?: string;
  action?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string } | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedFirstTimestamp?: string | null;
  deprecatedCount?: number;
  reportingController?: string;
}

export type MachineEventObject = CoreEvent | EventsV1Event;

/** `apiextensions.k8s.io/v1` CustomResourceDefinition, as far as capability detection reads it. */
export interface CustomResourceDefinitionObject extends KubeObject {
  spec?: {
    versions?: {
      name?: string;
      served?: boolean;
      storage?: boolean;
      schema?: { openAPIV3Schema?: JsonSchemaProps };
    }[];
    [key: string]: unknown;
  };
}

export interface JsonSchemaProps {
  type?: string;
  properties?: Record<string, JsonSchemaProps>;
  [key: string]: unknown;
}
