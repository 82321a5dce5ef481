import type { Condition, HorizontalPodAutoscaler, HpaStatus, MetricStatus, Pod, PodMetrics, Quantity } from '@/lib/k8s/types';

/** The target's `/scale` subresource (autoscaling/v1 Scale) as the controller reads it. */
export interface ScaleSubresource {
  /** `scale.spec.replicas`: the controller's "current replicas". */
  specReplicas: number;
  /** `scale.status.replicas`: used by Object/External AverageValue targets. */
  statusReplicas: number;
  /** `scale.status.selector`, in the label selector string form. */
  selector: string;
}

/** One sample of the custom metrics API for a pod (`custom.metrics.k8s.io` MetricValue). */
export interface PodsMetricSample {
  pod: string;
  value: Quantity;
  timestamp?: string;
  /** Seconds (as `windowSeconds`) or a Go duration string ("1m0s"); one minute when absent. */
  window?: number | string;
}

export interface HpaMetricsErrors {
  resource?: string;
  pods?: string;
  object?: string;
  external?: string;
}

/** What the three metrics APIs answer for this sync. */
export interface HpaMetricsInput {
  /** `metrics.k8s.io/v1beta1` PodMetrics for the target's pods. */
  resource?: PodMetrics[];
  /** Pods metrics by metric name. */
  pods?: Record<string, PodsMetricSample[]>;
  /** Object metrics by metric name: the one value the custom metrics API returns for the described object. */
  object?: Record<string, Quantity>;
  /** External metrics by metric name: every series the external metrics API returns (they are summed). */
  external?: Record<string, Quantity[]>;
  /** A metrics API that fails: every metric of that source then fails with this error. */
  errors?: HpaMetricsErrors;
}

export interface TimestampedRecommendation {
  replicas: number;
  timestamp: string;
}

export interface TimestampedScaleEvent {
  /** Always positive: replicas added (scale-up log) or removed (scale-down log). */
  replicaChange: number;
  timestamp: string;
  /** Upstream marks events older than the longest policy period for reuse; carried so replays stay exact. */
  outdated?: boolean;
}

/** The controller's in-memory history for one HPA, which the Kubernetes API does not expose. */
export interface HpaControllerState {
  /** Unstabilized proposals; null = a controller that has never synced this HPA (seeded with {current, now}). */
  recommendations: TimestampedRecommendation[] | null;
  scaleUpEvents: TimestampedScaleEvent[];
  scaleDownEvents: TimestampedScaleEvent[];
}

export interface HpaSyncFailures {
  /** GET /scale fails with this error. */
  getScale?: string;
  /** PUT /scale fails with this error. */
  updateScale?: string;
}

export interface OtherHpaSelector {
  name: string;
  /** The other HPA's target selector, in string form. */
  selector: string;
}

export type ToleranceRule = 'interval' | 'legacy';
export type ReplicasAggregator = 'max' | 'min' | 'average';

/** kube-controller-manager flags and feature gates; every field defaults to production (see `DEFAULT_HPA_CONFIG`). */
export interface HpaControllerConfig {
  /** --horizontal-pod-autoscaler-tolerance */
  tolerance?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization, in seconds */
  downscaleStabilizationSeconds?: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period, in seconds */
  cpuInitializationPeriodSeconds?: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay, in seconds */
  initialReadinessDelaySeconds?: number;
  /** scaleUpLimitFactor of the legacy (no `behavior`) path; upstream unit tests set 8 */
  scaleUpLimitFactor?: number;
  /** scaleUpLimitMinimum of the legacy path */
  scaleUpLimitMinimum?: number;
  /** 'interval' (1.33+: 1-down ≤ r ≤ 1+up) or 'legacy' (≤ 1.32: |1-r| ≤ tolerance, no per-HPA tolerance) */
  toleranceRule?: ToleranceRule;
  /** HPAConfigurableTolerance gate (beta, on by default in current releases) */
  configurableTolerance?: boolean;
  /** PodLevelResources gate: pod-level `spec.resources.requests` replace container requests */
  podLevelResources?: boolean;
  /** Missing pods on a scale-down count as max(100, target)% of request (current) or 100% (older) */
  missingPodsOnScaleDown?: 'maxOf100AndTarget' | 'request';
  /** Partial metric failure: refuse to scale down (current) or use the valid metrics in both directions (≈ v1.20) */
  partialFailure?: 'refuseScaleDown' | 'useValid';
  /** Succeeded pods are ignored like Failed ones (upstream master, unreleased); released controllers count them */
  ignoreSucceededPods?: boolean;
  /** Format of a memory `averageValue` in currentMetrics: DecimalSI (released) or BinarySI (master) */
  memoryAverageValueFormat?: 'DecimalSI' | 'BinarySI';
  /** Preview only (seed hpa-custom-metrics.md): how proposals of several metrics combine; upstream is `max` */
  replicasAggregator?: ReplicasAggregator;
  /** HPAGeneration gate: write status.observedGeneration */
  hpaGeneration?: boolean;
}

export interface HpaSyncInput {
  hpa: HorizontalPodAutoscaler;
  scale: ScaleSubresource;
  pods: Pod[];
  metrics: HpaMetricsInput;
  controllerState?: HpaControllerState | null;
  failures?: HpaSyncFailures;
  otherHpaSelectors?: Array<string | OtherHpaSelector>;
  config?: HpaControllerConfig;
  /** RFC 3339 */
  now: string;
}

export interface HpaEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface HpaSyncResult {
  /** What the controller writes to status.desiredReplicas (the old value when it could not decide). */
  desiredReplicas: number;
  /** True only when the target's scale was updated successfully. */
  rescale: boolean;
  conditions: Condition[];
  currentMetrics: MetricStatus[];
  events: HpaEvent[];
  controllerState: HpaControllerState;
  explanation: string[];
  lastScaleTime: string | null;
  status: HpaStatus;
}
