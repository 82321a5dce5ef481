import type { KubeObject } from '@/lib/k8s/types';
import { catalog } from '../api/catalog';
import { kubeTimeAt } from '../api/store';
import type { SimCluster } from '../fleet/sim-cluster';
import { EventRecorder } from './event-recorder';
import { ensureNamespace } from './kube-world';
import { hashString } from './load';
import type { ClusterSpec } from './scenario';
import type { Obj } from '../json';
import { obj, text } from '../json';

export const machineStorage = {
  mapi: catalog.mapiMachineSets.storage,
  capi: catalog.capiMachineSetsV1beta2.storage,
  ma: catalog.machineAutoscalers.storage,
  ca: catalog.clusterAutoscalers.storage,
};

const mapiNs = 'openshift-machine-api';
const capiNs = 'openshift-cluster-api';
const ownerKey = 'autoscaling.openshift.io/machineautoscaler';
const finalizer = 'machinetarget.autoscaling.openshift.io';
const mapiMin = 'machine.openshift.io/cluster-api-autoscaler-node-group-min-size';
const mapiMax = 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size';
const capiMin = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const capiMax = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const paused = 'cluster.x-k8s.io/paused';
const operatorComponent = 'machine_autoscaler_controller';

const annotationsOf = (o: KubeObject | undefined): Record<string, string> => o?.metadata.annotations ?? {};

const instanceCapacity: Record<string, { vCPU: number; memoryMb: number }> = {
  'm6i.xlarge': { vCPU: 4, memoryMb: 16384 },
  'm6i.2xlarge': { vCPU: 8, memoryMb: 32768 },
  'c6i.4xlarge': { vCPU: 16, memoryMb: 32768 },
  'g5.2xlarge': { vCPU: 8, memoryMb: 32768 },
  'r6i.2xlarge': { vCPU: 8, memoryMb: 65536 },
};

/**
 * An OpenShift cluster's machine side: Machine API MachineSets and their Cluster API mirrors (kept in
 * sync by a stand-in for cluster-capi-operator's sync controller), MachineAutoscalers reconciled by a
 * stand-in for cluster-autoscaler-operator (owner and min/max annotations, its events and its refusals),
 * and a cluster autoscaler moving replicas within the bounds. The operator writes no conditions, as
 * the shipped one does not.
 */
export class MachineWorld {
  readonly infraName: string;
  readonly recorder: EventRecorder;
  /** Per MachineAutoscaler uid: the operator's failed reconciles in a row and when it tries again (wall ms). */
  private readonly retries = new Map<string, { failures: number; nextAt: number; watched: string }>();

  /** `speed`: story seconds per wall second, so the operator's backoff runs on story time like the rest. */
  constructor(
    readonly cluster: SimCluster,
    readonly spec: ClusterSpec,
    private readonly speed = 1,
  ) {
    this.infraName = `${cluster.name.replace(/[^a-z0-9]/g, '').slice(0, 10)}-${(hashString(cluster.name) % 46656).toString(36).padStart(3, '0')}x${(hashString(`${cluster.name}!`) % 1296).toString(36)}`;
    this.recorder = new EventRecorder(cluster.store, operatorComponent);
  }

  private get store(): SimCluster['store'] {
    return this.cluster.store;
  }

