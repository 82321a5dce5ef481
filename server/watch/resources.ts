import 'server-only';

export type Capability = 'core' | 'openshift-machine-api' | 'cluster-api' | 'karmada';

export type ResourceKey =
  | 'hpas'
  | 'machineAutoscalers'
  | 'clusterAutoscalers'
  | 'mapiMachineSets'
  | 'capiMachineSets'
  | 'machineAutoscalerCrd'
  | 'federatedHpas'
  | 'resourceBindings'
  | 'karmadaClusters'
  | 'propagationPolicies'
  | 'hpaEvents'
  | 'machineAutoscalerEvents'
  | 'machineSetEvents'
  | 'federatedHpaEvents';

export interface WatchedResource {
  key: ResourceKey;
  group: string;
  /** Preferred first: the first version the cluster serves is used. */
  versions: string[];
  plural: string;
  /** The discovery group that must be present for the resource to be watched. */
  requires: { group: string; version?: string };
  fieldSelector?: string;
  /** Shown in the cluster state ("cannot list machineautoscalers.autoscaling.openshift.io"). */
  label: string;
  /**
   * Each page of its list is handed over as it arrives (`ObjectChange` `listed`), not only the whole list: the index
   * maps HPAs one by one, so a cold start maps them while the rest of the lists arrive. Every other kind is judged per
   * cluster from complete inputs and waits for its whole list.
   */
  pageByPage?: true;
  /**
   * The informer's cache keeps each object's key only (namespace, name, resourceVersion: what a relist and a watch
   * need), not the object: what Autoscope reads of it is kept elsewhere (an HPA by the index, as JSON bytes:
   * `HeldJson`; an HPA's or a FederatedHPA's Event by history, as it is filed). Its `objects()` are those keys.
   */
  keysOnly?: true;
  /**
   * No cache at all: each object is handed on as it comes (`StreamWatch`), and the informer's `objects()` is empty. For
   * what Autoscope only files as it arrives and never reads again, where even a key per object was a growing part of
   * the heap. A relist then hands every listed object on again, and nothing the list no longer has is reported gone.
   * Not with `pageByPage` (the pages are what it hands on) nor `keysOnly`.
   */
  uncached?: true;
}

/**
 * An autoscaler kind's Events. The MachineAutoscaler verdicts read a cluster's machine Events from the informer
 * (`objects()`), so those keep whole objects; HPA and FederatedHPA Events are only filed into history as they
 * arrive (by uid: one filed twice is one row), so their informers keep nothing (`uncached`): about one Event for every
 * two HPAs in a large fleet, each of which lives an hour (~0.3 KB each as objects, ~150 bytes as keys).
 */
const events = (key: ResourceKey, kind: string, requires: WatchedResource['requires'], uncached = false): WatchedResource => ({
  key,
  group: '',
  versions: ['v1'],
  plural: 'events',
  requires,
  fieldSelector: `involvedObject.kind=${kind}`,
  label: `events (${kind})`,
  ...(uncached ? { uncached: true as const } : {}),
});

/**
 * Every (resource) Autoscope watches in a cluster; a resource whose group the cluster does not serve
 * is skipped (no OpenShift, no Karmada), not retried forever. Pods and metrics are never watched: they
 * are fetched on demand for the one HPA a user asks about.
 */
export const watchedResources: WatchedResource[] = [
  {
    key: 'hpas',
    group: 'autoscaling',
    versions: ['v2'],
    plural: 'horizontalpodautoscalers',
    requires: { group: 'autoscaling', version: 'v2' },
    label: 'horizontalpodautoscalers.autoscaling',
    pageByPage: true,
    keysOnly: true,
  },
  {
    key: 'machineAutoscalers',
    group: 'autoscaling.openshift.io',
    versions: ['v1beta1'],
    plural: 'machineautoscalers',
    requires: { group: 'autoscaling.openshift.io', version: 'v1beta1' },
    label: 'machineautoscalers.autoscaling.openshift.io',
  },
  {
    key: 'clusterAutoscalers',
    group: 'autoscaling.openshift.io',
    versions: ['v1'],
    plural: 'clusterautoscalers',
    requires: { group: 'autoscaling.openshift.io', version: 'v1' },
    label: 'clusterautoscalers.autoscaling.openshift.io',
  },
  {
    key: 'mapiMachineSets',
    group: 'machine.openshift.io',
    versions: ['v1beta1'],
    plural: 'machinesets',
    requires: { group: 'machine.openshift.io', version: 'v1beta1' },
    label: 'machinesets.machine.openshift.io',
  },
  {
    key: 'capiMachineSets',
    group: 'cluster.x-k8s.io',
    versions: ['v1beta2', 'v1beta1'],
    plural: 'machinesets',
    requires: { group: 'cluster.x-k8s.io' },
    label: 'machinesets.cluster.x-k8s.io',
  },
  {
    key: 'machineAutoscalerCrd',
    group: 'apiextensions.k8s.io',
    versions: ['v1'],
    plural: 'customresourcedefinitions',
    requires: { group: 'autoscaling.openshift.io', version: 'v1beta1' },
    fieldSelector: 'metadata.name=machineautoscalers.autoscaling.openshift.io',
    label: 'customresourcedefinitions (machineautoscalers)',
  },
  {
    key: 'federatedHpas',
    group: 'autoscaling.karmada.io',
    versions: ['v1alpha1'],
    plural: 'federatedhpas',
    requires: { group: 'autoscaling.karmada.io' },
    label: 'federatedhpas.autoscaling.karmada.io',
  },
  {
    key: 'resourceBindings',
    group: 'work.karmada.io',
    versions: ['v1alpha2'],
    plural: 'resourcebindings',
    requires: { group: 'work.karmada.io', version: 'v1alpha2' },
    label: 'resourcebindings.work.karmada.io',
  },
  {
    key: 'karmadaClusters',
    group: 'cluster.karmada.io',
    versions: ['v1alpha1'],
    plural: 'clusters',
    requires: { group: 'cluster.karmada.io' },
    label: 'clusters.cluster.karmada.io',
  },
  {
    key: 'propagationPolicies',
    group: 'policy.karmada.io',
    versions: ['v1alpha1'],
    plural: 'propagationpolicies',
    requires: { group: 'policy.karmada.io' },
    label: 'propagationpolicies.policy.karmada.io',
  },
  events('hpaEvents', 'HorizontalPodAutoscaler', { group: 'autoscaling', version: 'v2' }, true),
  events('machineAutoscalerEvents', 'MachineAutoscaler', { group: 'autoscaling.openshift.io', version: 'v1beta1' }),
  events('machineSetEvents', 'MachineSet', { group: 'machine.openshift.io' }),
  events('federatedHpaEvents', 'FederatedHPA', { group: 'autoscaling.karmada.io' }, true),
];

export function resourcePath(resource: WatchedResource, version: string): string {
  return resource.group ? `/apis/${resource.group}/${version}/${resource.plural}` : `/api/${version}/${resource.plural}`;
}
