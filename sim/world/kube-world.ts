import type { HpaControllerState, OtherHpaSelector } from '@/lib/hpa/types';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import type { MetricValue, VirtualSource } from '../api/api-server';
import type { ResourceType } from '../api/catalog';
import { catalog } from '../api/catalog';
import { statusErrors } from '../api/status';
import { kubeTimeAt } from '../api/store';
import type { SimCluster } from '../fleet/sim-cluster';
import { EventRecorder } from './event-recorder';
import type { GroundTruth } from './ground-truth';
import { recordSync, runHpaSync } from './hpa-controller';
import type { AppSpec, ClusterSpec } from './scenario';
import type { WorkloadTiming } from './workload';
import { behaviorFor, deploymentObject, metricsFor, Workload } from './workload';

export const storage = {
  namespaces: catalog.namespaces.storage,
  deployments: catalog.deployments.storage,
  hpas: catalog.hpas.storage,
  crds: catalog.crds.storage,
};

/** What the resource metrics client returns when metrics-server is down; the controller prefixes it with its own context. */
export const metricsUnavailableMessage = 'the server is currently unable to handle the request (get pods.metrics.k8s.io)';
/** What the external metrics API answers while its adapter (KEDA's metrics server, say) is down. */
export const externalMetricsUnavailableMessage = 'the server is currently unable to handle the request';

const key = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

export function ensureNamespace(cluster: SimCluster, name: string, createdAt: string): void {
  if (cluster.store.get(storage.namespaces, undefined, name)) return;
  cluster.store.create(
    storage.namespaces,
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name }, creationTimestamp: createdAt },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    },
    'kube-apiserver',
  );
}

/**
 * A plain Kubernetes cluster (or a Karmada member): Deployments whose pods follow a load curve, the
 * HPA controller running `lib/hpa` every sync period, the ReplicaSet controller, events, and the
 * metrics APIs (which an episode can take down).
 */
export class KubeWorld {
  readonly workloads = new Map<string, Workload>();
  readonly recorder: EventRecorder;
  private readonly hpaStates = new Map<string, HpaControllerState>();
  private readonly firstSynced = new Set<string>();
  metricsOutage = false;
  /** The external.metrics.k8s.io adapter is down (an episode). */
  externalMetricsOutage = false;

  constructor(
    readonly cluster: SimCluster,
    readonly spec: ClusterSpec,
    private readonly timing: WorkloadTiming,
    private readonly truth: GroundTruth,
  ) {
    this.recorder = new EventRecorder(cluster.store, 'horizontal-pod-autoscaler');
  }

  get name(): string {
    return this.cluster.name;
  }

  /** Creates namespaces, Deployments and HPAs of the scenario, backdated as if they had run for a while. */
  seed(now: number): void {
    const created = (hoursAgo: number): string => kubeTimeAt(now - hoursAgo * 3600_000);
    for (const ns of ['default', 'kube-system', 'kube-public', ...this.spec.namespaces, ...this.spec.apps.map((a) => a.namespace)])
      ensureNamespace(this.cluster, ns, created(24 * 40));
    this.spec.apps.forEach((app, i) => this.addApp(app, now, created(2 + (i % 9) * 5)));
  }

  addApp(app: AppSpec, now: number, createdAt: string, options: { hpa?: boolean } = {}): Workload {
    const workload = new Workload(this.name, app, this.timing, app.replicas, now);
    if (!app.missingTarget) {
      this.workloads.set(key(app.namespace, app.name), workload);
      this.cluster.store.create(storage.deployments, deploymentObject(workload, app.replicas, app, createdAt), 'kube-controller-manager');
    }
    if (options.hpa !== false && !app.noHpa) {
      this.cluster.store.create(storage.hpas, this.hpaObject(app, app.name, createdAt), 'kubectl-client-side-apply');
      if (app.ambiguous)
        this.cluster.store.create(storage.hpas, this.hpaObject(app, `${app.name}-legacy`, createdAt), 'kubectl-client-side-apply');
    }
    return workload;
  }

