import type { LabelSelector, PodMetrics, Quantity } from '@/lib/k8s/types';
import type { ParsedSelector } from '@/lib/k8s/selector';
import type { HpaMetricsInput, PodsMetricSample } from '@/lib/hpa/types';
import { matchesSelector } from '@/lib/k8s/selector';
import { milliValue } from '@/lib/k8s/quantity';
import { CalcError } from '@/lib/hpa/replica-calculator';
import { GO_ZERO_TIME_MS, parseGoDuration, parseTimeMs } from '@/lib/hpa/time';
import type { PodMetricsInfo } from '@/lib/hpa/replica-calculator';

/**
 * What the REST metrics client (pkg/controller/podautoscaler/metrics/client.go) would return for this sync,
 * read from the preview input instead of the three aggregated APIs. Error texts are upstream's.
 */

const DEFAULT_WINDOW_MS = 60_000;

function timestampMs(text: string | null | undefined): number {
  return text ? parseTimeMs(text) : GO_ZERO_TIME_MS;
}

function windowMs(window: string | number | null | undefined): number {
  if (window === undefined || window === null) return DEFAULT_WINDOW_MS;
  if (typeof window === 'number') return window * 1000;
  return parseGoDuration(window) ?? DEFAULT_WINDOW_MS;
}

/**
 * upstream: resourceMetricsClient.GetResourceMetric. A pod whose containers lack the resource (or lack the
 * named container) is left out, so the replica calculator counts it as missing. metrics.k8s.io filters by the
 * pods' labels; a PodMetrics entry that carries labels not matching the selector is dropped the same way.
 */
export function getResourceMetric(input: HpaMetricsInput, resource: string, selector: ParsedSelector, container: string): PodMetricsInfo {
  if (input.errors?.resource !== undefined)
    throw new CalcError(`unable to fetch metrics from resource metrics API: ${input.errors.resource}`);
  const items: PodMetrics[] = (input.resource ?? []).filter((m) => !m.metadata.labels || matchesSelector(selector, m.metadata.labels));
  if (items.length === 0) throw new CalcError('no metrics returned from resource metrics API');
  const res: PodMetricsInfo = new Map();
  for (const m of items) {
    const ts = timestampMs(m.timestamp);
    const win = windowMs(m.window);
    if (container !== '') {
      const c = m.containers.find((x) => x.name === container);
      const usage = c?.usage[resource];
      if (usage !== undefined) res.set(m.metadata.name, { value: milliValue(usage), timestampMs: ts, windowMs: win });
      continue;
    }
    if (m.containers.length === 0) continue;
    let sum = 0n;
    let missing = false;
    for (const c of m.containers) {
      const usage = c.usage[resource];
      if (usage === undefined) {
        missing = true;
        break;
      }
      sum = BigInt.asIntN(64, sum + milliValue(usage));
    }
    if (!missing) res.set(m.metadata.name, { value: sum, timestampMs: ts, windowMs: win });
  }
  return res;
}

/** upstream: restMetricsClient.GetRawMetric (Pods metrics). Samples are keyed by pod name; the last one wins. */
export function getRawMetric(input: HpaMetricsInput, metricName: string): PodMetricsInfo {
  if (input.errors?.pods !== undefined) throw new CalcError(`unable to fetch metrics from custom metrics API: ${input.errors.pods}`);
  const samples: PodsMetricSample[] = input.pods?.[metricName] ?? [];
  if (samples.length === 0) throw new CalcError('no metrics returned from custom metrics API');
  const res: PodMetricsInfo = new Map();
  for (const s of samples)
    res.set(s.pod, { value: milliValue(s.value), timestampMs: timestampMs(s.timestamp), windowMs: windowMs(s.window) });
  return res;
}

/** upstream: restMetricsClient.GetObjectMetric */
export function getObjectMetric(input: HpaMetricsInput, metricName: string): bigint {
  if (input.errors?.object !== undefined) throw new CalcError(`unable to fetch metrics from custom metrics API: ${input.errors.object}`);
  const value: Quantity | undefined = input.object?.[metricName];
  if (value === undefined)
    throw new CalcError(
      `unable to fetch metrics from custom metrics API: the preview input has no value for object metric "${metricName}"`,
    );
  return milliValue(value);
}

/** upstream: restMetricsClient.GetExternalMetric */
export function getExternalMetric(input: HpaMetricsInput, metricName: string): bigint[] {
  if (input.errors?.external !== undefined)
    throw new CalcError(`unable to fetch metrics from external metrics API: ${input.errors.external}`);
  const values = input.external?.[metricName] ?? [];
  if (values.length === 0) throw new CalcError('no metrics returned from external metrics API');
  return values.map((v) => milliValue(v));
}

/** `%+v` of a *metav1.LabelSelector, i.e. its generated String() method (upstream uses it in metric names). */
export function goLabelSelectorString(selector: LabelSelector | null | undefined): string {
  if (!selector) return 'nil';
  const labels = Object.keys(selector.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${selector.matchLabels?.[k] ?? ''},`)
    .join('');
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