  seed(now: number): void {
    const created = (hoursAgo: number): string => kubeTimeAt(now - hoursAgo * 3600_000);
    for (const ns of [mapiNs, capiNs, 'openshift-config']) ensureNamespace(this.cluster, ns, created(24 * 90));
    if (this.spec.clusterAutoscaler) {
      this.store.create(
        machineStorage.ca,
        {
          apiVersion: 'autoscaling.openshift.io/v1',
          kind: 'ClusterAutoscaler',
          metadata: { name: 'default', creationTimestamp: created(24 * 60) },
          spec: {
            podPriorityThreshold: -10,
            resourceLimits: { maxNodesTotal: 48, cores: { min: 8, max: 256 }, memory: { min: 4, max: 1024 } },
            scaleDown: {
              enabled: true,
              delayAfterAdd: '10m',
              delayAfterDelete: '5m',
              delayAfterFailure: '30s',
              unneededTime: '5m',
              utilizationThreshold: '0.4',
            },
            balanceSimilarNodeGroups: true,
          },
        },
        'kubectl-client-side-apply',
      );
    }
    this.spec.machineSets.forEach((ms, i) => this.createMachineSet(ms, created(24 * (30 - i))));
    for (const ma of this.spec.machineAutoscalers) if (ma.createdAtMinute === 0) this.createMachineAutoscaler(ma, created(24 * 7), now);
  }

