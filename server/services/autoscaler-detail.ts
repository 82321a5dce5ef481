import 'server-only';
import { stringify } from 'yaml';
import type { AutoscalerDetailResponse, AutoscalerPath } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import { toMachineSetCopies } from '@/lib/machine';
import { toFederationPlacement } from '@/lib/triage';
import type { Viewer } from '../access/access';
import type { Autoscope } from '../runtime';
import { findEntry } from './guards';
import { kubectlCommands } from './kubectl-commands';

function withoutManagedFields(raw: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = raw.metadata;
  return { ...raw, metadata };
}

/**
 * One autoscaler with its spec parts, events, YAML and kubectl commands; a MachineAutoscaler with both copies
 * of its MachineSet, a FederatedHPA with its placement (from the objects the index mapped it with).
 */
export async function getAutoscalerDetail(app: Autoscope, path: AutoscalerPath, viewer: Viewer): Promise<AutoscalerDetailResponse> {
  const entry = findEntry(app, path, viewer);
  const a = entry.dto;
  const raw = entry.held.object();
  const spec = (raw.spec ?? {}) as Record<string, unknown>;
  return {
    autoscaler: a,
    behavior: spec.behavior ?? null,
    specMetrics: Array.isArray(spec.metrics) ? spec.metrics : [],
    ...(a.kind === 'MachineAutoscaler'
      ? { machineSets: toMachineSetCopies(entry.related.machineSets ?? { machineAPI: null, clusterAPI: null }) }
      : {}),
    ...(a.kind === 'FederatedHPA'
      ? { placement: toFederationPlacement(a, entry.related.binding ?? null, entry.related.policy ?? null) }
      : {}),
    events: await app.history.events(a.id, 100),
    yaml: stringify(withoutManagedFields(raw)),
    kubectl: kubectlCommands(app, a),
    clusters: app.clusterStatuses().filter((c) => c.name === a.cluster),
  };
}
