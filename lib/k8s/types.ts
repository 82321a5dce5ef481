/**
 * Kubernetes objects as the API serves them in JSON (timestamps are RFC 3339 strings, quantities are
 * strings). Only the fields Autoscope reads are typed; everything else passes through `[key: string]: unknown`.
 * These are our own wire types rather than client-node's models, which turn timestamps into Dates.
 */

export type Quantity = string | number;

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
  managedFields?: unknown[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface Condition {
  type: string;
  status: string; // 'True', 'False', 'Unknown', or any other value the API serves
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  severity?: string;
  observedGeneration?: number;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string; // 'In', 'NotIn', 'Exists', 'DoesNotExist', or any other value the API serves
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface MetricIdentifier {
  name: string;
  selector?: LabelSelector | null;
}

export interface MetricTarget {
  type: string; // 'Utilization', 'Value', 'AverageValue', or any other value the API serves
  value?: Quantity | null;
  averageValue?: Quantity | null;
  averageUtilization?: number | null;
}

export interface MetricValueStatus {
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

export type MetricSourceType = 'Object' | 'Pods' | 'Resource' | 'ContainerResource' | 'External';

export interface MetricSpec {
  type: string; // a MetricSourceType, or one this version does not know
  object?: { describedObject: CrossVersionObjectReference; metric: MetricIdentifier; target: MetricTarget };
  pods?: { metric: MetricIdentifier; target: MetricTarget };
  resource?: { name: string; target: MetricTarget };
  containerResource?: { name: string; container: string; target: MetricTarget };
  external?: { metric: MetricIdentifier; target: MetricTarget };
}

export interface MetricStatus {
  type: string; // a MetricSourceType, or one this version does not know
  object?: { describedObject: CrossVersionObjectReference; metric: MetricIdentifier; current: MetricValueStatus };
  pods?: { metric: MetricIdentifier; current: MetricValueStatus };
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; container: string; current: MetricValueStatus };
  external?: { metric: MetricIdentifier; current: MetricValueStatus };
}

export interface HpaScalingPolicy {
  type: string; // 'Pods', 'Percent', or any other value the API serves
  value: number;
  periodSeconds: number;
}

export interface HpaScalingRules {
  stabilizationWindowSeconds?: number | null;
  selectPolicy?: string | null; // 'Max', 'Min', 'Disabled', or any other value the API serves
  policies?: HpaScalingPolicy[] | null;
  tolerance?: Quantity | null;
}

export interface HpaBehavior {
  scaleUp?: HpaScalingRules | null;
  scaleDown?: HpaScalingRules | null;
}

export interface HpaSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number | null;
  maxReplicas: number;
  metrics?: MetricSpec[] | null;
  behavior?: HpaBehavior | null;
}

export interface HpaStatus {
  observedGeneration?: number;
  lastScaleTime?: string | null;
  currentReplicas?: number;
  desiredReplicas?: number;
  currentMetrics?: MetricStatus[] | null;
  conditions?: Condition[] | null;
}

/** `autoscaling/v2` HorizontalPodAutoscaler; Karmada's FederatedHPA has the same spec and status. */
export interface HorizontalPodAutoscaler extends KubeObject {
  spec: HpaSpec;
  status?: HpaStatus;
}

export interface ContainerJson {
  name: string;
  resources?: { requests?: Record<string, Quantity>; limits?: Record<string, Quantity> };
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: {
    containers: ContainerJson[];
    initContainers?: ContainerJson[];
    resources?: { requests?: Record<string, Quantity>; limits?: Record<string, Quantity> };
    [key: string]: unknown;
  };
  status?: {
    phase?: string; // 'Pending', 'Running', 'Succeeded', 'Failed', 'Unknown', or any other value the API serves
    startTime?: string;
    conditions?: Condition[];
    [key: string]: unknown;
  };
}

/** `metrics.k8s.io/v1beta1` PodMetrics. */
export interface PodMetrics {
  metadata: ObjectMeta;
  timestamp: string;
  window: string;
  containers: { name: string; usage: Record<string, Quantity> }[];
}

/** core/v1 Event (the fields Autoscope reads; events.k8s.io/v1 maps onto it). */
export interface CoreEvent extends KubeObject {
  involvedObject: { kind?: string; name?: string; namespace?: string; uid?: string; apiVersion?: string };
  reason?: string;
  message?: string;
  type?: string; // 'Normal', 'Warning', or any other value the API serves
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  source?: { component?: string };
  reportingComponent?: string;
}
