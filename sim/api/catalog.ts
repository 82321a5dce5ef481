import type { HorizontalPodAutoscaler, KubeObject, MetricSpec, MetricStatus } from '@/lib/k8s/types';
import { ageOf } from './age';
import { capiV1beta1ToV1beta2, capiV1beta2ToV1beta1 } from './capi-conversion';
import { text } from '../json';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  priority: number;
  jsonPath?: string;
  cell?: (object: KubeObject, now: Date) => string | number | boolean | null;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Storage key shared by every served version of one resource. */
  storage: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  subresources: ('status' | 'scale' | 'proxy')[];
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath: string };
  /** Table columns after NAME, in kube-apiserver's order. */
  columns: PrinterColumn[];
  /** Served through a CustomResourceDefinition (so a CRD object describes it). */
  crd: boolean;
  /** Computed on every read from the simulated workloads rather than stored (pods, pod metrics). */
  virtual?: boolean;
  fieldLabels: string[];
  fromStorage?: (object: KubeObject) => KubeObject;
  toStorage?: (object: KubeObject) => KubeObject;
}

const rw = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const ro = ['get', 'list'];
const age: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description: 'CreationTimestamp',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
};
const col = (name: string, type: PrinterColumn['type'], jsonPath: string, priority = 0, description = ''): PrinterColumn => ({
  name,
  type,
  jsonPath,
  priority,
  description,
});
const baseFields = ['metadata.name', 'metadata.namespace'];

type Obj = Record<string, unknown>;
const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Obj)[k] : undefined), o);

function hpaTargets(hpa: KubeObject): string {
  const h = hpa as HorizontalPodAutoscaler;
  const specs: MetricSpec[] = h.spec.metrics ?? [];
  const statuses: MetricStatus[] = h.status?.currentMetrics ?? [];
  if (specs.length === 0) return '<none>';
  const parts = specs.map((spec, i) => {
    const cur = statuses[i];
    const unknown = '<unknown>';
    switch (spec.type) {
      case 'Resource':
      case 'ContainerResource': {
        const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
        const curSrc = spec.type === 'Resource' ? cur?.resource : cur?.containerResource;
        const name = src?.name ?? '';
        if (src?.target.averageValue !== undefined) return `${name}: ${curSrc?.current.averageValue ?? unknown}/${src.target.averageValue}`;
        const u = curSrc?.current.averageUtilization;
        return `${name}: ${u === undefined ? unknown : `${u}%`}/${src?.target.averageUtilization ?? 80}%`;
      }
      case 'Pods':
        return `${cur?.pods?.current.averageValue ?? unknown}/${spec.pods?.target.averageValue ?? ''}`;
      case 'Object':
        if (spec.object?.target.type === 'AverageValue')
          return `${cur?.object?.current.averageValue ?? unknown}/${spec.object.target.averageValue ?? ''} (avg)`;
        return `${cur?.object?.current.value ?? unknown}/${spec.object?.target.value ?? ''}`;
      case 'External':
        if (spec.external?.target.averageValue !== undefined)
          return `${cur?.external?.current.averageValue ?? unknown}/${spec.external.target.averageValue} (avg)`;
        return `${cur?.external?.current.value ?? unknown}/${spec.external?.target.value ?? ''}`;
      default:
        return '<unknown>';
    }
  });
  return parts.length > 2 ? `${parts.slice(0, 2).join(', ')} + ${parts.length - 2} more...` : parts.join(', ');
}

const hpaColumns: PrinterColumn[] = [
  {
    name: 'Reference',
    type: 'string',
    description: 'Reference to the scaled resource',
    priority: 0,
    cell: (o) => `${String(get(o, 'spec', 'scaleTargetRef', 'kind'))}/${String(get(o, 'spec', 'scaleTargetRef', 'name'))}`,
  },
  { name: 'Targets', type: 'string', description: 'Current and target metric values', priority: 0, cell: hpaTargets },
  {
    name: 'MinPods',
    type: 'string',
    description: 'Lower limit of replicas',
    priority: 0,
    cell: (o) => text(get(o, 'spec', 'minReplicas'), '1'),
  },
  {
    name: 'MaxPods',
    type: 'integer',
    description: 'Upper limit of replicas',
    priority: 0,
    cell: (o) => Number(get(o, 'spec', 'maxReplicas') ?? 0),
  },
  {
    name: 'Replicas',
    type: 'integer',
    description: 'Current replicas',
    priority: 0,
    cell: (o) => Number(get(o, 'status', 'currentReplicas') ?? 0),
  },
  { ...age, cell: (o, now) => ageOf(o.metadata.creationTimestamp, now) },
];