  createMachineSet(ms: ClusterSpec['machineSets'][number], createdAt: string): void {
    const cap = instanceCapacity[ms.instanceType] ?? { vCPU: 4, memoryMb: 16384 };
    const capacity: Record<string, string> = ms.noCapacity
      ? {}
      : {
          'machine.openshift.io/vCPU': String(cap.vCPU),
          'machine.openshift.io/memoryMb': String(cap.memoryMb),
          'machine.openshift.io/GPU': String(ms.gpu),
          'machine.openshift.io/maxPods': '250',
          'capacity.cluster-autoscaler.kubernetes.io/labels': 'kubernetes.io/arch=amd64',
        };
    const clusterLabel = { 'machine.openshift.io/cluster-api-cluster': this.infraName };
    const selector = { 'machine.openshift.io/cluster-api-cluster': this.infraName, 'machine.openshift.io/cluster-api-machineset': ms.name };
    if (!ms.capiOnly) {
      this.store.create(
        machineStorage.mapi,
        {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          metadata: {
            name: ms.name,
            namespace: mapiNs,
            labels: clusterLabel,
            annotations: capacity,
            creationTimestamp: createdAt,
            finalizers: ms.mirror ? ['sync.machine.openshift.io/finalizer'] : undefined,
          },
          spec: {
            replicas: ms.replicas,
            authoritativeAPI: ms.authority,
            deletePolicy: 'Oldest',
            selector: { matchLabels: selector },
            template: {
              metadata: {
                labels: {
                  ...selector,
                  'machine.openshift.io/cluster-api-machine-role': 'worker',
                  'machine.openshift.io/cluster-api-machine-type': 'worker',
                  'machine.openshift.io/instance-type': ms.instanceType,
                  'machine.openshift.io/region': ms.zone.slice(0, -1),
                  'machine.openshift.io/zone': ms.zone,
                },
              },
              spec: {
                metadata: { labels: ms.gpu > 0 ? { 'node-role.kubernetes.io/gpu': '' } : {} },
                providerSpec: {
                  value: {
                    apiVersion: 'machine.openshift.io/v1beta1',
                    kind: 'AWSMachineProviderConfig',
                    instanceType: ms.instanceType,
                    placement: { availabilityZone: ms.zone, region: ms.zone.slice(0, -1) },
                    ami: { id: 'ami-0c1f4a5e8b2d3f6a7' },
                  },
                },
              },
            },
          },
          status: {
            replicas: ms.replicas,
            fullyLabeledReplicas: ms.replicas,
            readyReplicas: ms.replicas,
            availableReplicas: ms.replicas,
            observedGeneration: 1,
            labelSelector: Object.entries(selector)
              .map(([k, v]) => `${k}=${v}`)
              .join(','),
            authoritativeAPI: ms.authority,
            synchronizedAPI: ms.authority,
            synchronizedGeneration: 1,
            conditions: [
              ms.authority === 'MachineAPI'
                ? { type: 'Paused', status: 'False', reason: 'AuthoritativeAPIMachineAPI', severity: 'Info', lastTransitionTime: createdAt }
                : {
                    type: 'Paused',
                    status: 'True',
                    reason: 'AuthoritativeAPINotMachineAPI',
                    message: "The AuthoritativeAPI status is set to 'ClusterAPI'",
                    lastTransitionTime: createdAt,
                  },
              ...(ms.mirror
                ? [
                    {
                      type: 'Synchronized',
                      status: 'True',
                      reason: 'ResourceSynchronized',
                      message:
                        ms.authority === 'MachineAPI'
                          ? 'Successfully synchronized MAPI MachineSet to CAPI'
                          : 'Successfully synchronized CAPI MachineSet to MAPI',
                      lastTransitionTime: createdAt,
                    },
                  ]
                : []),
            ],
          },
        },
        'machineset-controller',
      );
    }
    if (ms.mirror || ms.capiOnly) {
      const capiAnnotations: Record<string, string> = {
        ...capacity,
        ...(ms.authority === 'MachineAPI' && !ms.capiOnly ? { [paused]: '' } : {}),
      };
      const pausedNow = capiAnnotations[paused] !== undefined;
      this.store.create(
        machineStorage.capi,
        {
          apiVersion: 'cluster.x-k8s.io/v1beta2',
          kind: 'MachineSet',
          metadata: {
            name: ms.name,
            namespace: capiNs,
            labels: { ...clusterLabel, 'cluster.x-k8s.io/cluster-name': this.infraName },
            annotations: capiAnnotations,
            creationTimestamp: createdAt,
            finalizers: ms.capiOnly ? undefined : ['sync.machine.openshift.io/finalizer'],
            ownerReferences: [
              { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: this.infraName, uid: `cluster-${this.infraName}` },
            ],
          },
          spec: {
            clusterName: this.infraName,
            replicas: ms.replicas,
            deletion: { order: 'Oldest' },
            selector: { matchLabels: { 'cluster.x-k8s.io/set-name': ms.name, 'cluster.x-k8s.io/cluster-name': this.infraName } },
            template: {
              metadata: {
                labels: {
                  'cluster.x-k8s.io/set-name': ms.name,
                  'cluster.x-k8s.io/cluster-name': this.infraName,
                  'node-role.kubernetes.io/worker': '',
                },
              },
              spec: {
                clusterName: this.infraName,
                bootstrap: { dataSecretName: 'worker-user-data' },
                infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachineTemplate', name: `${ms.name}-4k2x9` },
                failureDomain: ms.zone,
              },
            },
          },
          status: {
            replicas: ms.replicas,
            readyReplicas: ms.replicas,
            availableReplicas: ms.replicas,
            upToDateReplicas: ms.replicas,
            selector: `cluster.x-k8s.io/cluster-name=${this.infraName},cluster.x-k8s.io/set-name=${ms.name}`,
            observedGeneration: 1,
            conditions: [
              pausedNow
                ? {
                    type: 'Paused',
                    status: 'True',
                    reason: 'Paused',
                    message: 'MachineSet has the cluster.x-k8s.io/paused annotation',
                    lastTransitionTime: createdAt,
                    observedGeneration: 1,
                  }
                : {
                    type: 'Paused',
                    status: 'False',
                    reason: 'NotPaused',
                    message: '',
                    lastTransitionTime: createdAt,
                    observedGeneration: 1,
                  },
              { type: 'MachinesReady', status: 'True', reason: 'Ready', message: '', lastTransitionTime: createdAt, observedGeneration: 1 },
            ],
          },
        },
        'capi-controllers',
      );
    }
  }

  createMachineAutoscaler(ma: ClusterSpec['machineAutoscalers'][number], createdAt: string, now: number): void {
    this.store.create(
      machineStorage.ma,
      {
        apiVersion: 'autoscaling.openshift.io/v1beta1',
        kind: 'MachineAutoscaler',
        metadata: {
          name: ma.name,
          namespace: ma.namespace,
          creationTimestamp: createdAt,
          labels: { 'app.kubernetes.io/part-of': 'compute' },
        },
        spec: { minReplicas: ma.min, maxReplicas: ma.max, scaleTargetRef: { apiVersion: ma.apiVersion, kind: ma.kind, name: ma.target } },
        status: {},
      },
      'kubectl-client-side-apply',
    );
    if (ma.reconciled) this.reconcileOperator(now);
  }

