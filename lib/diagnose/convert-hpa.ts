import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';

/**
 * Any served HorizontalPodAutoscaler version as the autoscaling/v2 object the mappers read, following the
 * API server's own conversion functions (kubernetes pkg/apis/autoscaling, pinned at commit 6672a99e for
 * v1/conversion.go and 819ecd4d for v2beta1/conversion.go). v2beta2 has v2's shape (v2 only adds
 * behavior tolerance), so it passes through.
 */

type Json = Record<string, unknown>;

/** autoscaling.MetricSpecsAnnotation, MetricStatusesAnnotation, HorizontalPodAutoscalerConditionsAnnotation. */
export const V1_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const V1_CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const V1_CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
/** autoscaling.BehaviorSpecsAnnotation (v2beta1 round trip). */
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
/** autoscaling.DefaultCPUUtilization. */
const DEFAULT_CPU_UTILIZATION = 80;

export const HPA_VERSIONS = ['autoscaling/v1', 'autoscaling/v2beta1', 'autoscaling/v2beta2', 'autoscaling/v2'] as const;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function defined<T extends Json>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** Convert_v1_ResourceMetricSource_To_autoscaling_ResourceMetricSource (the same in v2beta1). */
function resourceSource(r: Json): Json {
  const utilization = r.targetAverageUtilization;
  return {
    name: r.name,
    target: defined({
      type: utilization == null ? 'AverageValue' : 'Utilization',
      averageValue: r.targetAverageValue,
      averageUtilization: utilization,
    }),
  };
}

/** v1/v2beta1 MetricSpec → v2 MetricSpec: Convert_v1_{Resource,Pods,Object,External}MetricSource_To_autoscaling_*. */
export function metricSpecFromV2beta1(m: Json): Json {
  const type = m.type;
  const resource = obj(m.resource);
  const containerResource = obj(m.containerResource);
  const pods = obj(m.pods);
  const object = obj(m.object);
  const external = obj(m.external);
  if (type === 'Resource' && resource) return { type, resource: resourceSource(resource) };
  if (type === 'ContainerResource' && containerResource)
    return { type, containerResource: { ...resourceSource(containerResource), container: containerResource.container } };
  if (type === 'Pods' && pods) {
    // Convert_v1_PodsMetricSource_To_autoscaling_PodsMetricSource: always AverageValue.
    return {
      type,
      pods: {
        metric: defined({ name: pods.metricName, selector: pods.selector }),
        target: { type: 'AverageValue', averageValue: pods.targetAverageValue },
      },
    };
  }
  if (type === 'Object' && object) {
    // Convert_v1_ObjectMetricSource_To_autoscaling_ObjectMetricSource: AverageValue iff averageValue is set.
    const target = obj(object.target) ?? {};
    return {
      type,
      object: {
        describedObject: defined({ kind: target.kind, name: target.name, apiVersion: target.apiVersion }),
        metric: defined({ name: object.metricName, selector: object.selector }),
        target: defined({
          type: object.averageValue == null ? 'Value' : 'AverageValue',
          value: object.targetValue,
          averageValue: object.averageValue,
        }),
      },
    };
  }
  if (type === 'External' && external) {
    // Convert_v1_ExternalMetricSource_To_autoscaling_ExternalMetricSource: Value iff targetValue is set.
    return {
      type,
      external: {
        metric: defined({ name: external.metricName, selector: external.metricSelector }),
        target: defined({
          type: external.targetValue == null ? 'AverageValue' : 'Value',
          value: external.targetValue,
          averageValue: external.targetAverageValue,
        }),
      },
    };
  }
  return m;
}

/** v1/v2beta1 MetricStatus → v2 MetricStatus: Convert_v1_{Resource,Pods,Object,External}MetricStatus_To_autoscaling_*. */
export function metricStatusFromV2beta1(m: Json): Json {
  const type = m.type;
  const resource = obj(m.resource) ?? obj(m.containerResource);
  const pods = obj(m.pods);
  const object = obj(m.object);
  const external = obj(m.external);
  if ((type === 'Resource' || type === 'ContainerResource') && resource) {
    // Convert_v1_ResourceMetricStatus_To_autoscaling_ResourceMetricStatus: averageValue always set.
    const current = defined({ averageValue: resource.currentAverageValue ?? '0', averageUtilization: resource.currentAverageUtilization });
    return type === 'Resource'
      ? { type, resource: { name: resource.name, current } }
      : { type, containerResource: { name: resource.name, container: resource.container, current } };
  }
  if (type === 'Pods' && pods)
    return {
      type,
      pods: { metric: defined({ name: pods.metricName, selector: pods.selector }), current: { averageValue: pods.currentAverageValue } },
    };
  if (type === 'Object' && object) {
    const target = obj(object.target) ?? {};
    return {
      type,
      object: {
        describedObject: defined({ kind: target.kind, name: target.name, apiVersion: target.apiVersion }),
        metric: defined({ name: object.metricName, selector: object.selector }),
        current: defined({ value: object.currentValue, averageValue: object.averageValue }),
      },
    };
  }
  if (type === 'External' && external) {
    return {
      type,
      external: {
        metric: defined({ name: external.metricName, selector: external.metricSelector }),
        current: defined({ value: external.currentValue, averageValue: external.currentAverageValue }),
      },
    };
  }
  return m;
}

