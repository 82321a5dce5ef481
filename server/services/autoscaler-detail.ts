import 'server-only';
import { stringify } from 'yaml';
import type { Autoscaler, AutoscalerDetailResponse, AutoscalerPath, FederationPlacement, MachineSetCopy } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import type { Autoscope } from '../runtime';
import { findEntry } from './guards';
import { kubectlCommands } from './kubectl-commands';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

function withoutManagedFields(raw: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = raw.metadata;
  return { ...raw, metadata };
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

/** One autoscaler with its spec parts, related objects, events, YAML and kubectl commands. */
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