  /** Deletes both copies of a MachineSet (an episode: the target goes missing). */
  deleteMachineSet(name: string): KubeObject[] {
    const removed: KubeObject[] = [];
    const m = this.store.delete(machineStorage.mapi, mapiNs, name);
    const c = this.store.delete(machineStorage.capi, capiNs, name);
    if (m) removed.push(m);
    if (c) removed.push(c);
    return removed;
  }

  restore(objects: KubeObject[]): void {
    for (const o of objects) {
      const storageKey = o.apiVersion?.startsWith('machine.openshift.io') ? machineStorage.mapi : machineStorage.capi;
      if (this.store.get(storageKey, o.metadata.namespace, o.metadata.name)) continue;
      const { resourceVersion: _rv, uid: _uid, managedFields: _mf, ...metadata } = o.metadata;
      this.store.create(storageKey, { ...o, metadata: { ...metadata, name: o.metadata.name } }, 'capi-controllers');
    }
  }

  /** A migration of one MachineSet from Machine API to Cluster API (or back): Migrating, then the new authority. */
  setAuthority(name: string, authority: 'MachineAPI' | 'ClusterAPI' | 'Migrating', now: number): void {
    const at = kubeTimeAt(now);
    this.store.mutate(
      machineStorage.mapi,
      mapiNs,
      name,
      (o) => {
        const status = obj(o.status);
        const spec = obj(o.spec);
        const desired = authority === 'Migrating' ? (status.authoritativeAPI === 'MachineAPI' ? 'ClusterAPI' : 'MachineAPI') : authority;
        return {
          ...o,
          spec: { ...spec, authoritativeAPI: desired },
          status: {
            ...status,
            authoritativeAPI: authority,
            ...(authority !== 'Migrating' ? { synchronizedAPI: authority } : {}),
            conditions: (Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [])
              .filter((c) => c.type !== 'Paused')
              .concat([
                authority === 'MachineAPI'
                  ? { type: 'Paused', status: 'False', reason: 'AuthoritativeAPIMachineAPI', severity: 'Info', lastTransitionTime: at }
                  : {
                      type: 'Paused',
                      status: 'True',
                      reason: 'AuthoritativeAPINotMachineAPI',
                      message: `The AuthoritativeAPI status is set to '${authority}'`,
                      lastTransitionTime: at,
                    },
              ]),
          },
        };
      },
      { manager: 'machine-api-migration' },
    );
    if (authority === 'Migrating') return;
    this.store.mutate(
      machineStorage.capi,
      capiNs,
      name,
      (o) => {
        const annotations = { ...annotationsOf(o) };
        if (authority === 'ClusterAPI') delete annotations[paused];
        else annotations[paused] = '';
        const status = obj(o.status);
        const isPaused = authority === 'MachineAPI';
        return {
          ...o,
          metadata: { ...o.metadata, annotations },
          status: {
            ...status,
            conditions: (Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [])
              .filter((c) => c.type !== 'Paused')
              .concat([
                isPaused
                  ? {
                      type: 'Paused',
                      status: 'True',
                      reason: 'Paused',
                      message: 'MachineSet has the cluster.x-k8s.io/paused annotation',
                      lastTransitionTime: at,
                    }
                  : { type: 'Paused', status: 'False', reason: 'NotPaused', message: '', lastTransitionTime: at },
              ]),
          },
        };
      },
      { manager: 'cluster-capi-operator' },
    );
  }

