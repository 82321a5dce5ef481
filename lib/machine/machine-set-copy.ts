import type { MachineSetCopy } from '@/lib/api/fleet';
import type { MachineSetGroup } from './types';
import type { MachineSetObject } from './wire-types';
import {
  CLUSTER_API_GROUP,
  CLUSTER_API_MAX_SIZE_ANNOTATION,
  CLUSTER_API_MIN_SIZE_ANNOTATION,
  MACHINE_API_GROUP,
  MACHINE_API_MAX_SIZE_ANNOTATION,
  MACHINE_API_MIN_SIZE_ANNOTATION,
  MACHINE_TARGET_OWNER_ANNOTATION,
} from './keys';
import { toMachineSetView } from './machine-set-view';

/** The two copies of a MachineSet (same name), either of which may be missing. */
export interface MachineSetPair {
  machineAPI: MachineSetObject | null;
  clusterAPI: MachineSetObject | null;
}

/**
 * MachineSets by name, the one in `preferredNamespace` winning over one of the same name elsewhere (a name may
 * repeat across namespaces; targets live in the namespace their group implies). One pass, then a map lookup per
 * MachineAutoscaler.
 */
export function indexMachineSetsByName<T extends MachineSetObject>(sets: readonly T[], preferredNamespace: string): Map<string, T> {
  const byName = new Map<string, T>();
  for (const set of sets) {
    const held = byName.get(set.metadata.name);
    if (!held || (held.metadata.namespace !== preferredNamespace && set.metadata.namespace === preferredNamespace))
      byName.set(set.metadata.name, set);
  }
  return byName;
}

/**
 * One copy as the detail page shows it, through `toMachineSetView`. `paused` is the view's rule: for a Cluster
 * API copy the `cluster.x-k8s.io/paused` key (what the cluster autoscaler's clusterapi provider skips), for a
 * Machine API copy its `Paused` condition (machine-api-operator sets it while the copy is not authoritative;
 * cluster-capi-operator strips `cluster.x-k8s.io/paused` from MAPI copies, so the key never says anything there).
 */
export function toMachineSetCopy(object: MachineSetObject, group: MachineSetGroup): MachineSetCopy {
  const view = toMachineSetView(object, { group });
  const machineAPI = group === MACHINE_API_GROUP;
  return {
    apiVersion: view.apiVersion,
    namespace: view.namespace,
    name: view.name,
    authoritativeAPI: machineAPI ? (view.authoritativeAPI ?? view.requestedAuthoritativeAPI ?? 'MachineAPI') : null,
    requestedAuthoritativeAPI: view.requestedAuthoritativeAPI,
    replicas: view.replicas.desired,
    readyReplicas: view.replicas.ready,
    paused: view.paused,
    owner: view.annotations[MACHINE_TARGET_OWNER_ANNOTATION] ?? null,
    minAnnotation: view.annotations[machineAPI ? MACHINE_API_MIN_SIZE_ANNOTATION : CLUSTER_API_MIN_SIZE_ANNOTATION] ?? null,
    maxAnnotation: view.annotations[machineAPI ? MACHINE_API_MAX_SIZE_ANNOTATION : CLUSTER_API_MAX_SIZE_ANNOTATION] ?? null,
  };
}

/** Both copies of a MachineAutoscaler's target, Machine API first. */
export function toMachineSetCopies(pair: MachineSetPair): MachineSetCopy[] {
  return [
    ...(pair.machineAPI ? [toMachineSetCopy(pair.machineAPI, MACHINE_API_GROUP)] : []),
    ...(pair.clusterAPI ? [toMachineSetCopy(pair.clusterAPI, CLUSTER_API_GROUP)] : []),
  ];
}
