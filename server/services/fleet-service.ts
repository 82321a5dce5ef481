import 'server-only';
import v8 from 'node:v8';
import vm from 'node:vm';
import { stringify } from 'yaml';
import type {
  Autoscaler,
  AutoscalerDetailResponse,
  AutoscalerFilter,
  AutoscalerListResponse,
  AutoscalerPath,
  AutoscalerQuery,
  ClusterListResponse,
  FederationPlacement,
  HistoryQuery,
  HistoryResponse,
  MachineSetCopy,
  ReadyResponse,
  StatsResponse,
  TransitionsResponse,
  TriageResponse,
} from '@/lib/api';
import { toAutoscalerId } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import { groupProblems } from '@/lib/triage';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import type { IndexEntry } from '../fleet/fleet-index';
import { decodeCursor, encodeCursor, indexAfter, matchesFilter, sortAutoscalers, toCsv } from '../fleet/query';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Nothing to answer yet: no cluster has finished a first sync (503, so a client retries). */
function requireSynced(app: Autoscope): void {
  const statuses = app.clusterStatuses();
  if (statuses.length > 0 && statuses.every((s) => s.lastSyncAt === null && s.state === 'syncing')) {
    throw new AppError('not_ready', 'no cluster has finished its first sync yet; try again in a few seconds');
  }
}

/** A cluster named in a filter must be one Autoscope knows. */
function requireKnownClusters(app: Autoscope, filter: AutoscalerFilter): void {
  for (const c of filter.cluster ?? []) {
    if (!app.watchers.has(c)) throw new AppError('bad_request', `unknown cluster ${JSON.stringify(c)}`, { issues: [{ path: 'cluster', message: `unknown cluster ${JSON.stringify(c)}` }] });
  }
}

/** The index's autoscalers that pass the filter, in id order. */
function filtered(app: Autoscope, filter: AutoscalerFilter): Autoscaler[] {
  return app.index.dtosInIdOrder().filter((dto) => matchesFilter(dto, filter));
}

/**
 * Filtered and sorted views and triage groupings, kept while the index has not changed: paging through a
 * view, exporting it and several browsers showing the same one cost one computation. A few views per
 * process; the least recently used goes first.
 */
const views = new WeakMap<Autoscope, Map<string, { version: number; value: unknown }>>();
const maxViews = 8;

function cachedView<T>(app: Autoscope, key: string, compute: () => T): T {
  let cache = views.get(app);
  if (!cache) {
    cache = new Map();
    views.set(app, cache);
  }
  const hit = cache.get(key);
  cache.delete(key);
  const value = hit && hit.version === app.index.version ? (hit.value as T) : compute();
  cache.set(key, { version: app.index.version, value });
  if (cache.size > maxViews) cache.delete(cache.keys().next().value as string);
  return value;
}

const filterKey = (f: AutoscalerFilter): unknown[] => [f.kind, f.cluster, f.namespace, f.health, f.reason, f.q];

function sortedView(app: Autoscope, query: AutoscalerQuery): Autoscaler[] {
  return cachedView(app, JSON.stringify(['list', ...filterKey(query), query.sort, query.order]), () => sortAutoscalers(filtered(app, query), query.sort, query.order));
}

export function listClusters(app: Autoscope): ClusterListResponse {
  return { clusters: app.clusterSummaries(), generatedAt: new Date().toISOString() };
}

export function listAutoscalers(app: Autoscope, query: AutoscalerQuery): AutoscalerListResponse | Response {
  requireKnownClusters(app, query);
  requireSynced(app);
  const items = sortedView(app, query);
  if (query.format) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    if (query.format === 'csv') {
      return new Response(toCsv(items), { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="autoscalers-${stamp}.csv"`, 'cache-control': 'no-store' } });
    }
    return new Response(JSON.stringify({ items, total: items.length, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() }, null, 2), {
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="autoscalers-${stamp}.json"`, 'cache-control': 'no-store' },
    });
  }
  let start = 0;
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, query.sort, query.order);
    if (!cursor.ok) throw new AppError('bad_request', `invalid cursor: ${cursor.message}; use the nextCursor of a previous page`, { issues: [{ path: 'cursor', message: cursor.message }] });
    start = indexAfter(items, cursor.after);
  }
  const page = items.slice(start, start + query.limit);
  const last = page[page.length - 1];
  const next = last && start + query.limit < items.length ? encodeCursor(last, query.sort, query.order) : null;
  return { items: page, total: items.length, nextCursor: next, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() };
}