function parseAnnotation(annotations: Json, key: string, notes: string[]): unknown[] | null {
  const raw = annotations[key];
  if (typeof raw !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed as unknown[];
  } catch {
    // reported below
  }
  notes.push(`the ${key} annotation is not a JSON list, so what it holds could not be read`);
  return null;
}

function withoutAnnotations(metadata: Json, keys: readonly string[]): Json {
  const annotations = obj(metadata.annotations);
  if (!annotations) return metadata;
  return { ...metadata, annotations: Object.fromEntries(Object.entries(annotations).filter(([k]) => !keys.includes(k))) };
}

/**
 * Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler with its spec and status
 * parts: the metrics annotation first, then targetCPUUtilizationPercentage; the current-metrics annotation
 * replaces currentCPUUtilizationPercentage; the conditions annotation becomes status.conditions; no metric
 * at all means the cpu 80% default.
 */
function fromV1(o: Json, notes: string[]): Json {
  const metadata = obj(o.metadata) ?? {};
  const annotations = obj(metadata.annotations) ?? {};
  const spec = obj(o.spec) ?? {};
  const status = obj(o.status);
  const metrics: Json[] = [];
  for (const m of parseAnnotation(annotations, V1_METRICS_ANNOTATION, notes) ?? [])
    if (obj(m)) metrics.push(metricSpecFromV2beta1(m as Json));
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } },
    });
  }
  if (metrics.length === 0)
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
    });

  let v2Status: Json | undefined;
  if (status) {
    const annotated = parseAnnotation(annotations, V1_CURRENT_METRICS_ANNOTATION, notes);
    const currentMetrics = annotated
      ? annotated.filter((m) => obj(m)).map((m) => metricStatusFromV2beta1(m as Json))
      : typeof status.currentCPUUtilizationPercentage === 'number'
        ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }]
        : [];
    const conditions = parseAnnotation(annotations, V1_CONDITIONS_ANNOTATION, notes);
    v2Status = defined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas,
      desiredReplicas: status.desiredReplicas,
      currentMetrics,
      conditions: conditions ?? undefined,
    });
  }
  return defined({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: withoutAnnotations(metadata, [V1_METRICS_ANNOTATION, V1_CURRENT_METRICS_ANNOTATION, V1_CONDITIONS_ANNOTATION]),
    spec: defined({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics }),
    status: v2Status,
  });
}

/** Convert_v2beta1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: metric fields renamed, behavior from its annotation. */
function fromV2beta1(o: Json, notes: string[]): Json {
  const metadata = obj(o.metadata) ?? {};
  const annotations = obj(metadata.annotations) ?? {};
  const spec = obj(o.spec) ?? {};
  const status = obj(o.status);
  let behavior: unknown;
  if (typeof annotations[BEHAVIOR_ANNOTATION] === 'string') {
    try {
      behavior = JSON.parse(annotations[BEHAVIOR_ANNOTATION]);
    } catch {
      notes.push(`the ${BEHAVIOR_ANNOTATION} annotation is not JSON, so spec.behavior could not be read`);
    }
  }
  const metrics = Array.isArray(spec.metrics) ? spec.metrics.filter((m) => obj(m)).map((m) => metricSpecFromV2beta1(m as Json)) : undefined;
  return defined({
    ...o,
    apiVersion: 'autoscaling/v2',
    metadata: withoutAnnotations(metadata, [BEHAVIOR_ANNOTATION]),
    spec: defined({ ...spec, metrics, behavior: obj(behavior) }),
    status: status
      ? defined({
          ...status,
          currentMetrics: Array.isArray(status.currentMetrics)
            ? status.currentMetrics.filter((m) => obj(m)).map((m) => metricStatusFromV2beta1(m as Json))
            : status.currentMetrics,
        })
      : undefined,
  });
}

/** The autoscaling/v2 form of a pasted HPA, with sentences for what could not be read. */
export function toV2Hpa(o: KubeObject): { hpa: HorizontalPodAutoscaler; notes: string[] } {
  const notes: string[] = [];
  const json = o as unknown as Json;
  const version = typeof json.apiVersion === 'string' ? json.apiVersion : '';
  const converted =
    version === 'autoscaling/v1'
      ? fromV1(json, notes)
      : version === 'autoscaling/v2beta1'
        ? fromV2beta1(json, notes)
        : { ...json, apiVersion: 'autoscaling/v2' };
  return { hpa: converted as unknown as HorizontalPodAutoscaler, notes };
}
