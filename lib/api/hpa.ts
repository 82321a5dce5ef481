import { z } from 'zod';

import { tryParseQuantity } from '@/lib/k8s/quantity';

/**
 * Wire contract of `POST /api/v1/preview/hpa`: an `HpaSyncInput` for `lib/hpa`'s `simulateHpaSync` and its
 * `HpaSyncResult`. Quantities travel as strings (the API's own JSON form) and every list is bounded, so one
 * request cannot make the port loop over millions of pods.
 */

export const HPA_PREVIEW_MAX_PODS = 5_000;
export const HPA_PREVIEW_MAX_METRICS = 32;
export const HPA_PREVIEW_MAX_HISTORY = 10_000;

const name = z.string().min(1).max(253);
const shortText = z.string().max(1_024);
const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);
const replicas = z.number().int().min(0).max(2_147_483_647);
const time = z.iso.datetime({ offset: true });

function boundedRecord<T extends z.ZodType>(value: T, max: number) {
  return z.record(z.string().max(317), value).refine((r) => Object.keys(r).length <= max, { message: `must have at most ${max} entries` });
}

/** A Kubernetes quantity string ("500m", "1.5Gi", "2e3"), validated with `lib/k8s/quantity`. */
export const QuantityStringSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((q) => tryParseQuantity(q) !== null, { message: 'must be a Kubernetes quantity (e.g. "500m", "1.5Gi", "2e3")' });

const labels = boundedRecord(z.string().max(63), 64);

export const LabelSelectorSchema = z.object({
  matchLabels: labels.optional(),
  matchExpressions: z
    .array(z.object({ key: z.string().max(317), operator: z.string().max(32), values: z.array(z.string().max(63)).max(64).optional() }))
    .max(32)
    .optional(),
});

const MetricTargetSchema = z.object({
  type: z.string().max(32),
  value: QuantityStringSchema.optional(),
  averageValue: QuantityStringSchema.optional(),
  averageUtilization: int32.optional(),
});
const MetricIdentifierSchema = z.object({ name: name, selector: LabelSelectorSchema.nullish() });
const CrossVersionObjectReferenceSchema = z.object({ kind: name, name, apiVersion: z.string().max(253).optional() });

/** autoscaling/v2 MetricSpec; an unknown `type` is accepted, as the controller reports InvalidMetricSourceType. */
export const MetricSpecSchema = z.object({
  type: z.string().max(32),
  object: z
    .object({ describedObject: CrossVersionObjectReferenceSchema, metric: MetricIdentifierSchema, target: MetricTargetSchema })
    .optional(),
  pods: z.object({ metric: MetricIdentifierSchema, target: MetricTargetSchema }).optional(),
  resource: z.object({ name, target: MetricTargetSchema }).optional(),
  containerResource: z.object({ name, container: name, target: MetricTargetSchema }).optional(),
  external: z.object({ metric: MetricIdentifierSchema, target: MetricTargetSchema }).optional(),
});

const MetricValueStatusSchema = z.object({
  value: QuantityStringSchema.optional(),
  averageValue: QuantityStringSchema.optional(),
  averageUtilization: int32.optional(),
});

export const MetricStatusSchema = z.object({
  type: z.string().max(32),
  object: z
    .object({ describedObject: CrossVersionObjectReferenceSchema, metric: MetricIdentifierSchema, current: MetricValueStatusSchema })
    .optional(),
  pods: z.object({ metric: MetricIdentifierSchema, current: MetricValueStatusSchema }).optional(),
  resource: z.object({ name, current: MetricValueStatusSchema }).optional(),
  containerResource: z.object({ name, container: name, current: MetricValueStatusSchema }).optional(),
  external: z.object({ metric: MetricIdentifierSchema, current: MetricValueStatusSchema }).optional(),
});