function eventTime(o: KubeObject): string | undefined {
  return (get(o, 'lastTimestamp') as string | undefined) ?? (get(o, 'eventTime') as string | undefined) ?? o.metadata.creationTimestamp;
}

const eventColumns: PrinterColumn[] = [
  {
    name: 'Last Seen',
    type: 'string',
    description: 'Time since the most recent occurrence',
    priority: 0,
    cell: (o, now) => ageOf(eventTime(o), now),
  },
  { name: 'Type', type: 'string', description: 'Type of this event', priority: 0, cell: (o) => text(get(o, 'type'), '') },
  { name: 'Reason', type: 'string', description: 'Why the action was taken', priority: 0, cell: (o) => text(get(o, 'reason'), '') },
  {
    name: 'Object',
    type: 'string',
    description: 'The object this event is about',
    priority: 0,
    cell: (o) => `${text(get(o, 'involvedObject', 'kind'), '').toLowerCase()}/${text(get(o, 'involvedObject', 'name'), '')}`,
  },
  {
    name: 'Message',
    type: 'string',
    description: 'A human-readable description of the status',
    priority: 0,
    cell: (o) => text(get(o, 'message'), ''),
  },
  {
    name: 'Count',
    type: 'string',
    description: 'How many times this event occurred',
    priority: 1,
    cell: (o) => text(get(o, 'count'), '1'),
  },
];

const podColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'Ready containers',
    priority: 0,
    cell: (o) => {
      const statuses = (get(o, 'status', 'containerStatuses') as { ready?: boolean }[] | undefined) ?? [];
      return `${statuses.filter((s) => s.ready).length}/${statuses.length}`;
    },
  },
  { name: 'Status', type: 'string', description: 'Phase', priority: 0, cell: (o) => text(get(o, 'status', 'phase'), 'Unknown') },
  { name: 'Restarts', type: 'string', description: 'Restarts', priority: 0, cell: () => '0' },
  { ...age, cell: (o, now) => ageOf(o.metadata.creationTimestamp, now) },
];

const deploymentColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'Ready replicas',
    priority: 0,
    cell: (o) => `${Number(get(o, 'status', 'readyReplicas') ?? 0)}/${Number(get(o, 'spec', 'replicas') ?? 0)}`,
  },
  {
    name: 'Up-to-date',
    type: 'integer',
    description: 'Updated replicas',
    priority: 0,
    cell: (o) => Number(get(o, 'status', 'updatedReplicas') ?? 0),
  },
  {
    name: 'Available',
    type: 'integer',
    description: 'Available replicas',
    priority: 0,
    cell: (o) => Number(get(o, 'status', 'availableReplicas') ?? 0),
  },
  { ...age, cell: (o, now) => ageOf(o.metadata.creationTimestamp, now) },
];

const namespaceColumns: PrinterColumn[] = [
  { name: 'Status', type: 'string', description: 'Phase', priority: 0, cell: (o) => text(get(o, 'status', 'phase'), 'Active') },
  { ...age, cell: (o, now) => ageOf(o.metadata.creationTimestamp, now) },
];

const scalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

