import type { Condition } from '@/lib/k8s/types';
import type { AuthoritativeAPI, MachineSetGroup, MachineSetSynchronized, MachineSetView } from './types';
import type {
  ClusterAPIMachineSetObject,
  InfrastructureRef,
  InfrastructureTemplateObject,
  MachineAPIMachineSetObject,
  MachineSetObject,
} from './wire-types';
import { toMachineSetCapacity } from './capacity';
import {
  CLUSTER_API_CLUSTER_NAME_LABEL,
  CLUSTER_API_GROUP,
  CLUSTER_API_PAUSED_ANNOTATION,
  CLUSTER_API_STORAGE_VERSION,
  MACHINE_API_CLUSTER_LABEL,
  MACHINE_API_GROUP,
  MACHINE_API_VERSION,
  MACHINE_SET_KIND,
  PAUSED_CONDITION,
  SYNCHRONIZED_CONDITION,
} from './keys';
import { readInteger } from './parse-int';

export interface MachineSetViewOptions {
  /** The group the caller listed the object under; wins over the object's own apiVersion. */
  group?: MachineSetGroup;
  /**
   * The template named by the set's `infrastructureRef`, when the caller has it. `undefined` and `null` both mean
   * "not available", which the capacity text reports as not found.
   */
  infrastructureTemplate?: InfrastructureTemplateObject | null;
}

/** `group/version` → group (`v1` → ''), and the version. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}

function readString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function findCondition(conditions: Condition[] | null | undefined, type: string): Condition | undefined {
  return Array.isArray(conditions) ? conditions.find((condition) => condition?.type === type) : undefined;
}

function readAuthority(value: unknown): AuthoritativeAPI | null {
  return value === 'MachineAPI' || value === 'ClusterAPI' || value === 'Migrating' ? value : null;
}

function readStableAuthority(value: unknown): 'MachineAPI' | 'ClusterAPI' | null {
  return value === 'MachineAPI' || value === 'ClusterAPI' ? value : null;
}

function groupOf(obj: MachineSetObject, hint: MachineSetGroup | undefined): MachineSetGroup {
  if (hint) return hint;
  const { group } = splitApiVersion(obj.apiVersion ?? '');
  if (group === MACHINE_API_GROUP || group === CLUSTER_API_GROUP) return group;
  // A list item without apiVersion: only Cluster API sets have spec.clusterName.
  return typeof (obj as ClusterAPIMachineSetObject).spec?.clusterName === 'string' ? CLUSTER_API_GROUP : MACHINE_API_GROUP;
}

/** Infers the served version of a Cluster API set without apiVersion from which status/ref shape it carries. */
function clusterAPIVersionOf(obj: ClusterAPIMachineSetObject): string {
  const { group, version } = splitApiVersion(obj.apiVersion ?? '');
  if (group === CLUSTER_API_GROUP && version) return version;
  if (obj.status?.v1beta2 !== undefined || obj.spec?.template?.spec?.infrastructureRef?.apiVersion !== undefined) return 'v1beta1';
  return CLUSTER_API_STORAGE_VERSION;
}

function toInfrastructureRef(ref: InfrastructureRef | undefined, namespace: string): MachineSetView['infrastructureRef'] {
  if (!ref || typeof ref.kind !== 'string' || typeof ref.name !== 'string') return null;
  const apiGroup = typeof ref.apiGroup === 'string' ? ref.apiGroup : splitApiVersion(ref.apiVersion ?? '').group;
  return { apiGroup, kind: ref.kind, name: ref.name, namespace: readString(ref.namespace) ?? namespace };
}

function toSynchronized(condition: Condition | undefined): MachineSetSynchronized | null {
  if (!condition) return null;
  return {
    status: typeof condition.status === 'string' ? condition.status : 'Unknown',
    reason: readString(condition.reason),
    message: readString(condition.message),
    lastTransitionTime: readString(condition.lastTransitionTime),
  };
}

/** `Kind namespace/name` of the template a CAPI set references, as messages show it. */
export function describeInfrastructureRef(ref: NonNullable<MachineSetView['infrastructureRef']>): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/**
 * Normalises a MachineSet of either API group and any served version (MAPI v1beta1, CAPI v1beta1 and v1beta2)
 * into one shape. Ready/available use the Cluster API v1beta2 semantics for both CAPI versions: v1beta1 objects
 * carry them under `status.v1beta2`, and fall back to their legacy counters only when that block is absent.
 */
