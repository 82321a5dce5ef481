/**
 * Test fixtures: `kubectl get -o json` Lists from six clusters, as of NOW. Accessors hand out deep copies so
 * every test starts from the same objects.
 *   prod-eu-west-1   HPAs: healthy, at max, rate-limited, stabilized, ScalingDisabled, unready pods, custom and
 *                    external metric failures, a rejected scale update
 *   prod-us (ARN)    HPAs: missing target, selector problems, missing request, replicas mismatch, fork conditions
 *   staging (GKE)    HPAs: metrics-server gone, every Resource-metric HPA fails
 *   karmada-apiserver FederatedHPAs with their ResourceBindings, Clusters and PropagationPolicies
 *   ocp-prod-east    MachineAutoscalers, Machine API and Cluster API MachineSets, the ClusterAutoscaler
 *   ocp-edge         one MachineAutoscaler, no ClusterAutoscaler
 */
import type { Autoscaler } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import { assessMachineAutoscalers } from '@/lib/machine';
import type { MachineAutoscalerVerdict } from '@/lib/machine/types';
import type { ClusterAPIMachineSetObject, MachineAPIMachineSetObject, MachineAutoscalerObject, MachineSetObject } from '@/lib/machine/wire-types';
import type { FederatedHPAObject, KarmadaClusterObject, PropagationPolicyObject, ResourceBindingObject } from '@/lib/triage/karmada-types';
import type { MapperContext } from '@/lib/triage/mapper-context';
import { toFederatedAutoscaler } from '@/lib/triage/to-federated-autoscaler';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import { toMachineAutoscaler } from '@/lib/triage/to-machine-autoscaler';
import clustersJson from './karmada.clusters.json';
import fhpaJson from './karmada.fhpa.json';
import policiesJson from './karmada.propagationpolicies.json';
import bindingsJson from './karmada.resourcebindings.json';
import edgeJson from './ocp-edge.machine.json';
import ocpJson from './ocp-prod-east.machine.json';
import euJson from './prod-eu-west-1.hpa.json';
import usJson from './prod-us.hpa.json';
import stagingJson from './staging.hpa.json';

export const NOW = '2026-11-20T12:00:00Z';

export const EU = 'prod-eu-west-1';
export const US = 'arn:aws:eks:us-east-1:123456789012:cluster/prod-us';
export const STAGING = 'gke_acme-staging_europe-west1_staging';
export const KARMADA = 'karmada-apiserver';
export const OCP = 'ocp-prod-east';
export const EDGE = 'ocp-edge';

export const FRESH: MapperContext = { stale: false };

function items<T>(list: unknown): T[] {
  return structuredClone((list as { items: unknown[] }).items) as T[];
}

const HPA_LISTS: Record<string, unknown> = { [EU]: euJson, [US]: usJson, [STAGING]: stagingJson };

export function hpas(cluster: string): HorizontalPodAutoscaler[] {
  return items<HorizontalPodAutoscaler>(HPA_LISTS[cluster]);
}

export function hpa(cluster: string, namespace: string, name: string): HorizontalPodAutoscaler {
  const found = hpas(cluster).find((h) => h.metadata.namespace === namespace && h.metadata.name === name);
  if (!found) throw new Error(`fixture ${cluster} ${namespace}/${name} missing`);
  return found;
}

export interface KarmadaState {
  fhpas: FederatedHPAObject[];
  bindings: ResourceBindingObject[];
  clusters: KarmadaClusterObject[];
  policies: PropagationPolicyObject[];
}

export function karmada(): KarmadaState {
  return {
    fhpas: items<FederatedHPAObject>(fhpaJson),
    bindings: items<ResourceBindingObject>(bindingsJson),
    clusters: items<KarmadaClusterObject>(clustersJson),
    policies: items<PropagationPolicyObject>(policiesJson),
  };
}