  private hpaObject(app: AppSpec, name: string, createdAt: string): KubeObject {
    const behavior = behaviorFor(app.behavior);
    return {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: {
        name,
        namespace: app.namespace,
        labels: { app: app.name, 'app.kubernetes.io/managed-by': 'argocd' },
        annotations: { 'argocd.argoproj.io/tracking-id': `${app.namespace}:autoscaling/HorizontalPodAutoscaler:${app.namespace}/${name}` },
        creationTimestamp: createdAt,
      },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app.name },
        minReplicas: app.min,
        maxReplicas: app.max,
        metrics: metricsFor(app),
        ...(behavior ? { behavior } : {}),
      },
      status: { currentReplicas: app.replicas, desiredReplicas: app.replicas },
    };
  }

  /** The ReplicaSet controller and the Deployment status, every tick. */
  tick(now: number): void {
    for (const w of this.workloads.values()) {
      const { namespace, name } = w.app;
      const deployment = this.cluster.store.get(storage.deployments, namespace, name);
      if (!deployment) continue;
      const replicas = Number((deployment.spec as { replicas?: number }).replicas ?? 0);
      w.reconcile(replicas, now);
      const { replicas: current, ready } = w.counts(now);
      const status = deployment.status as Record<string, unknown> | undefined;
      if (status?.replicas !== current || status.readyReplicas !== ready || status.updatedReplicas !== current) {
        this.cluster.store.mutate(
          storage.deployments,
          namespace,
          name,
          (d) => ({
            ...d,
            status: {
              observedGeneration: d.metadata.generation,
              replicas: current,
              updatedReplicas: current,
              readyReplicas: ready,
              availableReplicas: ready,
              ...(current - ready > 0 ? { unavailableReplicas: current - ready } : {}),
              conditions: [
                {
                  type: 'Available',
                  status: ready >= Math.max(1, Math.floor(replicas * 0.75)) ? 'True' : 'False',
                  reason: ready >= Math.max(1, Math.floor(replicas * 0.75)) ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
                  message: 'Deployment has minimum availability.',
                  lastUpdateTime: d.metadata.creationTimestamp,
                  lastTransitionTime: d.metadata.creationTimestamp,
                },
                {
                  type: 'Progressing',
                  status: 'True',
                  reason: 'NewReplicaSetAvailable',
                  message: `ReplicaSet "${name}-${w.templateHash}" has successfully progressed.`,
                  lastUpdateTime: d.metadata.creationTimestamp,
                  lastTransitionTime: d.metadata.creationTimestamp,
                },
              ],
            },
          }),
          { manager: 'kube-controller-manager', subresource: 'status' },
        );
      }
    }
  }

  /** One HPA controller pass over every HPA of the cluster. */
  syncHpas(now: number): void {
    const { hpas, selectors } = this.hpaWork();
    for (const hpa of hpas) this.syncHpa(hpa, now, selectors.get(hpa.metadata.namespace ?? '') ?? []);
  }

  /**
   * The same pass, yielding to the event loop every `chunk` HPAs, so that a fleet of thousands of HPAs
   * keeps answering API requests while its controller works (each HPA is synced at its own current time).
   */
  async syncHpasInChunks(chunk: number, stopped: () => boolean): Promise<void> {
    const { hpas, selectors } = this.hpaWork();
    for (let i = 0; i < hpas.length && !stopped(); i += chunk) {
      const now = Date.now();
      for (const hpa of hpas.slice(i, i + chunk)) {
        // The object may have changed (or gone) since the pass started.
        const current = this.cluster.store.get(storage.hpas, hpa.metadata.namespace, hpa.metadata.name) as
          HorizontalPodAutoscaler | undefined;
        if (current) this.syncHpa(current, now, selectors.get(current.metadata.namespace ?? '') ?? []);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private hpaWork(): { hpas: HorizontalPodAutoscaler[]; selectors: Map<string, OtherHpaSelector[]> } {
    const hpas = this.cluster.store.list(storage.hpas) as HorizontalPodAutoscaler[];
    const selectors = new Map<string, OtherHpaSelector[]>();
    for (const h of hpas) {
      const w = this.workloads.get(key(h.metadata.namespace, h.spec.scaleTargetRef.name));
      if (!w) continue;
      const list = selectors.get(h.metadata.namespace ?? '') ?? [];
      list.push({ name: h.metadata.name, selector: w.selector });
      selectors.set(h.metadata.namespace ?? '', list);
    }
    return { hpas, selectors };
  }

  private syncHpa(hpa: HorizontalPodAutoscaler, now: number, namespaceSelectors: OtherHpaSelector[]): void {
    const ns = hpa.metadata.namespace ?? '';
    const ref = hpa.spec.scaleTargetRef;
    const w = this.workloads.get(key(ns, ref.name));
    const deployment = w ? this.cluster.store.get(storage.deployments, ns, ref.name) : undefined;
    const hpaKey = key(ns, hpa.metadata.name);
    const served = w ? w.customMetrics(now) : {};
    const custom = this.externalMetricsOutage ? { ...served, external: undefined } : served;
    const errors = {
      ...(this.metricsOutage ? { resource: metricsUnavailableMessage } : {}),
      ...(this.externalMetricsOutage ? { external: externalMetricsUnavailableMessage } : {}),
    };
    const result = runHpaSync({
      cluster: this.name,
      hpa,
      scale:
        w && deployment
          ? {
              specReplicas: Number((deployment.spec as { replicas?: number }).replicas ?? 0),
              statusReplicas: Number((deployment.status as { replicas?: number } | undefined)?.replicas ?? 0),
              selector: w.selector,
            }
          : null,
      scaleTargetMissingMessage: `deployments.apps "${ref.name}" not found`,
      pods: w ? w.podsJson(now) : [],
      metrics: {
        resource: this.metricsOutage || !w ? undefined : w.podMetrics(now),
        ...custom,
        ...(Object.keys(errors).length ? { errors } : {}),
      },
      // Workload labels are disjoint in the simulator (app=<name>), so only HPAs on the same workload can
      // select the same pods; passing just those keeps a namespace of 250 HPAs from being quadratic.
      otherHpaSelectors: w ? namespaceSelectors.filter((s) => s.name !== hpa.metadata.name && s.selector === w.selector) : [],
      state: this.hpaStates.get(hpaKey) ?? null,
      speed: this.timing.speed,
      now,
    });
    this.hpaStates.set(hpaKey, result.controllerState);
    if (result.rescale && w) {
      this.cluster.store.mutate(
        storage.deployments,
        ns,
        ref.name,
        (d) => ({ ...d, spec: { ...(d.spec as object), replicas: result.desiredReplicas } }),
        { manager: 'kube-controller-manager', subresource: 'scale' },
      );
    }
    let status = result.status;
    if (!this.firstSynced.has(hpaKey)) {
      // The story so far: conditions have held since the HPA was created, not since the simulator started.
      this.firstSynced.add(hpaKey);
      const since = hpa.metadata.creationTimestamp;
      if (since && !hpa.status?.conditions?.length)
        status = { ...status, conditions: (status.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: since })) };
    }
    recordSync(this.name, 'HorizontalPodAutoscaler', hpa, { ...result, status }, this.recorder, this.truth, now, () =>
      JSON.stringify(status) !== JSON.stringify(hpa.status)
        ? this.cluster.store.update(storage.hpas, { ...hpa, status }, { manager: 'kube-controller-manager', subresource: 'status' })
        : undefined,
    );
  }

  /** Pods, pod metrics and the custom/external metrics APIs, computed from the workloads on read. */
  virtual(): VirtualSource {
    const wallNow = (): number => Date.now();
    const inNamespace = (namespace: string | undefined): Workload[] =>
      [...this.workloads.values()].filter((w) => namespace === undefined || w.namespace === namespace);
    return {
      list: (resource: ResourceType, namespace: string | undefined): KubeObject[] => {
        const now = wallNow();
        if (resource.storage === catalog.pods.storage) return inNamespace(namespace).flatMap((w) => w.podsJson(now));
        if (resource.storage === catalog.podMetrics.storage) {
          if (this.metricsOutage)
            throw statusErrors.unavailable('the server is currently unable to handle the request (get pods.metrics.k8s.io)');
          return inNamespace(namespace).flatMap((w) => w.podMetrics(now) as unknown as KubeObject[]);
        }
        return [];
      },
      podsMetric: (namespace, metric, selector): MetricValue[] => {
        const now = wallNow();
        const app = /app=([\w.-]+)/.exec(selector)?.[1];
        return inNamespace(namespace)
          .filter((w) => !app || w.name === app)
          .flatMap((w) =>
            (w.customMetrics(now).pods?.[metric] ?? []).map((s) => ({
              describedObject: { kind: 'Pod', namespace, name: s.pod, apiVersion: '/v1' },
              metricName: metric,
              timestamp: kubeTimeAt(now),
              windowSeconds: 60,
              value: String(s.value),
            })),
          );
      },
      objectMetric: (namespace, resource, name, metric): MetricValue[] | Error => {
        const now = wallNow();
        const w = this.workloads.get(key(namespace, name));
        const value = w?.customMetrics(now).object?.[metric];
        if (value === undefined)
          return new Error(
            `unable to fetch metrics from custom metrics API: the server could not find the metric ${metric} for ${resource} ${name}`,
          );
        return [
          {
            describedObject: { kind: 'Ingress', namespace, name, apiVersion: 'networking.k8s.io/v1' },
            metricName: metric,
            timestamp: kubeTimeAt(now),
            value: String(value),
          },
        ];
      },
      externalMetric: (namespace, metric, selector) => {
        const now = wallNow();
        if (this.externalMetricsOutage) return new Error(`${externalMetricsUnavailableMessage} (get ${metric}.external.metrics.k8s.io)`);
        const queue = /queue=([\w.-]+)/.exec(selector)?.[1];
        return inNamespace(namespace)
          .filter((w) => !queue || w.name === queue)
          .flatMap((w) =>
            (w.customMetrics(now).external?.[metric] ?? []).map((value) => ({
              metricName: metric,
              metricLabels: { queue: w.name },
              timestamp: kubeTimeAt(now),
              value: String(value),
            })),
          );
      },
    };
  }
}
