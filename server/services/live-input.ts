import 'server-only';
import type { ObservedInput } from '@/lib/api';
import type { HpaControllerState, HpaMetricsInput, HpaSyncInput, OtherHpaSelector, PodsMetricSample } from '@/lib/hpa';
import type { HorizontalPodAutoscaler, LabelSelector, MetricSpec, Pod, PodMetrics } from '@/lib/k8s/types';
import { labelSelectorToSelector, selectorToString } from '@/lib/k8s/selector';
import type { KubeClient } from '../clusters/kube-client';
import { KubeApiError, toAppError } from '../clusters/kube-client';
import type { Autoscope } from '../runtime';

interface ScaleObject {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

const discoveryCache = new WeakMap<KubeClient, Map<string, Promise<{ name: string; kind: string }[]>>>();

/** The plural of a kind in a group/version, from the cluster's discovery (cached per cluster). */
async function pluralOf(client: KubeClient, apiVersion: string, kind: string): Promise<string> {
  const cache = discoveryCache.get(client) ?? new Map<string, Promise<{ name: string; kind: string }[]>>();
  discoveryCache.set(client, cache);
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion || 'v1'}`;
  let resources = cache.get(path);
  if (!resources) {
    resources = client.get<{ resources?: { name: string; kind: string }[] }>(path).then((l) => l.resources ?? []);
    cache.set(path, resources);
    resources.catch(() => cache.delete(path));
  }
  const found = (await resources).find((r) => r.kind === kind && !r.name.includes('/'));
  if (!found) throw new KubeApiError(404, 'NotFound', `no resource for kind ${kind} in ${apiVersion}`, path);
  return found.name;
}

function basePath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion || 'v1'}`;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function readScale(
  client: KubeClient,
  namespace: string,
  ref: { apiVersion?: string; kind: string; name: string },
): Promise<ScaleObject> {
  const apiVersion = ref.apiVersion ?? 'apps/v1';
  const plural = await pluralOf(client, apiVersion, ref.kind);
  return client.get<ScaleObject>(`${basePath(apiVersion)}/namespaces/${namespace}/${plural}/${ref.name}/scale`);
}

function metricSelector(selector: LabelSelector | null | undefined): string | undefined {
  if (!selector) return undefined;
  const s = selectorToString(labelSelectorToSelector(selector));
  return s || undefined;
}

export interface GatheredInput {
  input: HpaSyncInput;
  observed: ObservedInput;
  assumptions: string[];
}

/**
 * Reads, now, what the HPA controller would read for one sync — the target's /scale, the pods of its
 * selector, and each metric source — and shapes it as `simulateHpaSync`'s input. A failing metrics API
 * becomes that source's error, as the controller would see it; only GET requests are made.
 */
export async function gatherHpaInput(
  app: Autoscope,
  cluster: string,
  hpa: HorizontalPodAutoscaler,
  id: string,
  options: { pods?: (selector: string) => Promise<{ pods: Pod[]; metrics: PodMetrics[] | Error; clusters?: string[] }> } = {},
): Promise<GatheredInput> {
  const connection = app.connectionFor(cluster);
  if (!connection) throw toAppError(new KubeApiError(404, 'NotFound', `unknown cluster ${cluster}`, ''), cluster);
  const client = connection.client;
  const namespace = hpa.metadata.namespace ?? 'default';
  const now = new Date().toISOString();
  const assumptions: string[] = [];
  const failures: HpaSyncInput['failures'] = {};
  const sources: ObservedInput['sources'] = [];

  let scale: ScaleObject | null = null;
  try {
    scale = await readScale(client, namespace, hpa.spec.scaleTargetRef);
  } catch (err) {
    if (err instanceof KubeApiError && (err.statusCode === 0 || err.statusCode >= 500)) throw toAppError(err, cluster);
    failures.getScale = message(err);
  }
  const selector = scale?.status?.selector ?? '';
  let pods: Pod[] = [];
  let resource: PodMetrics[] | Error | undefined;
  let memberClusters: string[] | undefined;
  const specMetrics: MetricSpec[] = hpa.spec.metrics?.length
    ? hpa.spec.metrics
    : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const needsResource = specMetrics.some((m) => m.type === 'Resource' || m.type === 'ContainerResource');
  if (selector) {
    if (options.pods) {
      const read = await options.pods(selector);
      pods = read.pods;
      resource = read.metrics;
      memberClusters = read.clusters;
    } else {
      const list = await client
        .get<{ items?: Pod[] }>(`/api/v1/namespaces/${namespace}/pods`, { query: { labelSelector: selector } })
        .catch((err: unknown) => {
          throw toAppError(err, cluster);
        });
      pods = list.items ?? [];
      if (needsResource) {
        resource = await client
          .get<{ items?: PodMetrics[] }>(`/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods`, {
            query: { labelSelector: selector },
          })
          .then((l) => l.items ?? [])
          .catch((err: unknown) => new Error(message(err)));
      }
    }
  }

  const metrics: HpaMetricsInput = {};
  const errors: NonNullable<HpaMetricsInput['errors']> = {};
  if (resource instanceof Error) {
    // What the resource metrics client returns (the controller adds its own context in front).
    errors.resource = resource.message.replace(/^cannot reach [^:]+: /, '');
    sources.push({ source: 'resource', ok: false, detail: errors.resource });
  } else if (resource) {
    metrics.resource = resource;
    sources.push({ source: 'resource', ok: true, detail: `${resource.length} pod metrics from metrics.k8s.io` });
  }

  for (const m of specMetrics) {
    try {
      if (m.type === 'Pods' && m.pods) {
        const name = m.pods.metric.name;
        const sel = metricSelector(m.pods.metric.selector);
        const list = await client.get<{
          items?: { describedObject: { name: string }; value: string; timestamp?: string; windowSeconds?: number }[];
        }>(`/apis/custom.metrics.k8s.io/v1beta2/namespaces/${namespace}/pods/*/${encodeURIComponent(name)}`, {
          query: { labelSelector: selector, metricLabelSelector: sel },
        });
        const samples: PodsMetricSample[] = (list.items ?? []).map((i) => ({
          pod: i.describedObject.name,
          value: i.value,
          timestamp: i.timestamp,
          window: i.windowSeconds,
        }));
        metrics.pods = { ...metrics.pods, [name]: samples };
        sources.push({ source: 'pods', ok: true, detail: `${name}: ${samples.length} pod values from custom.metrics.k8s.io` });
      } else if (m.type === 'Object' && m.object) {
        const ref = m.object.describedObject;
        const plural = await pluralOf(client, ref.apiVersion ?? 'v1', ref.kind);
        const name = m.object.metric.name;
        const list = await client.get<{ items?: { value: string }[] }>(
          `/apis/custom.metrics.k8s.io/v1beta2/namespaces/${namespace}/${plural}/${ref.name}/${encodeURIComponent(name)}`,
          { query: { metricLabelSelector: metricSelector(m.object.metric.selector) } },
        );
        const value = list.items?.[0]?.value;
        if (value !== undefined) metrics.object = { ...metrics.object, [name]: value };
        sources.push({ source: 'object', ok: value !== undefined, detail: `${name} of ${ref.kind}/${ref.name}: ${value ?? 'no value'}` });
      } else if (m.type === 'External' && m.external) {
        const name = m.external.metric.name;
        const list = await client.get<{ items?: { value: string }[] }>(
          `/apis/external.metrics.k8s.io/v1beta1/namespaces/${namespace}/${encodeURIComponent(name)}`,
          { query: { labelSelector: metricSelector(m.external.metric.selector) } },
        );
        const values = (list.items ?? []).map((i) => i.value);
        metrics.external = { ...metrics.external, [name]: values };
        sources.push({ source: 'external', ok: true, detail: `${name}: ${values.length} series from external.metrics.k8s.io` });
      }
    } catch (err) {
      const text = message(err).replace(/^cannot reach [^:]+: /, '');
      const source = m.type === 'Pods' ? 'pods' : m.type === 'Object' ? 'object' : 'external';
      errors[source] = text;
      sources.push({ source, ok: false, detail: text });
    }
  }
  if (Object.keys(errors).length) metrics.errors = errors;

  // Other HPAs in the namespace whose targets' pods overlap (AmbiguousSelector needs their selectors).
  const otherHpaSelectors: OtherHpaSelector[] = [];
  if (!options.pods) {
    // From the index, which holds them whichever replica watches the cluster.
    const others = app.index
      .idsOfCluster(cluster)
      .map((otherId) => app.index.entries.get(otherId))
      .filter((e) => e?.dto.kind === 'HorizontalPodAutoscaler' && e.dto.namespace === namespace && e.dto.name !== hpa.metadata.name)
      .slice(0, 20)
      .map((e) => e?.held.object()) as HorizontalPodAutoscaler[];
    for (const other of others) {
      const s = await readScale(client, namespace, other.spec.scaleTargetRef).catch(() => null);
      if (s?.status?.selector) otherHpaSelectors.push({ name: `${namespace}/${other.metadata.name}`, selector: s.status.selector });
    }
  }

  const state = await reconstructState(app, id, now);
  assumptions.push(
    state
      ? "Controller history rebuilt from Autoscope's record of status.desiredReplicas and replica changes over the last 30 minutes; the controller keeps it in memory only, so stabilization and rate limits are approximated."
      : 'No controller history is known (new object, or Autoscope has not seen it change): assumed a freshly started controller, which seeds its history with the current replicas — a scale-down is then held by the stabilization window (not with a 0 s window, where the seed is already older than the cutoff).',
  );
  assumptions.push(
    'Production controller defaults: tolerance 0.1, 5-minute downscale stabilization, 5-minute CPU initialization period, 30-second initial readiness delay, scale-up limit max(2×current, 4) per sync without behavior.',
  );

  const ready = pods.filter(
    (p) => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
  return {
    input: {
      hpa,
      scale: { specReplicas: scale?.spec?.replicas ?? 0, statusReplicas: scale?.status?.replicas ?? 0, selector },
      pods,
      metrics,
      controllerState: state,
      failures: Object.keys(failures).length ? failures : undefined,
      otherHpaSelectors,
      now,
    },
    observed: {
      specReplicas: scale?.spec?.replicas ?? 0,
      statusReplicas: scale?.status?.replicas ?? 0,
      selector,
      pods: {
        total: pods.length,
        running: pods.filter((p) => p.status?.phase === 'Running').length,
        ready,
        pending: pods.filter((p) => p.status?.phase === 'Pending').length,
        deleting: pods.filter((p) => p.metadata.deletionTimestamp).length,
      },
      sources,
      ...(memberClusters ? { memberClusters } : {}),
    },
    assumptions,
  };
}

/**
 * The controller's in-memory history, approximated from what Autoscope recorded: each change of
 * desiredReplicas as a recommendation, each change of current replicas as a scale event.
 */
async function reconstructState(app: Autoscope, id: string, now: string): Promise<HpaControllerState | null> {
  const from = new Date(Date.parse(now) - 30 * 60_000).toISOString();
  const samples = (await app.history.history(id, 'HorizontalPodAutoscaler', from, now)).replicas;
  if (samples.length < 2) return null;
  const recommendations = samples
    .filter((s) => s.desired !== null)
    .map((s) => ({ replicas: s.desired as number, timestamp: s.at < from ? from : s.at }));
  const scaleUpEvents: HpaControllerState['scaleUpEvents'] = [];
  const scaleDownEvents: HpaControllerState['scaleDownEvents'] = [];
  samples.forEach((s, i) => {
    const prev = samples[i - 1];
    if (!prev || prev.current === null || s.current === null || s.current === prev.current) return;
    if (s.current > prev.current) scaleUpEvents.push({ replicaChange: s.current - prev.current, timestamp: s.at });
    else scaleDownEvents.push({ replicaChange: prev.current - s.current, timestamp: s.at });
  });
  return { recommendations, scaleUpEvents, scaleDownEvents };
}