/** Every resource the simulator can serve. A cluster serves the subset its profile lists (see `resourcesFor`). */
export const catalog = {
  namespaces: {
    group: '',
    version: 'v1',
    storage: '/namespaces',
    plural: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: rw,
    subresources: ['status'],
    columns: namespaceColumns,
    crd: false,
    fieldLabels: [...baseFields, 'status.phase'],
  },
  pods: {
    group: '',
    version: 'v1',
    storage: '/pods',
    plural: 'pods',
    singular: 'pod',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    verbs: rw,
    subresources: ['status'],
    columns: podColumns,
    crd: false,
    virtual: true,
    fieldLabels: [...baseFields, 'status.phase', 'spec.nodeName'],
  },
  events: {
    group: '',
    version: 'v1',
    storage: '/events',
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    verbs: rw,
    subresources: [],
    columns: eventColumns,
    crd: false,
    fieldLabels: [
      ...baseFields,
      'involvedObject.kind',
      'involvedObject.name',
      'involvedObject.namespace',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  },
  eventsV1: {
    group: 'events.k8s.io',
    version: 'v1',
    storage: '/events',
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    verbs: rw,
    subresources: [],
    columns: eventColumns,
    crd: false,
    fieldLabels: [
      ...baseFields,
      'regarding.kind',
      'regarding.name',
      'regarding.namespace',
      'regarding.uid',
      'reason',
      'reportingController',
      'type',
    ],
    fromStorage: toEventsV1,
    toStorage: fromEventsV1,
  },
  deployments: {
    group: 'apps',
    version: 'v1',
    storage: 'apps/deployments',
    plural: 'deployments',
    singular: 'deployment',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    verbs: rw,
    subresources: ['status', 'scale'],
    scale: scalePaths,
    columns: deploymentColumns,
    crd: false,
    fieldLabels: baseFields,
  },
  hpas: {
    group: 'autoscaling',
    version: 'v2',
    storage: 'autoscaling/horizontalpodautoscalers',
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    verbs: rw,
    subresources: ['status'],
    columns: hpaColumns,
    crd: false,
    fieldLabels: baseFields,
  },
  podMetrics: {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    storage: 'metrics.k8s.io/pods',
    plural: 'pods',
    singular: '',
    kind: 'PodMetrics',
    namespaced: true,
    verbs: ro,
    subresources: [],
    columns: [{ ...age, cell: (o, now) => ageOf(o.metadata.creationTimestamp, now) }],
    crd: false,
    virtual: true,
    fieldLabels: baseFields,
  },
  crds: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    storage: 'apiextensions.k8s.io/customresourcedefinitions',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    verbs: rw,
    subresources: ['status'],
    columns: [
      { name: 'Created At', type: 'date', description: 'Creation time', priority: 0, cell: (o) => o.metadata.creationTimestamp ?? '' },
    ],
    crd: false,
    fieldLabels: baseFields,
  },
  machineAutoscalers: {
    group: 'autoscaling.openshift.io',
    version: 'v1beta1',
    storage: 'autoscaling.openshift.io/machineautoscalers',
    plural: 'machineautoscalers',
    singular: 'machineautoscaler',
    kind: 'MachineAutoscaler',
    namespaced: true,
    shortNames: ['ma'],
    verbs: rw,
    subresources: ['status'],
    crd: true,
    fieldLabels: baseFields,
    columns: [
      col('Ref Kind', 'string', '.spec.scaleTargetRef.kind', 0, 'Kind of object scaled'),
      col('Ref Name', 'string', '.spec.scaleTargetRef.name', 0, 'Name of object scaled'),
      col('Min', 'integer', '.spec.minReplicas', 0, 'Min number of replicas'),
      col('Max', 'integer', '.spec.maxReplicas', 0, 'Max number of replicas'),
      { ...age, description: 'MachineAutoscaler resoruce age' },
    ],
  },
  clusterAutoscalers: {
    group: 'autoscaling.openshift.io',
    version: 'v1',
    storage: 'autoscaling.openshift.io/clusterautoscalers',
    plural: 'clusterautoscalers',
    singular: 'clusterautoscaler',
    kind: 'ClusterAutoscaler',
    namespaced: false,
    shortNames: ['ca'],
    verbs: rw,
    subresources: ['status'],
    crd: true,
    fieldLabels: baseFields,
    columns: [age],
  },
  mapiMachineSets: {
    group: 'machine.openshift.io',
    version: 'v1beta1',
    storage: 'machine.openshift.io/machinesets',
    plural: 'machinesets',
    singular: 'machineset',
    kind: 'MachineSet',
    namespaced: true,
    verbs: rw,
    subresources: ['status', 'scale'],
    crd: true,
    fieldLabels: baseFields,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
    columns: [
      col('Desired', 'integer', '.spec.replicas', 0, 'Desired Replicas'),
      col('Current', 'integer', '.status.replicas', 0, 'Current Replicas'),
      col('Ready', 'integer', '.status.readyReplicas', 0, 'Ready Replicas'),
      col('Available', 'string', '.status.availableReplicas', 0, 'Observed number of available replicas'),
      { ...age, description: 'Machineset age' },
    ],
  },
  capiMachineSetsV1beta2: {
    group: 'cluster.x-k8s.io',
    version: 'v1beta2',
    storage: 'cluster.x-k8s.io/machinesets',
    plural: 'machinesets',
    singular: 'machineset',
    kind: 'MachineSet',
    namespaced: true,
    shortNames: ['ms'],
    categories: ['cluster-api'],
    verbs: rw,
    subresources: ['status', 'scale'],
    crd: true,
    fieldLabels: baseFields,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    columns: [
      col('Cluster', 'string', '.spec.clusterName', 0, 'Cluster'),
      col('Desired', 'integer', '.spec.replicas', 0, 'Total number of machines desired by this MachineSet'),
      col('Current', 'integer', '.status.replicas', 0, 'Total number of machines currently in the MachineSet'),
      col('Ready', 'integer', '.status.readyReplicas', 0, 'Total number of ready machines targeted by this machine set.'),
      col('Available', 'integer', '.status.availableReplicas', 0, 'Total number of available machines targeted by this machine set.'),
      col('Up-to-date', 'integer', '.status.upToDateReplicas', 0, 'Total number of up-to-date machines targeted by this machine set.'),
      col('Paused', 'string', '.status.conditions[?(@.type=="Paused")].status', 10, 'Reconciliation paused'),
      { ...age, description: 'Time duration since creation of MachineSet' },
      col('Version', 'string', '.spec.template.spec.version', 0, 'Kubernetes version associated with this MachineSet'),
    ],
  },
  capiMachineSetsV1beta1: {
    group: 'cluster.x-k8s.io',
    version: 'v1beta1',
    storage: 'cluster.x-k8s.io/machinesets',
    plural: 'machinesets',
    singular: 'machineset',
    kind: 'MachineSet',
    namespaced: true,
    shortNames: ['ms'],
    categories: ['cluster-api'],
    verbs: rw,
    subresources: ['status', 'scale'],
    crd: true,
    fieldLabels: baseFields,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    fromStorage: capiV1beta2ToV1beta1,
    toStorage: capiV1beta1ToV1beta2,
    columns: [
      col('Cluster', 'string', '.spec.clusterName', 0, 'Cluster'),
      col('Desired', 'integer', '.spec.replicas', 0, 'Total number of machines desired by this machineset'),
      col('Replicas', 'integer', '.status.replicas', 0, 'Total number of non-terminated machines targeted by this machineset'),
      col('Ready', 'integer', '.status.readyReplicas', 0, 'Total number of ready machines targeted by this machineset.'),
      col('Available', 'integer', '.status.availableReplicas', 0, 'Total number of available machines targeted by this machineset.'),
      { ...age, description: 'Time duration since creation of MachineSet' },
      col('Version', 'string', '.spec.template.spec.version', 0, 'Kubernetes version associated with this MachineSet'),
    ],
  },
  federatedHpas: {
    group: 'autoscaling.karmada.io',
    version: 'v1alpha1',
    storage: 'autoscaling.karmada.io/federatedhpas',
    plural: 'federatedhpas',
    singular: 'federatedhpa',
    kind: 'FederatedHPA',
    namespaced: true,
    shortNames: ['fhpa'],
    categories: ['karmada-io'],
    verbs: rw,
    subresources: ['status'],
    crd: true,
    fieldLabels: baseFields,
    columns: [
      col('REFERENCE-KIND', 'string', '.spec.scaleTargetRef.kind'),
      col('REFERENCE-NAME', 'string', '.spec.scaleTargetRef.name'),
      col('MINPODS', 'integer', '.spec.minReplicas'),
      col('MAXPODS', 'integer', '.spec.maxReplicas'),
      col('REPLICAS', 'integer', '.status.currentReplicas'),
      { ...age, name: 'AGE' },
    ],
  },
  cronFederatedHpas: {
    group: 'autoscaling.karmada.io',
    version: 'v1alpha1',
    storage: 'autoscaling.karmada.io/cronfederatedhpas',
    plural: 'cronfederatedhpas',
    singular: 'cronfederatedhpa',
    kind: 'CronFederatedHPA',
    namespaced: true,
    shortNames: ['cronfhpa'],
    categories: ['karmada-io'],
    verbs: rw,
    subresources: ['status'],
    crd: true,
    fieldLabels: baseFields,
    columns: [
      col('REFERENCE-KIND', 'string', '.spec.scaleTargetRef.kind'),
      col('REFERENCE-NAME', 'string', '.spec.scaleTargetRef.name'),
      { ...age, name: 'AGE' },
    ],
  },
  resourceBindings: {
    group: 'work.karmada.io',
    version: 'v1alpha2',
    storage: 'work.karmada.io/resourcebindings',
    plural: 'resourcebindings',
    singular: 'resourcebinding',
    kind: 'ResourceBinding',
    namespaced: true,
    shortNames: ['rb'],
    categories: ['karmada-io'],
    verbs: rw,
    subresources: ['status'],
    crd: true,
    fieldLabels: baseFields,
    columns: [
      col('SCHEDULED', 'string', '.status.conditions[?(@.type=="Scheduled")].status'),
      col('FULLYAPPLIED', 'string', '.status.conditions[?(@.type=="FullyApplied")].status'),
      { ...age, name: 'AGE' },
    ],
  },
  karmadaClusters: {
    group: 'cluster.karmada.io',
    version: 'v1alpha1',
    storage: 'cluster.karmada.io/clusters',
    plural: 'clusters',
    singular: 'cluster',
    kind: 'Cluster',
    namespaced: false,
    categories: ['karmada-io'],
    verbs: rw,
    subresources: ['status', 'proxy'],
    crd: false,
    fieldLabels: baseFields,
    columns: [
      col('VERSION', 'string', '.status.kubernetesVersion'),
      col('MODE', 'string', '.spec.syncMode'),
      col('READY', 'string', '.status.conditions[?(@.type=="Ready")].status'),
      { ...age, name: 'AGE' },
    ],
  },
  propagationPolicies: {
    group: 'policy.karmada.io',
    version: 'v1alpha1',
    storage: 'policy.karmada.io/propagationpolicies',
    plural: 'propagationpolicies',
    singular: 'propagationpolicy',
    kind: 'PropagationPolicy',
    namespaced: true,
    shortNames: ['pp'],
    categories: ['karmada-io'],
    verbs: rw,
    subresources: [],
    crd: true,
    fieldLabels: baseFields,
    columns: [
      col('CONFLICT-RESOLUTION', 'string', '.spec.conflictResolution'),
      col('PRIORITY', 'string', '.spec.priority'),
      { ...age, name: 'AGE' },
    ],
  },
} satisfies Record<string, ResourceType>;

