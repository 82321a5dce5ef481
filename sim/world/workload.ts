import { randomUUID } from 'node:crypto';
import type { HpaMetricsInput } from '@/lib/hpa/types';
import type { HpaBehavior, KubeObject, MetricSpec, Pod, PodMetrics } from '@/lib/k8s/types';
import { kubeTimeAt } from '../api/store';
import { hashString, loadFactor, seededRandom } from './load';
import type { AppSpec } from './scenario';

const cpuRequestMilli = 250;
const memoryRequestBytes = 256 * 1024 * 1024;
const sidecarCpuMilli = 100;

interface SimPod {
  name: string;
  uid: string;
  node: string;
  createdAt: number;
  /** Phase Running from here on. */
  startAt: number;
  /** Ready=True from here on. */
  readyAt: number;
  noise: number;
  /**
   * Its JSON as last built, and the phase it was built in (bit 0 running, bit 1 ready): nothing else in it changes,
   * and the HPA controller's pass reads every pod of every HPA it syncs (at 100,000 HPAs, building each afresh was a
   * tenth of the simulator's CPU with its garbage). Readers share it and never change it.
   */
  json?: Pod;
  jsonPhase?: number;
}

export interface WorkloadTiming {
  /** Story seconds per wall second. */
  speed: number;
  cycleMinutes: number;
  /** Wall-clock ms of story minute 0. */
  startedAt: number;
}

/** The metric spec each profile gives an HPA. */
export function metricsFor(app: Pick<AppSpec, 'metrics' | 'name'>): MetricSpec[] {
  const cpu: MetricSpec = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } };
  const memory: MetricSpec = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '200Mi' } } };
  const rps: MetricSpec = {
    type: 'Pods',
    pods: { metric: { name: 'http_requests_per_second' }, target: { type: 'AverageValue', averageValue: '100' } },
  };
  const queue: MetricSpec = {
    type: 'External',
    external: {
      metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: app.name } } },
      target: { type: 'AverageValue', averageValue: '30' },
    },
  };
  switch (app.metrics) {
    case 'cpu':
      return [cpu];
    case 'cpu-sidecar':
      return [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }];
    case 'memory':
      return [memory];
    case 'container-cpu':
      return [
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 65 } },
        },
      ];
    case 'rps':
      return [rps];
    case 'ingress':
      return [
        {
          type: 'Object',
          object: {
            describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: app.name },
            metric: { name: 'requests_per_second' },
            target: { type: 'AverageValue', averageValue: '100' },
          },
        },
      ];
    case 'queue':
      return [queue];
    case 'cpu-rps':
      return [cpu, rps];
    case 'cpu-queue':
      return [cpu, queue];
    case 'cpu-memory':
      return [cpu, memory];
  }
}