export function getTriage(app: Autoscope, filter: AutoscalerFilter): TriageResponse {
  requireKnownClusters(app, filter);
  requireSynced(app);
  const { groups, totals } = cachedView(app, JSON.stringify(['triage', ...filterKey(filter)]), () => {
    const items = filtered(app, filter);
    const counts = { total: items.length, failing: 0, degraded: 0, ok: 0, unknown: 0 };
    for (const a of items) counts[a.health] += 1;
    return { groups: groupProblems(items, Date.now()), totals: counts };
  });
  return { groups, totals, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() };
}

export function listTransitions(app: Autoscope, query: { limit: number; cluster?: string; notable: boolean }): TransitionsResponse {
  if (query.cluster && !app.watchers.has(query.cluster)) throw new AppError('bad_request', `unknown cluster ${JSON.stringify(query.cluster)}`);
  return { transitions: app.history.latestTransitions(query.limit, query.cluster, query.notable) };
}

export function readiness(app: Autoscope): { body: ReadyResponse; ready: boolean } {
  const ready = app.isReady();
  return { body: { ready, clusters: app.clusterStatuses() }, ready };
}

/** The index entry for a path, or the right 404. */
export function findEntry(app: Autoscope, path: AutoscalerPath): IndexEntry {
  if (!app.watchers.has(path.cluster)) throw new AppError('not_found', `unknown cluster ${JSON.stringify(path.cluster)}`, { cluster: path.cluster });
  const entry = app.index.entries.get(toAutoscalerId(path.cluster, path.kind, path.namespace, path.name));
  if (!entry) throw new AppError('not_found', `${path.kind} ${path.namespace}/${path.name} not found in cluster ${path.cluster}`, { cluster: path.cluster });
  return entry;
}

function withoutManagedFields(raw: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = raw.metadata;
  return { ...raw, metadata };
}