/** HPAScalingRules with the API's validation bounds (window 0..3600s, period 1..1800s, value > 0). */
export const HpaScalingRulesSchema = z.object({
  stabilizationWindowSeconds: z.number().int().min(0).max(3_600).nullish(),
  selectPolicy: z.enum(['Max', 'Min', 'Disabled']).optional(),
  policies: z
    .array(
      z.object({
        type: z.enum(['Pods', 'Percent']),
        value: z.number().int().min(1).max(2_147_483_647),
        periodSeconds: z.number().int().min(1).max(1_800),
      }),
    )
    .max(16)
    .optional(),
  tolerance: QuantityStringSchema.optional(),
});

export const ConditionSchema = z.object({
  type: z.string().max(64),
  status: z.string().max(16),
  reason: shortText.optional(),
  message: z.string().max(32_768).optional(),
  lastTransitionTime: time.optional(),
});

export const HpaStatusSchema = z.object({
  observedGeneration: z.number().int().min(0).optional(),
  lastScaleTime: time.nullish(),
  currentReplicas: replicas.optional(),
  desiredReplicas: replicas.optional(),
  currentMetrics: z.array(MetricStatusSchema).max(HPA_PREVIEW_MAX_METRICS).nullish(),
  conditions: z.array(ConditionSchema).max(16).nullish(),
});

export const HorizontalPodAutoscalerSchema = z.looseObject({
  apiVersion: z.string().max(64).optional(),
  kind: z.string().max(64).optional(),
  metadata: z.looseObject({ name, namespace: name.optional(), generation: z.number().int().min(0).optional() }),
  spec: z.object({
    scaleTargetRef: CrossVersionObjectReferenceSchema,
    minReplicas: replicas.nullish(),
    maxReplicas: z.number().int().min(1).max(2_147_483_647),
    metrics: z.array(MetricSpecSchema).max(HPA_PREVIEW_MAX_METRICS).nullish(),
    behavior: z.object({ scaleUp: HpaScalingRulesSchema.nullish(), scaleDown: HpaScalingRulesSchema.nullish() }).nullish(),
  }),
  status: HpaStatusSchema.optional(),
});

const resourceList = boundedRecord(QuantityStringSchema, 32);
const ContainerSchema = z.looseObject({
  name,
  resources: z.object({ requests: resourceList.optional(), limits: resourceList.optional() }).optional(),
  restartPolicy: z.string().max(32).optional(),
});

/** core/v1 Pod, the fields the controller reads; the rest of the API's JSON passes through. */
export const PodSchema = z.looseObject({
  metadata: z.looseObject({ name, namespace: name.optional(), labels: labels.optional(), deletionTimestamp: time.optional() }),
  spec: z
    .looseObject({
      containers: z.array(ContainerSchema).max(64),
      initContainers: z.array(ContainerSchema).max(64).optional(),
      resources: z.object({ requests: resourceList.optional(), limits: resourceList.optional() }).optional(),
    })
    .optional(),
  status: z
    .looseObject({
      phase: z.string().max(32).optional(),
      startTime: time.optional(),
      conditions: z.array(ConditionSchema).max(32).optional(),
    })
    .optional(),
});

/** metrics.k8s.io/v1beta1 PodMetrics */
export const PodMetricsSchema = z.object({
  metadata: z.looseObject({ name, namespace: name.optional(), labels: labels.optional() }),
  timestamp: time,
  window: z.string().max(32),
  containers: z.array(z.object({ name, usage: resourceList })).max(64),
});

export const HpaMetricsInputSchema = z.object({
  resource: z.array(PodMetricsSchema).max(HPA_PREVIEW_MAX_PODS).optional(),
  pods: boundedRecord(
    z
      .array(
        z.object({
          pod: name,
          value: QuantityStringSchema,
          timestamp: time.optional(),
          window: z.union([z.number().min(0).max(86_400), z.string().max(32)]).optional(),
        }),
      )
      .max(HPA_PREVIEW_MAX_PODS),
    HPA_PREVIEW_MAX_METRICS,
  ).optional(),
  object: boundedRecord(QuantityStringSchema, HPA_PREVIEW_MAX_METRICS).optional(),
  external: boundedRecord(z.array(QuantityStringSchema).max(1_000), HPA_PREVIEW_MAX_METRICS).optional(),
  errors: z
    .object({ resource: shortText.optional(), pods: shortText.optional(), object: shortText.optional(), external: shortText.optional() })
    .optional(),
});