/** The binding the server would pair with a FederatedHPA: `<target name>-<kind>` in its namespace (names.GenerateBindingName). */
export function bindingFor(state: KarmadaState, fhpa: FederatedHPAObject): ResourceBindingObject | null {
  const ref = fhpa.spec.scaleTargetRef;
  const name = `${ref.name}-${ref.kind}`.toLowerCase();
  return state.bindings.find((b) => b.metadata.namespace === fhpa.metadata.namespace && b.metadata.name === name) ?? null;
}

export function policyFor(state: KarmadaState, fhpa: FederatedHPAObject): PropagationPolicyObject | null {
  const ref = fhpa.spec.scaleTargetRef;
  return state.policies.find((p) => p.metadata.namespace === fhpa.metadata.namespace && p.metadata.name === `${ref.name}-propagation`) ?? null;
}

export interface MachineState {
  machineAutoscalers: MachineAutoscalerObject[];
  machineAPI: MachineAPIMachineSetObject[];
  clusterAPI: ClusterAPIMachineSetObject[];
  clusterAutoscalers: KubeObject[];
}

export function machineState(cluster: typeof OCP | typeof EDGE): MachineState {
  const all = items<KubeObject>(cluster === OCP ? ocpJson : edgeJson);
  const isSet = (o: KubeObject, group: string): boolean => o.kind === 'MachineSet' && (o.apiVersion ?? '').startsWith(`${group}/`);
  return {
    machineAutoscalers: all.filter((o) => o.kind === 'MachineAutoscaler'),
    machineAPI: all.filter((o) => isSet(o, 'machine.openshift.io')),
    clusterAPI: all.filter((o) => isSet(o, 'cluster.x-k8s.io')),
    clusterAutoscalers: all.filter((o) => o.kind === 'ClusterAutoscaler'),
  };
}

export function verdicts(state: MachineState): MachineAutoscalerVerdict[] {
  return assessMachineAutoscalers({
    machineAutoscalers: state.machineAutoscalers,
    machineSets: { machineAPI: state.machineAPI, clusterAPI: state.clusterAPI },
    clusterAutoscalers: state.clusterAutoscalers,
    context: {
      operatorNamespace: 'openshift-machine-api',
      machineAPINamespace: 'openshift-machine-api',
      clusterAPINamespace: 'openshift-cluster-api',
      operatorSupportsClusterAPITargets: true,
    },
  });
}

/** The MachineSet the DTO reads replicas from: the verdict's authoritative copy. */
export function authoritativeSet(state: MachineState, verdict: MachineAutoscalerVerdict): MachineSetObject | null {
  const copy = verdict.target.authoritativeCopy;
  if (!copy) return null;
  const pool: MachineSetObject[] = copy.apiVersion.startsWith('machine.openshift.io/') ? state.machineAPI : state.clusterAPI;
  return pool.find((s) => s.metadata.namespace === copy.namespace && s.metadata.name === copy.name) ?? null;
}

export function machineAutoscalers(cluster: typeof OCP | typeof EDGE, context: MapperContext = FRESH): Autoscaler[] {
  const state = machineState(cluster);
  return verdicts(state).map((verdict) => {
    const ma = state.machineAutoscalers.find((m) => `${m.metadata.namespace}/${m.metadata.name}` === verdict.machineAutoscaler);
    if (!ma) throw new Error(`no MachineAutoscaler for ${verdict.machineAutoscaler}`);
    return toMachineAutoscaler(cluster, ma, verdict, authoritativeSet(state, verdict), context, NOW);
  });
}

export function federatedAutoscalers(context: MapperContext = FRESH): Autoscaler[] {
  const state = karmada();
  return state.fhpas.map((f) =>
    toFederatedAutoscaler(KARMADA, f, { binding: bindingFor(state, f), clusters: state.clusters, policy: policyFor(state, f) }, context, NOW),
  );
}

/** Every fixture object as the DTO, as the server's index would hold them. */
export function fleet(): Autoscaler[] {
  return [
    ...[EU, US, STAGING].flatMap((c) => hpas(c).map((h) => toHpaAutoscaler(c, h, FRESH, NOW))),
    ...federatedAutoscalers(),
    ...machineAutoscalers(OCP),
    ...machineAutoscalers(EDGE),
  ];
}
