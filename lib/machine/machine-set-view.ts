import type { Condition } from '@/lib/k8s/types';
import type { AuthoritativeAPI, MachineSetGroup, MachineSetReplicas, MachineSetSynchronized, MachineSetView } from './types';
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
  if (!Array.isArray(conditions)) return undefined;
  for (const condition of conditions) if (condition.type === type) return condition;
  return undefined;
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
  const capi: ClusterAPIMachineSetObject = obj;
  return typeof capi.spec?.clusterName === 'string' ? CLUSTER_API_GROUP : MACHINE_API_GROUP;
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
 * What `assessMachineAutoscalers` reads of one MachineSet, taken without copying: `annotations` and
 * `templateLabels` are the object's own records (values unchecked, hence `unknown`). `toMachineSetView` turns
 * it into the DTO by adding copies, the replica counters and capacity.
 */
export interface MachineSetFacts {
  object: MachineSetObject;
  group: MachineSetGroup;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string | null;
  creationTimestamp: string | null;
  deletionTimestamp: string | null;
  annotations: Readonly<Record<string, unknown>>;
  labels: Readonly<Record<string, unknown>>;
  templateLabels: Readonly<Record<string, unknown>>;
  /** `spec.replicas`; MAPI defaults an absent value to 1 (openshift/api types_machineset.go). */
  desiredReplicas: number | null;
  paused: boolean;
  authoritativeAPI: AuthoritativeAPI | null;
  requestedAuthoritativeAPI: 'MachineAPI' | 'ClusterAPI' | null;
  synchronizedAPI: 'MachineAPI' | 'ClusterAPI' | null;
  synchronized: MachineSetSynchronized | null;
  infrastructureRef: MachineSetView['infrastructureRef'];
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

function record(value: unknown): Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : EMPTY;
}

/** A string annotation or label value; anything else (malformed JSON) reads as absent. */
export function stringValue(values: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = values[key];
  return typeof value === 'string' ? value : undefined;
}

/** `apiVersion` as served, or the group's version inferred from the shape when a list item lacks it. */
export function machineSetApiVersion(obj: MachineSetObject, group: MachineSetGroup): string {
  if (obj.apiVersion) return obj.apiVersion;
  return group === MACHINE_API_GROUP ? `${MACHINE_API_GROUP}/${MACHINE_API_VERSION}` : `${CLUSTER_API_GROUP}/${clusterAPIVersionOf(obj)}`;
}

export function readMachineSetFacts(obj: MachineSetObject, group?: MachineSetGroup): MachineSetFacts {
  const resolvedGroup = groupOf(obj, group);
  const metadata = obj.metadata;
  const namespace = metadata.namespace ?? '';
  const annotations = record(metadata.annotations);
  if (resolvedGroup === MACHINE_API_GROUP) {
    const ms: MachineAPIMachineSetObject = obj;
    const status = ms.status;
    return {
      object: obj,
      group: resolvedGroup,
      apiVersion: machineSetApiVersion(obj, resolvedGroup),
      kind: obj.kind ?? MACHINE_SET_KIND,
      namespace,
      name: metadata.name,
      uid: readString(metadata.uid),
      creationTimestamp: readString(metadata.creationTimestamp),
      deletionTimestamp: readString(metadata.deletionTimestamp),
      annotations,
      labels: record(metadata.labels),
      templateLabels: record(ms.spec?.template?.spec?.metadata?.labels),
      desiredReplicas: readInteger(ms.spec?.replicas) ?? 1,
      paused: findCondition(status?.conditions, PAUSED_CONDITION)?.status === 'True',
      authoritativeAPI: readAuthority(status?.authoritativeAPI),
      requestedAuthoritativeAPI: readStableAuthority(ms.spec?.authoritativeAPI),
      synchronizedAPI: readStableAuthority(status?.synchronizedAPI),
      synchronized: toSynchronized(findCondition(status?.conditions, SYNCHRONIZED_CONDITION)),
      infrastructureRef: null,
    };
  }
  const ms: ClusterAPIMachineSetObject = obj;
  return {
    object: obj,
    group: resolvedGroup,
    apiVersion: machineSetApiVersion(obj, resolvedGroup),
    kind: obj.kind ?? MACHINE_SET_KIND,
    namespace,
    name: metadata.name,
    uid: readString(metadata.uid),
    creationTimestamp: readString(metadata.creationTimestamp),
    deletionTimestamp: readString(metadata.deletionTimestamp),
    annotations,
    labels: record(metadata.labels),
    templateLabels: record(ms.spec?.template?.metadata?.labels),
    desiredReplicas: readInteger(ms.spec?.replicas),
    // upstream: clusterapi_controller.go skips a set carrying the key, whatever its value.
    paused: CLUSTER_API_PAUSED_ANNOTATION in annotations,
    authoritativeAPI: null,
    requestedAuthoritativeAPI: null,
    synchronizedAPI: null,
    synchronized: null,
    infrastructureRef: toInfrastructureRef(ms.spec?.template?.spec?.infrastructureRef, namespace),
  };
}