/** `spec.behavior` as the API server stores it after defaulting (defaults.go fills both directions once behavior is set). */
export function behaviorFor(profile: AppSpec['behavior']): HpaBehavior | undefined {
  const upDefault = {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
  const downDefault = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
  switch (profile) {
    case 'none':
      return undefined;
    case 'defaults':
      return { scaleUp: upDefault, scaleDown: downDefault };
    case 'fast-up-slow-down':
      return {
        scaleUp: { ...upDefault, policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 600, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
      };
    case 'no-scale-down':
      return { scaleUp: upDefault, scaleDown: { ...downDefault, selectPolicy: 'Disabled' } };
    case 'conservative':
      return {
        scaleUp: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
        scaleDown: {
          stabilizationWindowSeconds: 300,
          selectPolicy: 'Min',
          policies: [
            { type: 'Percent', value: 10, periodSeconds: 60 },
            { type: 'Pods', value: 1, periodSeconds: 60 },
          ],
        },
      };
  }
}

/**
 * A Deployment's pods and the load on them. Pods are not stored objects: they are computed on read
 * (the API's pods and pod metrics, the HPA loop's input) from this model, which keeps a fleet of
 * 100,000 workloads cheap.
 */
export class Workload {
  readonly labels: Record<string, string>;
  /** The labels as the scale subresource's selector string. */
  readonly selector: string;
  readonly templateHash: string;
  private pods: SimPod[] = [];
  private readonly random: () => number;
  private readonly phase: number;
  private podCounter = 0;
  /** Extra factor on demand (load-surge episodes). */
  surge = 1;

  constructor(
    readonly cluster: string,
    readonly app: Pick<AppSpec, 'namespace' | 'name' | 'metrics' | 'load' | 'demand' | 'noRequests'>,
    private readonly timing: WorkloadTiming,
    initialReplicas: number,
    now: number,
  ) {
    this.labels = { app: app.name };
    this.selector = `app=${app.name}`;
    const seed = hashString(`${cluster}/${app.namespace}/${app.name}`);
    this.templateHash = seed.toString(36).slice(0, 10).padEnd(10, 'x');
    this.random = seededRandom(seed);
    this.phase = (seed % 1000) / 1000;
    const started = now - 60 * 60 * 1000 * (1 + this.random() * 20);
    for (let i = 0; i < initialReplicas; i++) this.addPod(started, true);
  }

  get namespace(): string {
    return this.app.namespace;
  }

  get name(): string {
    return this.app.name;
  }

  /** Story seconds → wall ms. */
  private storyMs(seconds: number): number {
    return (seconds * 1000) / this.timing.speed;
  }

  private addPod(now: number, settled: boolean): void {
    const suffix = (hashString(`${this.name}-${this.podCounter++}`) % 60466176).toString(36).padStart(5, '0');
    const createdAt = now;
    const startAt = settled ? now : now + this.storyMs(3 + this.random() * 3);
    const readyAt = settled ? now : startAt + this.storyMs(8 + this.random() * 10);
    this.pods.push({
      name: `${this.name}-${this.templateHash}-${suffix}`,
      uid: randomUUID(),
      node: `ip-10-0-${hashString(suffix) % 64}-${hashString(`${suffix}x`) % 250}.ec2.internal`,
      createdAt,
      startAt,
      readyAt,
      noise: 0.92 + this.random() * 0.16,
    });
  }

  /** The ReplicaSet controller: create or remove pods to match `replicas` (newest removed first). */
  reconcile(replicas: number, now: number): void {
    while (this.pods.length < replicas) this.addPod(now, false);
    if (this.pods.length > replicas) this.pods.splice(replicas);
  }

  counts(now: number): { replicas: number; ready: number } {
    let ready = 0;
    for (const p of this.pods) if (p.readyAt <= now) ready++;
    return { replicas: this.pods.length, ready };
  }

  /** Replicas' worth of work at 100% of request, right now. */
  work(now: number): number {
    const minute = ((now - this.timing.startedAt) / 60_000) * this.timing.speed;
    return this.app.demand * loadFactor(this.app.load, minute, this.timing.cycleMinutes, this.phase) * this.surge;
  }

  podsJson(now: number): Pod[] {
    return this.pods.map((p) => this.podJson(p, now));
  }

  private podJson(p: SimPod, now: number): Pod {
    const running = p.startAt <= now;
    const ready = p.readyAt <= now;
    const phase = (running ? 1 : 0) | (ready ? 2 : 0);
    if (p.json && p.jsonPhase === phase) return p.json;
    p.json = this.buildPodJson(p, running, ready);
    p.jsonPhase = phase;
    return p.json;
  }

  private buildPodJson(p: SimPod, running: boolean, ready: boolean): Pod {
    const requests = this.app.noRequests ? undefined : { cpu: `${cpuRequestMilli}m`, memory: '256Mi' };
    const sidecar = this.app.metrics === 'cpu-sidecar' || this.app.metrics === 'container-cpu';
    const readyCondition = {
      type: 'Ready',
      status: ready ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: kubeTimeAt(ready ? p.readyAt : p.createdAt),
    };
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: p.name,
        generateName: `${this.name}-${this.templateHash}-`,
        namespace: this.namespace,
        uid: p.uid,
        resourceVersion: String(1000 + (hashString(p.uid) % 100000)),
        creationTimestamp: kubeTimeAt(p.createdAt),
        labels: { ...this.labels, 'pod-template-hash': this.templateHash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: `${this.name}-${this.templateHash}`,
            uid: `rs-${this.templateHash}`,
            controller: true,
          },
        ],
      },
      spec: {
        containers: [
          {
            name: 'app',
            image: `registry.example.com/${this.namespace}/${this.name}:1.8.3`,
            resources: requests ? { requests, limits: { memory: '512Mi' } } : {},
          },
        ],
        ...(sidecar
          ? {
              initContainers: [
                {
                  name: 'istio-proxy',
                  image: 'registry.example.com/istio/proxyv2:1.24.2',
                  restartPolicy: 'Always',
                  resources: { requests: { cpu: `${sidecarCpuMilli}m`, memory: '128Mi' } },
                },
              ],
            }
          : {}),
        nodeName: p.node,
        restartPolicy: 'Always',
      },
      status: {
        phase: running ? 'Running' : 'Pending',
        ...(running ? { startTime: kubeTimeAt(p.startAt) } : {}),
        conditions: [
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: kubeTimeAt(p.createdAt) },
          {
            type: 'Initialized',
            status: running ? 'True' : 'False',
            lastProbeTime: null,
            lastTransitionTime: kubeTimeAt(p.startAt),
          },
          {
            type: 'ContainersReady',
            status: ready ? 'True' : 'False',
            lastProbeTime: null,
            lastTransitionTime: readyCondition.lastTransitionTime,
          },
          readyCondition,
        ],
        containerStatuses: [
          { name: 'app', ready, started: running, restartCount: 0, image: `registry.example.com/${this.namespace}/${this.name}:1.8.3` },
        ],
      },
    };
  }

  /** metrics.k8s.io PodMetrics for the running pods: the work is spread over the ready ones. */
  podMetrics(now: number): PodMetrics[] {
    const { ready } = this.counts(now);
    const work = this.work(now);
    const windowSeconds = Math.max(1, Math.round(30 / this.timing.speed));
    return this.pods
      .filter((p) => p.startAt <= now)
      .map((p) => {
        const isReady = p.readyAt <= now;
        // Starting pods burn CPU warming up; the HPA's CPU initialization rules exist for exactly this.
        const share = isReady ? (work / Math.max(ready, 1)) * p.noise : 0.8;
        const cpu = Math.max(1, Math.round(share * cpuRequestMilli));
        const memory = Math.round(memoryRequestBytes * (0.45 + 0.35 * Math.min(share, 1.5)) * p.noise);
        const containers = [{ name: 'app', usage: { cpu: `${cpu}m`, memory: `${Math.round(memory / 1024)}Ki` } }];
        if (this.app.metrics === 'cpu-sidecar' || this.app.metrics === 'container-cpu') {
          containers.push({ name: 'istio-proxy', usage: { cpu: `${Math.round(sidecarCpuMilli * 0.3 * p.noise)}m`, memory: '61440Ki' } });
        }
        return {
          apiVersion: 'metrics.k8s.io/v1beta1',
          kind: 'PodMetrics',
          metadata: {
            name: p.name,
            namespace: this.namespace,
            labels: { ...this.labels, 'pod-template-hash': this.templateHash },
            creationTimestamp: kubeTimeAt(now),
          },
          timestamp: kubeTimeAt(now - (windowSeconds * 1000) / 2),
          window: `${windowSeconds}s`,
          containers,
        };
      });
  }

  /** The custom/external metric values this workload's profile exposes. */
  customMetrics(now: number): Pick<HpaMetricsInput, 'pods' | 'object' | 'external'> {
    const { ready } = this.counts(now);
    const work = this.work(now);
    const out: Pick<HpaMetricsInput, 'pods' | 'object' | 'external'> = {};
    const profile = this.app.metrics;
    if (profile === 'rps' || profile === 'cpu-rps') {
      out.pods = {
        http_requests_per_second: this.pods
          .filter((p) => p.readyAt <= now)
          .map((p) => ({
            pod: p.name,
            value: `${Math.round(((work * 100) / Math.max(ready, 1)) * p.noise * 1000)}m`,
            timestamp: kubeTimeAt(now),
            window: 60,
          })),
      };
    }
    if (profile === 'ingress') out.object = { requests_per_second: `${Math.round(work * 100 * 1000)}m` };
    if (profile === 'queue' || profile === 'cpu-queue') out.external = { queue_messages_ready: [String(Math.round(work * 30))] };
    return out;
  }
}

export function deploymentObject(
  w: Pick<Workload, 'name' | 'namespace' | 'labels'>,
  replicas: number,
  app: Pick<AppSpec, 'noRequests'>,
  createdAt: string,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: w.name,
      namespace: w.namespace,
      labels: { ...w.labels },
      annotations: { 'deployment.kubernetes.io/revision': '3' },
      creationTimestamp: createdAt,
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...w.labels } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { ...w.labels } },
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example.com/${w.namespace}/${w.name}:1.8.3`,
              resources: app.noRequests ? {} : { requests: { cpu: `${cpuRequestMilli}m`, memory: '256Mi' }, limits: { memory: '512Mi' } },
            },
          ],
        },
      },
    },
    status: { observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas },
  };
}