export type ResourceName = keyof typeof catalog;

export type ClusterProfile = 'kubernetes' | 'openshift' | 'karmada' | 'karmada-member';

const common: ResourceName[] = ['namespaces', 'events', 'eventsV1', 'crds'];
const workloads: ResourceName[] = ['pods', 'deployments', 'hpas', 'podMetrics'];

/** Which resources each kind of simulated cluster serves. */
export function resourcesFor(profile: ClusterProfile): ResourceType[] {
  const names: ResourceName[] =
    profile === 'kubernetes' || profile === 'karmada-member'
      ? [...common, ...workloads]
      : profile === 'openshift'
        ? [
            ...common,
            ...workloads,
            'machineAutoscalers',
            'clusterAutoscalers',
            'mapiMachineSets',
            'capiMachineSetsV1beta2',
            'capiMachineSetsV1beta1',
          ]
        : [
            ...common,
            'deployments',
            'hpas',
            'federatedHpas',
            'cronFederatedHpas',
            'resourceBindings',
            'karmadaClusters',
            'propagationPolicies',
          ];
  return names.map((n) => catalog[n]);
}

type EventLike = Record<string, unknown> & KubeObject;

/** core/v1 Event → events.k8s.io/v1 Event, as the apiserver converts (involvedObject → regarding, message → note). */
function toEventsV1(object: KubeObject): KubeObject {
  const e = object as EventLike;
  const { involvedObject, message, source, count, firstTimestamp, lastTimestamp, related, reportingComponent, reportingInstance, ...rest } =
    e;
  return {
    ...rest,
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    regarding: involvedObject,
    ...(related ? { related } : {}),
    note: message,
    eventTime: e.eventTime ?? null,
    reportingController: reportingComponent ?? get(source, 'component') ?? '',
    reportingInstance: reportingInstance ?? '',
    deprecatedSource: source ?? {},
    deprecatedFirstTimestamp: firstTimestamp ?? null,
    deprecatedLastTimestamp: lastTimestamp ?? null,
    deprecatedCount: count ?? 0,
  };
}

function fromEventsV1(object: KubeObject): KubeObject {
  const e = object as EventLike;
  const {
    regarding,
    note,
    deprecatedSource,
    deprecatedFirstTimestamp,
    deprecatedLastTimestamp,
    deprecatedCount,
    reportingController,
    ...rest
  } = e;
  return {
    ...rest,
    apiVersion: 'v1',
    kind: 'Event',
    involvedObject: regarding ?? {},
    message: note,
    source: deprecatedSource ?? { component: reportingController },
    reportingComponent: reportingController,
    firstTimestamp: deprecatedFirstTimestamp ?? null,
    lastTimestamp: deprecatedLastTimestamp ?? null,
    count: deprecatedCount ?? 1,
  };
}
