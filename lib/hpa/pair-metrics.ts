import type { LabelSelector, MetricSpec, MetricStatus } from '@/lib/k8s/types';

/** What a spec metric and its status share: source type, metric or resource name, selector, container, described object. */
export interface MetricIdentity {
  type: string;
  name: string;
  container?: string;
  selector?: string;
  describedObject?: string;
}

export interface MetricPair {
  identity: MetricIdentity;
  /** A stable key built from the identity, e.g. `Resource/cpu` or `External/queue_depth{queue=a}`. */
  key: string;
  spec: MetricSpec | null;
  status: MetricStatus | null;
}

function selectorKey(selector: LabelSelector | null | undefined): string | undefined {
  if (!selector) return undefined;
  const labels = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `${e.key} ${e.operator} (${[...(e.values ?? [])].sort().join(',')})`)
    .sort();
  const all = [...labels, ...expressions];
  return all.length ? all.join(',') : undefined;
}

/** The identity of a spec or status entry; both shapes carry the same identifying fields. */
export function toMetricIdentity(metric: MetricSpec | MetricStatus): MetricIdentity {
  switch (metric.type) {
    case 'Resource':
      return { type: 'Resource', name: metric.resource?.name ?? '' };
    case 'ContainerResource':
      return {
        type: 'ContainerResource',
        name: metric.containerResource?.name ?? '',
        container: metric.containerResource?.container ?? '',
      };
    case 'Pods':
      return { type: 'Pods', name: metric.pods?.metric.name ?? '', selector: selectorKey(metric.pods?.metric.selector) };
    case 'Object': {
      const ref = metric.object?.describedObject;
      return {
        type: 'Object',
        name: metric.object?.metric.name ?? '',
        selector: selectorKey(metric.object?.metric.selector),
        describedObject: ref ? `${ref.apiVersion ?? ''}/${ref.kind}/${ref.name}` : undefined,
      };
    }
    case 'External':
      return { type: 'External', name: metric.external?.metric.name ?? '', selector: selectorKey(metric.external?.metric.selector) };
    default:
      return { type: metric.type, name: '' };
  }
}

export function metricKey(identity: MetricIdentity): string {
  let key = `${identity.type}/${identity.name}`;
  if (identity.container) key += `[${identity.container}]`;
  if (identity.describedObject) key += `@${identity.describedObject}`;
  if (identity.selector) key += `{${identity.selector}}`;
  return key;
}

/**
 * Pairs each spec metric with its status entry by identity, never by list position: the controller
 * leaves an empty entry for a failed metric, and other writers reorder (Headlamp #7736, Lens #6110).
 * The described object of an Object metric is compared without its apiVersion when only one side has it, and
 * is not required when the status has none (released controllers omit it for AverageValue targets).
 * Status entries that match no spec metric come last with `spec: null`.
 */
export function pairMetrics(
  specMetrics: readonly MetricSpec[] | null | undefined,
  currentMetrics: readonly MetricStatus[] | null | undefined,
): MetricPair[] {
  const remaining = (currentMetrics ?? []).map((status) => ({ status, identity: toMetricIdentity(status), used: false }));
  // kind and name never contain '/', so the last two segments are the object without its apiVersion
  // (which may itself be "v1" or "apps/v1")
  const looseKey = (id: MetricIdentity): string =>
    metricKey({ ...id, describedObject: id.describedObject?.split('/').slice(-2).join('/') });
  const withoutObject = (id: MetricIdentity): string => metricKey({ ...id, describedObject: undefined });
  const pairs: MetricPair[] = (specMetrics ?? []).map((spec) => {
    const identity = toMetricIdentity(spec);
    const key = metricKey(identity);
    const match =
      remaining.find((r) => !r.used && metricKey(r.identity) === key) ??
      remaining.find((r) => !r.used && looseKey(r.identity) === looseKey(identity)) ??
      // released controllers write no describedObject for an Object metric with an AverageValue target
      remaining.find(
        (r) =>
          !r.used &&
          r.identity.type === 'Object' &&
          r.identity.describedObject === undefined &&
          withoutObject(r.identity) === withoutObject(identity),
      );
    if (match) match.used = true;
    return { identity, key, spec, status: match?.status ?? null };
  });
  for (const r of remaining) {
    // An empty entry (`{type: ""}`) is what the controller writes for a metric it could not compute.
    if (!r.used && r.status.type) pairs.push({ identity: r.identity, key: metricKey(r.identity), spec: null, status: r.status });
  }
  return pairs;
}
