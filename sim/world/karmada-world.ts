import { assignReplicas, estimateAvailableReplicas } from '@/lib/federation';
import type { KarmadaCluster } from '@/lib/api/federation';
import type { HpaControllerState } from '@/lib/hpa/types';
import type { Condition, HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import { catalog } from '../api/catalog';
import { kubeTimeAt } from '../api/store';
import type { SimCluster } from '../fleet/sim-cluster';
import { EventRecorder } from './event-recorder';
import type { GroundTruth } from './ground-truth';
import { recordSync, runHpaSync } from './hpa-controller';
import type { KubeWorld } from './kube-world';
import { ensureNamespace, storage } from './kube-world';
import type { ClusterSpec } from './scenario';
import { deploymentObject } from './workload';
import { obj, text } from '../json';

export const karmadaStorage = {
  clusters: catalog.karmadaClusters.storage,
  bindings: catalog.resourceBindings.storage,
  policies: catalog.propagationPolicies.storage,
  fhpas: catalog.federatedHpas.storage,
  cron: catalog.cronFederatedHpas.storage,
};

type FederatedApp = ClusterSpec['federated'][number];

/**
 * A Karmada control plane: Cluster objects for its members, resource templates with their
 * PropagationPolicies and ResourceBindings, FederatedHPAs computed centrally by `lib/hpa` over the
 * members' pods, and karmada-scheduler's division by `lib/federation`'s `assignReplicas`.
 */
export class KarmadaWorld {
  readonly recorder: EventRecorder;
  private readonly states = new Map<string, HpaControllerState>();
  private readonly apps = new Map<string, FederatedApp>();
  private readonly firstSynced = new Set<string>();
  private readonly notReady = new Set<string>();

  constructor(
    readonly cluster: SimCluster,
    readonly spec: ClusterSpec,
    private readonly members: Map<string, { world: KubeWorld; spec: ClusterSpec }>,
    private readonly speed: number,
    private readonly truth: GroundTruth,
  ) {
    this.recorder = new EventRecorder(cluster.store, 'federatedHPA-controller');
  }

  private get store(): SimCluster['store'] {
    return this.cluster.store;
  }

  seed(now: number): void {
    const created = (hoursAgo: number): string => kubeTimeAt(now - hoursAgo * 3600_000);
    for (const ns of ['default', 'karmada-system', 'karmada-cluster', ...this.spec.federated.map((f) => f.namespace)])
      ensureNamespace(this.cluster, ns, created(24 * 60));
    for (const [name, { world, spec }] of this.members) {
      this.store.create(
        karmadaStorage.clusters,
        this.clusterObject(name, world, spec, created(24 * 50), true, now),
        'karmada-controller-manager',
      );
    }
    this.spec.federated.forEach((app, i) => {
      const createdAt = created(5 + i * 3);
      this.apps.set(`${app.namespace}/${app.name}`, app);
      const permanentId = `${(0x1f2e3d4c + i * 7919).toString(16)}-7a1b-4c2d-9e8f-${(0x5a6b7c8d9e0f + i).toString(16).padStart(12, '0')}`;
      const templateUid = `${(0x3c4d5e6f + i).toString(16)}-1a2b-4c3d-8e9f-${(0x0a1b2c3d4e5f + i).toString(16).padStart(12, '0')}`;
      const deployment = deploymentObject(
        { name: app.name, namespace: app.namespace, labels: { app: app.name } },
        app.replicas,
        { noRequests: false },
        createdAt,
      );
      this.store.create(
        storage.deployments,
        {
          ...deployment,
          metadata: {
            ...deployment.metadata,
            uid: templateUid,
            labels: { ...deployment.metadata.labels, 'propagationpolicy.karmada.io/permanent-id': permanentId },
          },
          status: {},
        },
        'kubectl-client-side-apply',
      );
      this.store.create(karmadaStorage.policies, this.policyObject(app, permanentId, createdAt), 'kubectl-client-side-apply');
      this.store.create(
        karmadaStorage.bindings,
        this.bindingObject(app, templateUid, permanentId, createdAt),
        'karmada-controller-manager',
      );
      this.store.create(
        karmadaStorage.fhpas,
        {
          apiVersion: 'autoscaling.karmada.io/v1alpha1',
          kind: 'FederatedHPA',
          metadata: { name: app.name, namespace: app.namespace, creationTimestamp: createdAt },
          spec: {
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app.name },
            minReplicas: app.min,
            maxReplicas: app.max,
            metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
          },
          status: { currentReplicas: app.replicas, desiredReplicas: app.replicas },
        },
        'kubectl-client-side-apply',
      );
      for (const [memberName, member] of this.members) {
        if (!this.targets(app).includes(memberName)) continue;
        ensureNamespace(member.world.cluster, app.namespace, createdAt);
        member.world.addApp(
          {
            namespace: app.namespace,
            name: app.name,
            metrics: 'cpu',
            load: app.load,
            behavior: 'none',
            replicas: 0,
            min: 1,
            max: app.max,
            demand: app.demand,
            noRequests: false,
            noHpa: true,
            ambiguous: false,
            missingTarget: false,
          },
          now,
          createdAt,
          { hpa: false },
        );
      }
      this.schedule(app, now);
    });
    const first = this.spec.federated[0];
    if (first) {
      this.store.create(
        karmadaStorage.cron,
        {
          apiVersion: 'autoscaling.karmada.io/v1alpha1',
          kind: 'CronFederatedHPA',
          metadata: { name: `${first.name}-business-hours`, namespace: first.namespace, creationTimestamp: created(30) },
          spec: {
            scaleTargetRef: { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'FederatedHPA', name: first.name },
            rules: [
              {
                name: 'scale-up-mornings',
                schedule: '0 7 * * 1-5',
                targetMinReplicas: Math.min(first.max, first.min + 2),
                suspend: false,
                successfulHistoryLimit: 3,
                failedHistoryLimit: 3,
              },
              {
                name: 'scale-down-evenings',
                schedule: '0 20 * * 1-5',
                targetMinReplicas: first.min,
                suspend: false,
                successfulHistoryLimit: 3,
                failedHistoryLimit: 3,
              },
            ],
          },
          status: {
            executionHistories: [
              { ruleName: 'scale-up-mornings', nextExecutionTime: created(-12) },
              { ruleName: 'scale-down-evenings', nextExecutionTime: created(-4) },
            ],
          },
        },
        'kubectl-client-side-apply',
      );
    }
  }

  private targets(app: FederatedApp): string[] {
    return app.weights ? Object.keys(app.weights) : [...this.members.keys()];
  }

  private clusterObject(name: string, world: KubeWorld, spec: ClusterSpec, createdAt: string, ready: boolean, now: number): KubeObject {
    const at = kubeTimeAt(now);
    const allocatedPods = [...world.workloads.values()].reduce((n, w) => n + w.counts(now).replicas, 0) + 18;
    const cpuCores = Number(spec.capacity.cpu);
    return {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name,
        creationTimestamp: createdAt,
        finalizers: ['karmada.io/cluster-controller'],
        labels: { region: spec.region ?? name },
      },
      spec: {
        id: `${name}-${(name.length * 7919).toString(16)}`,
        syncMode: 'Push',
        apiEndpoint: world.cluster.url,
        secretRef: { namespace: 'karmada-cluster', name },
        impersonatorSecretRef: { namespace: 'karmada-cluster', name: `${name}-impersonator` },
        provider: 'aws',
        region: spec.region ?? 'us-east-1',
        resourceModels: [],
      },
      status: {
        kubernetesVersion: `v${spec.kubernetesVersion}`,
        apiEnablements: [
          { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
          { groupVersion: 'autoscaling/v2', resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' }] },
        ],
        conditions: ready
          ? [
              {
                type: 'Ready',
                status: 'True',
                reason: 'ClusterReady',
                message: 'cluster is healthy and ready to accept workloads',
                lastTransitionTime: createdAt,
              },
              {
                type: 'CompleteAPIEnablements',
                status: 'True',
                reason: 'CompleteAPIEnablements',
                message: 'collected complete APIs from the cluster',
                lastTransitionTime: createdAt,
              },
            ]
          : [
              {
                type: 'Ready',
                status: 'False',
                reason: 'ClusterNotReachable',
                message: 'cluster is not reachable',
                lastTransitionTime: at,
              },
              {
                type: 'CompleteAPIEnablements',
                status: 'True',
                reason: 'CompleteAPIEnablements',
                message: 'collected complete APIs from the cluster',
                lastTransitionTime: createdAt,
              },
            ],
        nodeSummary: { totalNum: Math.ceil(spec.capacity.pods / 30), readyNum: ready ? Math.ceil(spec.capacity.pods / 30) : 0 },
        resourceSummary: {
          allocatable: { cpu: `${cpuCores}`, memory: `${cpuCores * 4}Gi`, pods: `${spec.capacity.pods}` },
          allocated: { cpu: `${Math.round(allocatedPods * 250)}m`, memory: `${allocatedPods * 256}Mi`, pods: `${allocatedPods}` },
          allocating: { cpu: '0', memory: '0', pods: '0' },
        },
      },
    };
  }

  private policyObject(app: FederatedApp, permanentId: string, createdAt: string): KubeObject {
    const clusterNames = this.targets(app);
    const replicaScheduling =
      app.strategy === 'Duplicated'
        ? { replicaSchedulingType: 'Duplicated' }
        : app.strategy === 'Aggregated'
          ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }
          : app.strategy === 'DynamicWeight'
            ? {
                replicaSchedulingType: 'Divided',
                replicaDivisionPreference: 'Weighted',
                weightPreference: { dynamicWeight: 'AvailableReplicas' },
              }
            : {
                replicaSchedulingType: 'Divided',
                replicaDivisionPreference: 'Weighted',
                weightPreference: {
                  staticWeightList: clusterNames.map((c) => ({ targetCluster: { clusterNames: [c] }, weight: app.weights?.[c] ?? 1 })),
                },
              };
    return {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: {
        name: `${app.name}-propagation`,
        namespace: app.namespace,
        creationTimestamp: createdAt,
        labels: { 'propagationpolicy.karmada.io/permanent-id': permanentId },
      },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app.name }],
        placement: { clusterAffinity: { clusterNames }, replicaScheduling },
        priority: 0,
        conflictResolution: 'Abort',
      },
    };
  }

  private bindingObject(app: FederatedApp, templateUid: string, permanentId: string, createdAt: string): KubeObject {
    const policy = obj(this.policyObject(app, permanentId, createdAt).spec);
    return {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: `${app.name}-deployment`,
        namespace: app.namespace,
        creationTimestamp: createdAt,
        labels: { 'propagationpolicy.karmada.io/permanent-id': permanentId },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app.name, uid: templateUid, controller: true }],
      },
      spec: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: app.namespace, name: app.name, uid: templateUid },
        replicas: app.replicas,
        replicaRequirements: { resourceRequest: { cpu: '250m', memory: '256Mi' } },
        placement: policy.placement,
        clusters: [],
        schedulerName: 'default-scheduler',
      },
      status: {},
    };
  }

  private readyMembers(): Set<string> {
    const out = new Set<string>();
    for (const c of this.store.list(karmadaStorage.clusters)) {
      const ready = ((obj(c.status).conditions as Condition[] | undefined) ?? []).find((x) => x.type === 'Ready');
      if (ready?.status === 'True') out.add(c.metadata.name);
    }
    return out;
  }

  /** karmada-scheduler (Steady mode) plus the execution controller: divide, then push replicas to members. */
  schedule(app: FederatedApp, now: number): void {
    const ns = app.namespace;
    const template = this.store.get(storage.deployments, ns, app.name);
    const binding = this.store.get(karmadaStorage.bindings, ns, `${app.name}-deployment`);
    if (!template || !binding) return;
    const replicas = Number(obj(template.spec).replicas ?? 0);
    const ready = this.readyMembers();
    const clusters = this.store
      .list(karmadaStorage.clusters)
      .filter((c) => this.targets(app).includes(c.metadata.name) && ready.has(c.metadata.name));
    const previous = ((obj(binding.spec).clusters as { name: string; replicas?: number }[] | undefined) ?? []).map((c) => ({
      name: c.name,
      replicas: c.replicas ?? 0,
    }));
    const at = kubeTimeAt(now);
    const result = assignReplicas({
      strategy: app.strategy,
      replicas,
      candidates: clusters.map((c) => ({
        name: c.metadata.name,
        ...(app.strategy === 'StaticWeight' ? { staticWeight: app.weights?.[c.metadata.name] ?? 1 } : {}),
        allocatableReplicas: estimateAvailableReplicas(c as unknown as KarmadaCluster, { cpu: '250m', memory: '256Mi' }),
      })),
      previousClusters: previous.filter((p) => ready.has(p.name)),
      uid: text(obj(obj(binding.spec).resource).uid, ''),
      divider: 'webster',
    });
    const scheduled = 'error' in result ? null : result.clusters;
    this.store.mutate(
      karmadaStorage.bindings,
      ns,
      binding.metadata.name,
      (b) => ({
        ...b,
        spec: {
          ...obj(b.spec),
          replicas,
          ...(scheduled
            ? { clusters: scheduled.map((c) => (c.replicas ? { name: c.name, replicas: c.replicas } : { name: c.name })) }
            : {}),
        },
        status: {
          ...obj(b.status),
          schedulerObservedGeneration: b.metadata.generation,
          lastScheduledTime: at,
          conditions: [
            scheduled
              ? {
                  type: 'Scheduled',
                  status: 'True',
                  reason: 'Success',
                  message: 'Binding has been scheduled successfully.',
                  lastTransitionTime: b.metadata.creationTimestamp,
                }
              : {
                  type: 'Scheduled',
                  status: 'False',
                  reason: 'NoClusterFit',
                  message: 'error' in result ? result.error : '',
                  lastTransitionTime: at,
                },
            {
              type: 'FullyApplied',
              status: 'True',
              reason: 'FullyAppliedSuccess',
              message: 'All works have been successfully applied',
              lastTransitionTime: b.metadata.creationTimestamp,
            },
          ],
        },
      }),
      { manager: 'karmada-scheduler' },
    );
    if (!scheduled) return;
    for (const [memberName, member] of this.members) {
      if (!ready.has(memberName)) continue;
      const want = scheduled.find((c) => c.name === memberName)?.replicas ?? 0;
      member.world.cluster.store.mutate(storage.deployments, ns, app.name, (d) => ({ ...d, spec: { ...obj(d.spec), replicas: want } }), {
        manager: 'karmada-execution-controller',
      });
    }
  }

  /** Binding status from the members (what karmada-controller-manager aggregates). */
  private aggregateStatus(app: FederatedApp): void {
    const ns = app.namespace;
    const binding = this.store.get(karmadaStorage.bindings, ns, `${app.name}-deployment`);
    if (!binding) return;
    const ready = this.readyMembers();
    const aggregated = ((obj(binding.spec).clusters as { name: string }[] | undefined) ?? []).map((c) => {
      const member = this.members.get(c.name);
      const d = member?.world.cluster.store.get(storage.deployments, ns, app.name);
      const s = obj(d?.status);
      return ready.has(c.name)
        ? {
            clusterName: c.name,
            status: {
              replicas: s.replicas ?? 0,
              readyReplicas: s.readyReplicas ?? 0,
              availableReplicas: s.availableReplicas ?? 0,
              updatedReplicas: s.updatedReplicas ?? 0,
              observedGeneration: s.observedGeneration ?? 1,
            },
            applied: true,
            health: 'Healthy',
          }
        : { clusterName: c.name, applied: false, appliedMessage: 'cluster is not reachable', health: 'Unknown' };
    });
    this.store.mutate(
      karmadaStorage.bindings,
      ns,
      binding.metadata.name,
      (b) => ({ ...b, status: { ...obj(b.status), aggregatedStatus: aggregated } }),
      { manager: 'karmada-controller-manager', subresource: 'status' },
    );
    const total = aggregated.reduce((n, a) => n + Number(obj(a.status).replicas ?? 0), 0);
    const readyTotal = aggregated.reduce((n, a) => n + Number(obj(a.status).readyReplicas ?? 0), 0);
    this.store.mutate(
      storage.deployments,
      ns,
      app.name,
      (d) => ({
        ...d,
        status: {
          observedGeneration: d.metadata.generation,
          replicas: total,
          readyReplicas: readyTotal,
          availableReplicas: readyTotal,
          updatedReplicas: total,
        },
      }),
      { manager: 'karmada-controller-manager', subresource: 'status' },
    );
  }

  /** The FederatedHPA controller: one HPA decision over the ready members' pods, written to the template. */
  syncFederatedHpas(now: number): void {
    for (const fhpa of this.store.list(karmadaStorage.fhpas) as HorizontalPodAutoscaler[]) {
      const ns = fhpa.metadata.namespace ?? '';
      const app = this.apps.get(`${ns}/${fhpa.spec.scaleTargetRef.name}`);
      const template = this.store.get(storage.deployments, ns, fhpa.spec.scaleTargetRef.name);
      const binding = this.store.get(karmadaStorage.bindings, ns, `${fhpa.spec.scaleTargetRef.name}-deployment`);
      if (!app || !template || !binding) continue;
      const ready = this.readyMembers();
      const targetClusters = ((obj(binding.spec).clusters as { name: string }[] | undefined) ?? [])
        .map((c) => c.name)
        .filter((c) => ready.has(c));
      const workloads = targetClusters
        .map((c) => this.members.get(c)?.world.workloads.get(`${ns}/${app.name}`))
        .filter((w): w is NonNullable<typeof w> => !!w);
      // Duplicated placement: Karmada divides by a calibration of N clusters; one member's pods stand for all.
      const counted = app.strategy === 'Duplicated' ? workloads.slice(0, 1) : workloads;
      const key = `${ns}/${fhpa.metadata.name}`;
      const specReplicas = Number(obj(template.spec).replicas ?? 0);
      const statusReplicas = workloads.reduce((n, w) => n + w.counts(now).replicas, 0);
      const result = runHpaSync({
        cluster: this.cluster.name,
        hpa: fhpa,
        scale: targetClusters.length
          ? { specReplicas, statusReplicas: app.strategy === 'Duplicated' ? specReplicas : statusReplicas, selector: `app=${app.name}` }
          : null,
        scaleTargetMissingMessage: 'failed to get replicas in any of clusters',
        pods: counted.flatMap((w) => w.podsJson(now)),
        metrics: { resource: counted.flatMap((w) => w.podMetrics(now)) },
        otherHpaSelectors: [],
        state: this.states.get(key) ?? null,
        speed: this.speed,
        now,
      });
      this.states.set(key, result.controllerState);
      if (result.rescale)
        this.store.mutate(
          storage.deployments,
          ns,
          app.name,
          (d) => ({ ...d, spec: { ...obj(d.spec), replicas: result.desiredReplicas } }),
          { manager: 'federatedHPA-controller', subresource: 'scale' },
        );
      // Karmada's setStatus rebuilds the status without observedGeneration.
      const { observedGeneration: _og, ...status } = result.status;
      let next = status;
      if (!this.firstSynced.has(key)) {
        this.firstSynced.add(key);
        if (!fhpa.status?.conditions?.length && fhpa.metadata.creationTimestamp)
          next = {
            ...next,
            conditions: (next.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: fhpa.metadata.creationTimestamp })),
          };
      }
      recordSync(
        this.cluster.name,
        'FederatedHPA',
        fhpa,
        { ...result, status: next },
        this.recorder,
        this.truth,
        now,
        () =>
          JSON.stringify(next) !== JSON.stringify(fhpa.status)
            ? this.store.mutate(karmadaStorage.fhpas, ns, fhpa.metadata.name, (h) => ({ ...h, status: next }), {
                manager: 'federatedHPA-controller',
                subresource: 'status',
              })
            : undefined,
        'federatedHPA-controller',
      );
    }
    for (const app of this.apps.values()) {
      this.schedule(app, now);
      this.aggregateStatus(app);
    }
  }

  /** A member cluster becomes unreachable (or recovers): its Cluster object's Ready condition follows. */
  setMemberReady(name: string, ready: boolean, now: number): void {
    const member = this.members.get(name);
    if (!member) return;
    if (ready) this.notReady.delete(name);
    else this.notReady.add(name);
    const fresh = this.clusterObject(name, member.world, member.spec, '', ready, now);
    const before = this.store.get(karmadaStorage.clusters, undefined, name);
    this.store.mutate(
      karmadaStorage.clusters,
      undefined,
      name,
      (c) => {
        const oldReady = ((obj(c.status).conditions as Condition[] | undefined) ?? []).find((x) => x.type === 'Ready');
        const conditions = ((obj(fresh.status).conditions as Condition[] | undefined) ?? []).map((x) =>
          x.type === 'Ready' && oldReady?.status === x.status
            ? oldReady
            : x.type === 'CompleteAPIEnablements'
              ? { ...x, lastTransitionTime: c.metadata.creationTimestamp }
              : x,
        );
        return { ...c, status: { ...obj(fresh.status), conditions } };
      },
      { manager: 'karmada-controller-manager', subresource: 'status' },
    );
    const after = this.store.get(karmadaStorage.clusters, undefined, name);
    this.truth.compare(
      { cluster: this.cluster.name, kind: 'Cluster', namespace: '', name, uid: after?.metadata.uid ?? '' },
      obj(before?.status).conditions as Condition[],
      obj(after?.status).conditions as Condition[],
      kubeTimeAt(now),
    );
  }

  /** Keeps each ready member's resource summary current with its pods. */
  refreshMembers(now: number): void {
    for (const [name, member] of this.members) {
      if (this.notReady.has(name)) continue;
      const fresh = this.clusterObject(name, member.world, member.spec, '', true, now);
      this.store.mutate(
        karmadaStorage.clusters,
        undefined,
        name,
        (c) => ({
          ...c,
          status: { ...obj(c.status), resourceSummary: obj(fresh.status).resourceSummary, nodeSummary: obj(fresh.status).nodeSummary },
        }),
        { manager: 'karmada-controller-manager', subresource: 'status' },
      );
    }
  }
}