  /**
   * cluster-autoscaler-operator's reconcile, simplified to what shows in the API: for each
   * MachineAutoscaler in openshift-machine-api with a supported target, claim the target (owner
   * annotation, finalizer, lastTargetRef) and write min/max on it; a target owned by another
   * MachineAutoscaler, a missing target and a write the non-authoritative copy's VAP denies each give
   * the operator's Warning event instead.
   *
   * A failed reconcile is retried as controller-runtime's default rate limiter does it: per object,
   * 5 ms doubling on each failure up to 1000 s (story time), and at once when the object changes (a
   * watch event). So a stuck MachineAutoscaler's Warning counts climb fast for a few minutes and then
   * once every ~17 minutes, as on a real cluster, instead of once a pass.
   */
  reconcileOperator(now: number): void {
    const supportsCapi = this.spec.operatorSupportsClusterAPITargets;
    const seen = new Set<string>();
    for (const ma of this.store.list(machineStorage.ma)) {
      if (ma.metadata.namespace !== mapiNs) continue;
      const uid = ma.metadata.uid ?? `${ma.metadata.namespace}/${ma.metadata.name}`;
      seen.add(uid);
      const retry = this.retries.get(uid);
      if (retry && retry.watched === this.watchedVersions(ma) && now < retry.nextAt) continue;
      if (this.reconcileOne(ma, now, supportsCapi)) {
        this.retries.delete(uid);
      } else {
        const failures = (retry?.failures ?? 0) + 1;
        const backoffStoryMs = Math.min(5 * 2 ** (failures - 1), 1_000_000);
        const current = this.store.get(machineStorage.ma, mapiNs, ma.metadata.name) ?? ma;
        this.retries.set(uid, { failures, nextAt: now + backoffStoryMs / this.speed, watched: this.watchedVersions(current) });
      }
    }
    for (const uid of this.retries.keys()) if (!seen.has(uid)) this.retries.delete(uid);
  }

  /**
   * What the operator's watches would enqueue this MachineAutoscaler on: its own changes, and changes to
   * a MachineSet (either group) whose owner annotation names it.
   */
  private watchedVersions(ma: KubeObject): string {
    const owner = `${mapiNs}/${ma.metadata.name}`;
    const owned = [...this.store.list(machineStorage.mapi), ...this.store.list(machineStorage.capi)].filter(
      (m) => annotationsOf(m)[ownerKey] === owner,
    );
    return [ma.metadata.resourceVersion ?? '', ...owned.map((m) => `${m.metadata.uid ?? ''}@${m.metadata.resourceVersion ?? ''}`)].join(
      '|',
    );
  }