const RecommendationSchema = z.object({ replicas: int32, timestamp: time });
const ScaleEventSchema = z.object({ replicaChange: int32, timestamp: time, outdated: z.boolean().optional() });

export const HpaControllerStateSchema = z.object({
  recommendations: z.array(RecommendationSchema).max(HPA_PREVIEW_MAX_HISTORY).nullable(),
  scaleUpEvents: z.array(ScaleEventSchema).max(HPA_PREVIEW_MAX_HISTORY),
  scaleDownEvents: z.array(ScaleEventSchema).max(HPA_PREVIEW_MAX_HISTORY),
});

const seconds = z.number().finite().min(0).max(86_400);

/** kube-controller-manager flags and gates; every field is optional and defaults to production. */
export const HpaControllerConfigSchema = z.object({
  tolerance: z.number().finite().min(0).max(100).optional(),
  downscaleStabilizationSeconds: seconds.optional(),
  cpuInitializationPeriodSeconds: seconds.optional(),
  initialReadinessDelaySeconds: seconds.optional(),
  scaleUpLimitFactor: z.number().finite().min(0).max(1_000).optional(),
  scaleUpLimitMinimum: z.number().finite().min(0).max(1_000_000).optional(),
  toleranceRule: z.enum(['interval', 'legacy']).optional(),
  configurableTolerance: z.boolean().optional(),
  podLevelResources: z.boolean().optional(),
  missingPodsOnScaleDown: z.enum(['maxOf100AndTarget', 'request']).optional(),
  partialFailure: z.enum(['refuseScaleDown', 'useValid']).optional(),
  ignoreSucceededPods: z.boolean().optional(),
  memoryAverageValueFormat: z.enum(['DecimalSI', 'BinarySI']).optional(),
  replicasAggregator: z.enum(['max', 'min', 'average']).optional(),
  hpaGeneration: z.boolean().optional(),
});

export const HpaSyncInputSchema = z.object({
  hpa: HorizontalPodAutoscalerSchema,
  scale: z.object({ specReplicas: replicas, statusReplicas: replicas, selector: z.string().max(4_096) }),
  pods: z.array(PodSchema).max(HPA_PREVIEW_MAX_PODS),
  metrics: HpaMetricsInputSchema,
  controllerState: HpaControllerStateSchema.nullish(),
  failures: z.object({ getScale: shortText.optional(), updateScale: shortText.optional() }).optional(),
  otherHpaSelectors: z
    .array(z.union([z.string().max(4_096), z.object({ name, selector: z.string().max(4_096) })]))
    .max(1_000)
    .optional(),
  config: HpaControllerConfigSchema.optional(),
  now: time,
});
export type HpaSyncInputBody = z.infer<typeof HpaSyncInputSchema>;

export const HpaEventSchema = z.object({ type: z.enum(['Normal', 'Warning']), reason: z.string(), message: z.string() });

export const HpaSyncResultSchema = z.object({
  desiredReplicas: z.number().int(),
  rescale: z.boolean(),
  conditions: z.array(
    z.object({
      type: z.string(),
      status: z.string(),
      reason: z.string().optional(),
      message: z.string().optional(),
      lastTransitionTime: z.string().optional(),
    }),
  ),
  currentMetrics: z.array(z.looseObject({ type: z.string() })),
  events: z.array(HpaEventSchema),
  controllerState: HpaControllerStateSchema,
  explanation: z.array(z.string()),
  lastScaleTime: z.string().nullable(),
  status: z.looseObject({ currentReplicas: z.number().int().optional(), desiredReplicas: z.number().int().optional() }),
});
export type HpaSyncResultBody = z.infer<typeof HpaSyncResultSchema>;