/** A shell word: bare when safe, else single-quoted. */
function sh(word: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function kubectlCommands(app: Autoscope, a: Autoscaler): AutoscalerDetailResponse['kubectl'] {
  const watcher = app.watchers.get(a.cluster);
  const parent = watcher?.connection.parent;
  const context = parent ?? a.cluster;
  const base = `kubectl --context ${sh(context)}`;
  if (parent) {
    const member = a.cluster.slice(parent.length + 1);
    const proxy = `/apis/cluster.karmada.io/v1alpha1/clusters/${member}/proxy`;
    return [
      { label: 'Get the HPA through the Karmada proxy', command: `${base} get --raw ${sh(`${proxy}/apis/autoscaling/v2/namespaces/${a.namespace}/horizontalpodautoscalers/${a.name}`)}` },
      { label: 'Its events', command: `${base} get --raw ${sh(`${proxy}/api/v1/namespaces/${a.namespace}/events?fieldSelector=involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=${a.name}`)}` },
    ];
  }
  const ns = `-n ${sh(a.namespace)}`;
  switch (a.kind) {
    case 'HorizontalPodAutoscaler':
      return [
        { label: 'Show the HPA', command: `${base} ${ns} get hpa ${sh(a.name)} -o yaml` },
        { label: 'Describe it (conditions and events)', command: `${base} ${ns} describe hpa ${sh(a.name)}` },
        { label: 'Its events', command: `${base} ${ns} get events --field-selector involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=${sh(a.name)}` },
        { label: 'The target and its pods', command: `${base} ${ns} get ${sh(a.target.kind.toLowerCase())} ${sh(a.target.name)} -o wide` },
      ];
    case 'MachineAutoscaler':
      return [
        { label: 'Show the MachineAutoscaler', command: `${base} ${ns} get machineautoscaler ${sh(a.name)} -o yaml` },
        { label: 'The Machine API MachineSet', command: `${base} -n openshift-machine-api get machinesets.machine.openshift.io ${sh(a.target.name)} -o yaml` },
        { label: 'The Cluster API MachineSet', command: `${base} -n openshift-cluster-api get machinesets.cluster.x-k8s.io ${sh(a.target.name)} -o yaml` },
        { label: "The operator's events", command: `${base} ${ns} get events --field-selector involvedObject.kind=MachineAutoscaler,involvedObject.name=${sh(a.name)}` },
      ];
    case 'FederatedHPA':
      return [
        { label: 'Show the FederatedHPA', command: `${base} ${ns} get federatedhpa ${sh(a.name)} -o yaml` },
        { label: 'Its ResourceBinding (the per-cluster split)', command: `${base} ${ns} get resourcebinding ${sh(`${a.target.name}-${a.target.kind.toLowerCase()}`)} -o yaml` },
        { label: 'Member clusters', command: `${base} get clusters` },
      ];
  }
}

function machineSetCopies(app: Autoscope, a: Autoscaler): MachineSetCopy[] {
  const watcher = app.watchers.get(a.cluster);
  if (!watcher) return [];
  const copies: MachineSetCopy[] = [];
  const add = (o: KubeObject | undefined, group: 'machine.openshift.io' | 'cluster.x-k8s.io'): void => {
    if (!o) return;
    const ann = o.metadata.annotations ?? {};
    const status = obj(o.status);
    const spec = obj(o.spec);
    const prefix = group === 'machine.openshift.io' ? 'machine.openshift.io' : 'cluster.x-k8s.io';
    copies.push({
      apiVersion: o.apiVersion ?? group,
      namespace: o.metadata.namespace ?? '',
      name: o.metadata.name,
      authoritativeAPI: group === 'machine.openshift.io' ? String(status.authoritativeAPI ?? spec.authoritativeAPI ?? 'MachineAPI') : null,
      requestedAuthoritativeAPI: group === 'machine.openshift.io' ? (typeof spec.authoritativeAPI === 'string' ? spec.authoritativeAPI : null) : null,
      replicas: typeof spec.replicas === 'number' ? spec.replicas : null,
      readyReplicas: typeof status.readyReplicas === 'number' ? status.readyReplicas : null,
      paused: 'cluster.x-k8s.io/paused' in ann,
      owner: ann['autoscaling.openshift.io/machineautoscaler'] ?? null,
      minAnnotation: ann[`${prefix}/cluster-api-autoscaler-node-group-min-size`] ?? null,
      maxAnnotation: ann[`${prefix}/cluster-api-autoscaler-node-group-max-size`] ?? null,
    });
  };
  add(watcher.objects('mapiMachineSets').find((m) => m.metadata.name === a.target.name && m.metadata.namespace === 'openshift-machine-api') ?? watcher.objects('mapiMachineSets').find((m) => m.metadata.name === a.target.name), 'machine.openshift.io');
  add(watcher.objects('capiMachineSets').find((m) => m.metadata.name === a.target.name && m.metadata.namespace === 'openshift-cluster-api') ?? watcher.objects('capiMachineSets').find((m) => m.metadata.name === a.target.name), 'cluster.x-k8s.io');
  return copies;
}

function placementOf(app: Autoscope, a: Autoscaler): FederationPlacement | undefined {
  const watcher = app.watchers.get(a.cluster);
  if (!watcher || !a.federation) return undefined;
  const binding = watcher.objects('resourceBindings').find((b) => b.metadata.namespace === a.namespace && obj(obj(b.spec).resource).kind === a.target.kind && obj(obj(b.spec).resource).name === a.target.name);
  const policy = watcher
    .objects('propagationPolicies')
    .find((p) => p.metadata.namespace === a.namespace && ((obj(p.spec).resourceSelectors as Obj[] | undefined) ?? []).some((s) => s.kind === a.target.kind && (!s.name || s.name === a.target.name)));
  const spec = obj(binding?.spec);
  const scheduling = obj(obj(spec.placement).replicaScheduling);
  const weights = obj(scheduling.weightPreference).staticWeightList as { targetCluster?: { clusterNames?: string[] }; weight?: number }[] | undefined;
  const aggregated = (obj(binding?.status).aggregatedStatus as { clusterName?: string; status?: Obj; applied?: boolean }[] | undefined) ?? [];
  return {
    strategy: a.federation.strategy,
    policy: policy?.metadata.name ?? null,
    binding: binding?.metadata.name ?? null,
    bindingUid: typeof obj(spec.resource).uid === 'string' ? (obj(spec.resource).uid as string) : null,
    templateReplicas: typeof spec.replicas === 'number' ? spec.replicas : null,
    staticWeights: weights ? Object.fromEntries(weights.flatMap((w) => (w.targetCluster?.clusterNames ?? []).map((c) => [c, w.weight ?? 0]))) : null,
    members: a.federation.members.map((m) => {
      const agg = aggregated.find((s) => s.clusterName === m.cluster);
      return { ...m, readyReplicas: typeof agg?.status?.readyReplicas === 'number' ? agg.status.readyReplicas : null, applied: agg?.applied ?? null };
    }),
  };
}

export function getAutoscalerDetail(app: Autoscope, path: AutoscalerPath): AutoscalerDetailResponse {
  const entry = findEntry(app, path);
  const a = entry.dto;
  const spec = obj(entry.raw.spec);
  return {
    autoscaler: a,
    behavior: spec.behavior ?? null,
    specMetrics: Array.isArray(spec.metrics) ? spec.metrics : [],
    ...(a.kind === 'MachineAutoscaler' ? { machineSets: machineSetCopies(app, a) } : {}),
    ...(a.kind === 'FederatedHPA' ? { placement: placementOf(app, a) } : {}),
    events: app.history.events(a.id, 100),
    yaml: stringify(withoutManagedFields(entry.raw)),
    kubectl: kubectlCommands(app, a),
    clusters: app.clusterStatuses().filter((c) => c.name === a.cluster),
  };
}

export function getHistory(app: Autoscope, path: AutoscalerPath, query: HistoryQuery): HistoryResponse {
  const entry = findEntry(app, path);
  const to = query.to ? new Date(query.to).toISOString() : new Date().toISOString();
  const from = query.from ? new Date(query.from).toISOString() : new Date(Date.parse(to) - 24 * 3600_000).toISOString();
  if (Date.parse(to) - Date.parse(from) > 366 * 24 * 3600_000) throw new AppError('bad_request', 'the window may span at most a year', { issues: [{ path: 'from', message: 'window longer than a year' }] });
  return { id: entry.dto.id, from, to, ...app.history.history(entry.dto.id, entry.dto.kind, from, to) };
}

let fullGc: (() => void) | null | undefined;

/**
 * With AUTOSCOPE_STATS_GC=1 (the fleet benchmark sets it) a full collection runs before memory is read, so
 * heapUsed counts live objects, not whatever garbage the last requests left. Never on by default.
 */
function collectGarbage(): void {
  if (process.env.AUTOSCOPE_STATS_GC !== '1') return;
  if (fullGc === undefined) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
  }
  fullGc?.();
}

export function stats(app: Autoscope): StatsResponse {
  collectGarbage();
  const memory = process.memoryUsage();
  return {
    autoscalers: app.index.entries.size,
    clusters: app.watchers.size,
    streamSubscribers: app.bus.subscriberCount,
    heapUsedBytes: memory.heapUsed,
    rssBytes: memory.rss,
    uptimeSeconds: Math.round(process.uptime()),
    startedAt: app.startedAt,
  };
}