function counter(value: unknown, absentIsZero: boolean): number | null {
  return readInteger(value) ?? (absentIsZero ? 0 : null);
}

function toReplicas(facts: MachineSetFacts): MachineSetReplicas {
  if (facts.group === MACHINE_API_GROUP) {
    const { status }: MachineAPIMachineSetObject = facts.object;
    // MAPI status counters are omitempty int32s: absent means 0 once a status exists.
    const hasStatus = status !== undefined;
    return {
      desired: facts.desiredReplicas,
      current: counter(status?.replicas, hasStatus),
      ready: counter(status?.readyReplicas, hasStatus),
      available: counter(status?.availableReplicas, hasStatus),
      upToDate: null,
    };
  }
  const { status }: ClusterAPIMachineSetObject = facts.object;
  const v1beta1 = splitApiVersion(facts.apiVersion).version === 'v1beta1';
  if (!v1beta1) {
    // v1beta2 made every counter a pointer: absent means unknown.
    return {
      desired: facts.desiredReplicas,
      current: readInteger(status?.replicas),
      ready: readInteger(status?.readyReplicas),
      available: readInteger(status?.availableReplicas),
      upToDate: readInteger(status?.upToDateReplicas),
    };
  }
  const hasStatus = status !== undefined;
  const next = status?.v1beta2;
  // v1beta1 keeps the v1beta2 semantics under status.v1beta2; its legacy counters are omitempty int32s.
  return {
    desired: facts.desiredReplicas,
    current: counter(status?.replicas, hasStatus),
    ready: next ? readInteger(next.readyReplicas) : counter(status?.readyReplicas, hasStatus),
    available: next ? readInteger(next.availableReplicas) : counter(status?.availableReplicas, hasStatus),
    upToDate: next ? readInteger(next.upToDateReplicas) : null,
  };
}

/**
 * Normalises a MachineSet of either API group and any served version (MAPI v1beta1, CAPI v1beta1 and v1beta2)
 * into one shape. Ready/available use the Cluster API v1beta2 semantics for both CAPI versions: v1beta1 objects
 * carry them under `status.v1beta2`, and fall back to their legacy counters only when that block is absent.
 */
export function toMachineSetView(obj: MachineSetObject, options: MachineSetViewOptions = {}): MachineSetView {
  const facts = readMachineSetFacts(obj, options.group);
  const labels = stringRecord(facts.labels);
  const asMachineAPI: MachineAPIMachineSetObject = obj;
  const asClusterAPI: ClusterAPIMachineSetObject = obj;
  const clusterName =
    facts.group === MACHINE_API_GROUP
      ? (labels[MACHINE_API_CLUSTER_LABEL] ?? null)
      : (readString(asClusterAPI.spec?.clusterName) ?? labels[CLUSTER_API_CLUSTER_NAME_LABEL] ?? null);
  const synchronizedGeneration = facts.group === MACHINE_API_GROUP ? readInteger(asMachineAPI.status?.synchronizedGeneration) : null;
  return {
    group: facts.group,
    apiVersion: facts.apiVersion,
    kind: facts.kind,
    namespace: facts.namespace,
    name: facts.name,
    uid: facts.uid,
    creationTimestamp: facts.creationTimestamp,
    deletionTimestamp: facts.deletionTimestamp,
    clusterName,
    replicas: toReplicas(facts),
    paused: facts.paused,
    annotations: stringRecord(facts.annotations),
    templateLabels: stringRecord(facts.templateLabels),
    authoritativeAPI: facts.authoritativeAPI,
    requestedAuthoritativeAPI: facts.requestedAuthoritativeAPI,
    synchronizedAPI: facts.synchronizedAPI,
    synchronizedGeneration,
    synchronized: facts.synchronized,
    capacity: toMachineSetCapacity(facts.group, facts.annotations, {
      describedAs: facts.infrastructureRef ? describeInfrastructureRef(facts.infrastructureRef) : null,
      template: options.infrastructureTemplate ?? null,
    }),
    infrastructureRef: facts.infrastructureRef,
  };
}