export function toMachineSetView(obj: MachineSetObject, options: MachineSetViewOptions = {}): MachineSetView {
  const group = groupOf(obj, options.group);
  const metadata = obj.metadata;
  const namespace = metadata.namespace ?? '';
  const annotations = stringRecord(metadata.annotations);
  const labels = stringRecord(metadata.labels);
  const base = {
    group,
    kind: obj.kind ?? MACHINE_SET_KIND,
    namespace,
    name: metadata.name,
    uid: readString(metadata.uid),
    creationTimestamp: readString(metadata.creationTimestamp),
    deletionTimestamp: readString(metadata.deletionTimestamp),
    annotations,
  };

  if (group === MACHINE_API_GROUP) {
    const ms = obj as MachineAPIMachineSetObject;
    const status = ms.status;
    const hasStatus = status !== undefined && status !== null;
    const counter = (value: unknown): number | null => readInteger(value) ?? (hasStatus ? 0 : null);
    return {
      ...base,
      apiVersion: obj.apiVersion ?? `${MACHINE_API_GROUP}/${MACHINE_API_VERSION}`,
      clusterName: labels[MACHINE_API_CLUSTER_LABEL] ?? null,
      replicas: {
        // openshift/api types_machineset.go: `replicas` defaults to 1 when unset.
        desired: readInteger(ms.spec?.replicas) ?? 1,
        current: counter(status?.replicas),
        ready: counter(status?.readyReplicas),
        available: counter(status?.availableReplicas),
        upToDate: null,
      },
      paused: findCondition(status?.conditions, PAUSED_CONDITION)?.status === 'True',
      templateLabels: stringRecord(ms.spec?.template?.spec?.metadata?.labels),
      authoritativeAPI: readAuthority(status?.authoritativeAPI),
      requestedAuthoritativeAPI: readStableAuthority(ms.spec?.authoritativeAPI),
      synchronizedAPI: readStableAuthority(status?.synchronizedAPI),
      synchronizedGeneration: readInteger(status?.synchronizedGeneration),
      synchronized: toSynchronized(findCondition(status?.conditions, SYNCHRONIZED_CONDITION)),
      capacity: toMachineSetCapacity(group, annotations, { describedAs: null, template: null }),
      infrastructureRef: null,
    };
  }

  const ms = obj as ClusterAPIMachineSetObject;
  const version = clusterAPIVersionOf(ms);
  const status = ms.status;
  const infrastructureRef = toInfrastructureRef(ms.spec?.template?.spec?.infrastructureRef, namespace);
  const v1beta1 = version === 'v1beta1';
  const newSemantics = v1beta1 ? status?.v1beta2 : status;
  const legacy = v1beta1 ? status : status?.deprecated?.v1beta1;
  const counter = (next: unknown, old: unknown): number | null =>
    // v1beta1 legacy counters are `omitempty` int32s: absent means 0 once a status exists.
    readInteger(next) ?? (v1beta1 && status?.v1beta2 === undefined && status ? (readInteger(old) ?? 0) : null);
  return {
    ...base,
    apiVersion: obj.apiVersion ?? `${CLUSTER_API_GROUP}/${version}`,
    clusterName: readString(ms.spec?.clusterName) ?? labels[CLUSTER_API_CLUSTER_NAME_LABEL] ?? null,
    replicas: {
      desired: readInteger(ms.spec?.replicas),
      // v1beta1 `status.replicas` is a plain omitempty int32 (absent = 0); v1beta2 made it a pointer (absent = unknown).
      current: readInteger(status?.replicas) ?? (v1beta1 && status ? 0 : null),
      ready: counter(newSemantics?.readyReplicas, legacy?.readyReplicas),
      available: counter(newSemantics?.availableReplicas, legacy?.availableReplicas),
      upToDate: readInteger(newSemantics?.upToDateReplicas),
    },
    paused: CLUSTER_API_PAUSED_ANNOTATION in annotations,
    templateLabels: stringRecord(ms.spec?.template?.metadata?.labels),
    authoritativeAPI: null,
    requestedAuthoritativeAPI: null,
    synchronizedAPI: null,
    synchronizedGeneration: null,
    synchronized: null,
    capacity: toMachineSetCapacity(group, annotations, {
      describedAs: infrastructureRef ? describeInfrastructureRef(infrastructureRef) : null,
      template: options.infrastructureTemplate ?? null,
    }),
    infrastructureRef,
  };
}
