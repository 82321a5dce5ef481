/**
 * Test fixtures: the JSON files beside this module are trimmed `kubectl get -o json` output from one
 * OpenShift cluster (infrastructure name prod-east-7k2xq). Builders hand out deep copies, optionally edited,
 * so every test starts from the same real objects.
 */
import type { CoreEvent, KubeObject } from '@/lib/k8s/types';
import type { MachineAssessmentContext } from '../types';
import type {
  ClusterAPIMachineSetObject,
  CustomResourceDefinitionObject,
  EventsV1Event,
  InfrastructureTemplateObject,
  MachineAPIMachineSetObject,
  MachineAutoscalerObject,
} from '../wire-types';
import awsMachineTemplateJson from './aws-machine-template.json';
import capiMirrorJson from './capi-machineset-v1beta2-mirror.json';
import capiV1beta1Json from './capi-machineset-v1beta1.json';
import clusterAutoscalerJson from './clusterautoscaler-default.json';
import pr402CrdJson from './crd-machineautoscaler-pr402.json';
import shippedCrdJson from './crd-machineautoscaler-shipped.json';
import coreEventsJson from './events-core-v1.json';
import eventsV1Json from './events-events-k8s-io-v1.json';
import machineAutoscalerJson from './machineautoscaler.json';
import pr402MachineAutoscalerJson from './machineautoscaler-pr402-conditions.json';
import mapiMachineSetJson from './mapi-machineset-aws.json';

export const WORKER_1A = 'prod-east-7k2xq-worker-us-east-1a';
export const GPU_1B = 'prod-east-7k2xq-gpu-us-east-1b';

export const CONTEXT: MachineAssessmentContext = {
  operatorNamespace: 'openshift-machine-api',
  machineAPINamespace: 'openshift-machine-api',
  clusterAPINamespace: 'openshift-cluster-api',
  operatorSupportsClusterAPITargets: true,
};

type Edit<T> = (object: T) => void;

function build<T>(json: unknown, edit?: Edit<T>): T {
  const copy = structuredClone(json) as T;
  edit?.(copy);
  return copy;
}

/** AWS Machine API MachineSet, MachineAPI-authoritative, autoscaled 1–6 by `worker-us-east-1a`. */
export function mapiMachineSet(edit?: Edit<MachineAPIMachineSetObject>): MachineAPIMachineSetObject {
  return build(mapiMachineSetJson, edit);
}

/** Its v1beta2 Cluster API mirror in openshift-cluster-api, paused by the sync controller. */
export function capiMirror(edit?: Edit<ClusterAPIMachineSetObject>): ClusterAPIMachineSetObject {
  return build(capiMirrorJson, edit);
}

/** A standalone v1beta1 Cluster API GPU MachineSet at 0 replicas, sized by its AWSMachineTemplate. */
export function capiV1beta1MachineSet(edit?: Edit<ClusterAPIMachineSetObject>): ClusterAPIMachineSetObject {
  return build(capiV1beta1Json, edit);
}

export function awsMachineTemplate(edit?: Edit<InfrastructureTemplateObject>): InfrastructureTemplateObject {
  return build(awsMachineTemplateJson, edit);
}

/** `openshift-machine-api/worker-us-east-1a` → MAPI `prod-east-7k2xq-worker-us-east-1a`, min 1, max 6. */
export function machineAutoscaler(edit?: Edit<MachineAutoscalerObject>): MachineAutoscalerObject {
  return build(machineAutoscalerJson, edit);
}

/** `openshift-machine-api/gpu-us-east-1b` → CAPI v1beta2 ref, with two contradicting PR #402 Ready entries. */
export function pr402MachineAutoscaler(edit?: Edit<MachineAutoscalerObject>): MachineAutoscalerObject {
  return build(pr402MachineAutoscalerJson, edit);
}

export function clusterAutoscaler(edit?: Edit<KubeObject>): KubeObject {
  return build(clusterAutoscalerJson, edit);
}

export function shippedCrd(): CustomResourceDefinitionObject {
  return build(shippedCrdJson);
}

export function pr402Crd(): CustomResourceDefinitionObject {
  return build(pr402CrdJson);
}

export function coreEvents(): CoreEvent[] {
  return build<{ items: CoreEvent[] }>(coreEventsJson).items;
}

export function eventsV1(): EventsV1Event[] {
  return build<{ items: EventsV1Event[] }>(eventsV1Json).items;
}

/** Sets (string) or removes (null) annotations on any object. */
export function annotate(object: KubeObject, patch: Record<string, string | null>): void {
  const annotations = { ...(object.metadata.annotations ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete annotations[key];
    else annotations[key] = value;
  }
  object.metadata.annotations = annotations;
}

/** Turns the fixture into a second, distinct MachineAutoscaler (own name, age and uid). */
export function renameMachineAutoscaler(ma: MachineAutoscalerObject, name: string, creationTimestamp: string, uid: string): void {
  ma.metadata.name = name;
  ma.metadata.creationTimestamp = creationTimestamp;
  ma.metadata.uid = uid;
}

export function targetRef(ma: MachineAutoscalerObject, apiVersion: string, name: string, kind = 'MachineSet'): void {
  ma.spec = { ...ma.spec, scaleTargetRef: { apiVersion, kind, name } };
}