  /** One reconcile of one MachineAutoscaler; false when it ends in an error (and so is requeued with backoff). */
  private reconcileOne(ma: KubeObject, now: number, supportsCapi: boolean): boolean {
    const spec = obj(ma.spec);
    const ref = obj(spec.scaleTargetRef);
    const apiVersion = text(ref.apiVersion, '');
    const name = text(ref.name, '');
    const min = Number(spec.minReplicas);
    const max = Number(spec.maxReplicas);
    const involved = {
      apiVersion: 'autoscaling.openshift.io/v1beta1',
      kind: 'MachineAutoscaler',
      name: ma.metadata.name,
      namespace: mapiNs,
      uid: ma.metadata.uid,
    };
    const warn = (reason: string, message: string): void => this.recorder.record(involved, 'Warning', reason, message, now);
    if (min > max || min < 0 || max < 0) {
      warn('FailedValidation', 'MachineAutoscaler validation error: max replicas must be greater than or equal to min');
      return false;
    }
    const isMapi = apiVersion === 'machine.openshift.io/v1beta1' && ref.kind === 'MachineSet';
    const isCapi = supportsCapi && /^cluster\.x-k8s\.io\/v1beta[12]$/.test(apiVersion) && ref.kind === 'MachineSet';
    if (!isMapi && !isCapi) {
      warn('FailedGetTarget', 'Error getting target: unsupported MachineAutoscaler target');
      return false;
    }
    const storageKey = isMapi ? machineStorage.mapi : machineStorage.capi;
    const targetNs = isMapi ? mapiNs : capiNs;
    const target = this.store.get(storageKey, targetNs, name);
    if (!target) {
      warn(
        'FailedGetTarget',
        `Error getting target: machinesets.${isMapi ? 'machine.openshift.io' : 'cluster.x-k8s.io'} "${name}" not found`,
      );
      return false;
    }
    const owner = `${mapiNs}/${ma.metadata.name}`;
    const currentOwner = annotationsOf(target)[ownerKey];
    if (currentOwner && currentOwner !== owner) {
      warn('FailedSetOwner', 'Error setting target owner: already owned by another MachineAutoscaler');
      return false;
    }
    const minKey = isMapi ? mapiMin : capiMin;
    const maxKey = isMapi ? mapiMax : capiMax;
    const want = { [ownerKey]: owner, [minKey]: String(min), [maxKey]: String(max) };
    const current = annotationsOf(target);
    const needsWrite = Object.entries(want).some(([k, v]) => current[k] !== v);
    const authority = isMapi ? text(obj(target.status).authoritativeAPI ?? obj(target.spec).authoritativeAPI, 'MachineAPI') : 'ClusterAPI';
    if (needsWrite && isMapi && authority !== 'MachineAPI') {
      warn(
        'FailedUpdateTarget',
        'Error updating target: machinesets.machine.openshift.io "' +
          name +
          "\" is forbidden: ValidatingAdmissionPolicy 'openshift-prevent-migration-when-machine-updating' denied request: Cannot add, modify or delete any machine.openshift.io/* or cluster.x-k8s.io/* or clusters.x-k8s.io/* annotation. This is because status.authoritativeAPI is set to Cluster API.",
      );
      return false;
    }
    if (needsWrite) {
      this.store.mutate(
        storageKey,
        targetNs,
        name,
        (o) => ({ ...o, metadata: { ...o.metadata, annotations: { ...annotationsOf(o), ...want } } }),
        { manager: 'cluster-autoscaler-operator' },
      );
      this.recorder.record(involved, 'Normal', 'SuccessfulUpdate', `Updated MachineAutoscaler target: ${targetNs}/${name}`, now);
    }
    const lastTargetRef = { apiVersion, kind: 'MachineSet', name };
    const finalizers = ma.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer) || JSON.stringify(obj(ma.status).lastTargetRef) !== JSON.stringify(lastTargetRef)) {
      this.store.mutate(
        machineStorage.ma,
        mapiNs,
        ma.metadata.name,
        (o) => ({
          ...o,
          metadata: { ...o.metadata, finalizers: [...new Set([...(o.metadata.finalizers ?? []), finalizer])] },
          status: { lastTargetRef },
        }),
        { manager: 'cluster-autoscaler-operator' },
      );
    }
    return true;
  }

  /**
   * cluster-capi-operator's MachineSet sync: annotations and replicas flow from the authoritative copy to
   * its mirror (MAPI→CAPI copies everything and pauses the CAPI copy; CAPI→MAPI drops cluster.x-k8s.io/ keys).
   */
  syncMirrors(): void {
    const replicasOf = (o: KubeObject): { spec: number; status: number; ready: number } => ({
      spec: Number(obj(o.spec).replicas ?? 0),
      status: Number(obj(o.status).replicas ?? 0),
      ready: Number(obj(o.status).readyReplicas ?? 0),
    });
    const withReplicas = (o: KubeObject, r: { spec: number; status: number; ready: number }): KubeObject => ({
      ...o,
      spec: { ...obj(o.spec), replicas: r.spec },
      status: { ...obj(o.status), replicas: r.status, readyReplicas: r.ready, availableReplicas: r.ready },
    });
    for (const m of this.store.list(machineStorage.mapi)) {
      const c = this.store.get(machineStorage.capi, capiNs, m.metadata.name);
      if (!c) continue;
      const authority = text(obj(m.status).authoritativeAPI, 'MachineAPI');
      if (authority === 'MachineAPI') {
        const next = { ...annotationsOf(m), [paused]: '' };
        const r = replicasOf(m);
        if (JSON.stringify(next) !== JSON.stringify(annotationsOf(c)) || JSON.stringify(r) !== JSON.stringify(replicasOf(c))) {
          this.store.mutate(
            machineStorage.capi,
            capiNs,
            c.metadata.name,
            (o) => withReplicas({ ...o, metadata: { ...o.metadata, annotations: next } }, r),
            { manager: 'cluster-capi-operator' },
          );
        }
      } else if (authority === 'ClusterAPI') {
        const next = Object.fromEntries(Object.entries(annotationsOf(c)).filter(([k]) => !k.includes('cluster.x-k8s.io/')));
        const r = replicasOf(c);
        if (JSON.stringify(next) !== JSON.stringify(annotationsOf(m)) || JSON.stringify(r) !== JSON.stringify(replicasOf(m))) {
          this.store.mutate(
            machineStorage.mapi,
            mapiNs,
            m.metadata.name,
            (o) => withReplicas({ ...o, metadata: { ...o.metadata, annotations: next } }, r),
            { manager: 'cluster-capi-operator' },
          );
        }
      }
    }
  }

  /** The cluster autoscaler: authoritative, annotated node groups follow the cluster's load within their bounds. */
  autoscaleNodes(load: number): void {
    const scale = (storageKey: string, ns: string, o: KubeObject, minKey: string, maxKey: string): void => {
      const a = annotationsOf(o);
      const min = Number(a[minKey]);
      const max = Number(a[maxKey]);
      if (!Number.isFinite(min) || !Number.isFinite(max) || a[minKey] === undefined || max < min || max === 0) return;
      // A node group at zero needs CPU and memory capacity to build a node template (CanScaleFromZero).
      const canScaleFromZero =
        (a['capacity.cluster-autoscaler.kubernetes.io/cpu'] !== undefined &&
          a['capacity.cluster-autoscaler.kubernetes.io/memory'] !== undefined) ||
        (a['machine.openshift.io/vCPU'] !== undefined && a['machine.openshift.io/memoryMb'] !== undefined);
      if (Number(obj(o.spec).replicas ?? 0) === 0 && !canScaleFromZero) return;
      const want = Math.max(min, Math.min(max, Math.round(min + (max - min) * load)));
      const spec = obj(o.spec);
      const status = obj(o.status);
      if (spec.replicas === want && status.replicas === want) return;
      // Machines take a while to provision: status trails spec by one step per pass.
      const cur = Number(status.replicas ?? 0);
      const next = cur < want ? cur + 1 : cur > want ? cur - 1 : cur;
      this.store.mutate(
        storageKey,
        ns,
        o.metadata.name,
        (x) => ({
          ...x,
          spec: { ...obj(x.spec), replicas: want },
          status: {
            ...obj(x.status),
            replicas: next,
            readyReplicas: Math.min(next, want),
            availableReplicas: Math.min(next, want),
            ...(storageKey === machineStorage.mapi ? { fullyLabeledReplicas: next } : { upToDateReplicas: next }),
          },
        }),
        { manager: 'cluster-autoscaler' },
      );
    };
    for (const m of this.store.list(machineStorage.mapi)) {
      if (text(obj(m.status).authoritativeAPI, 'MachineAPI') === 'MachineAPI') scale(machineStorage.mapi, mapiNs, m, mapiMin, mapiMax);
    }
    for (const c of this.store.list(machineStorage.capi)) {
      const mapi = this.store.get(machineStorage.mapi, mapiNs, c.metadata.name);
      const authority = mapi ? text(obj(mapi.status).authoritativeAPI, 'MachineAPI') : 'ClusterAPI';
      if (authority === 'ClusterAPI' && annotationsOf(c)[paused] === undefined) scale(machineStorage.capi, capiNs, c, capiMin, capiMax);
    }
  }
}
