import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '@/lib/k8s/types';
import type { VirtualSource } from '../api/api-server';
import { kubeTimeAt } from '../api/store';
import { Fleet } from '../fleet/fleet';
import { crdObjects } from './crds';
import { GroundTruth } from './ground-truth';
import { KarmadaWorld } from './karmada-world';
import { KubeWorld, storage } from './kube-world';
import { MachineWorld, machineStorage } from './machine-world';
import type { ClusterSpec, EpisodeSpec, Scenario } from './scenario';
import type { WorkloadTiming } from './workload';

export interface WorldOptions {
  scenario: Scenario;
  dataDir: string;
  /** Overrides the scenario's speed (story seconds per wall second). */
  speed?: number;
  host?: string;
  adminPort?: number;
  retainedEvents?: number;
  /** Logs one line per episode change. */
  log?: (line: string) => void;
}

interface EpisodeState {
  spec: EpisodeSpec;
  active: boolean;
  /** Set through the admin endpoint: forces the episode on or off regardless of the schedule. */
  forced: boolean | null;
  stage: number;
  saved: KubeObject[];
}

/**
 * A living fleet: the scenario's clusters on the simulated API, driven by the `lib/` engines on a
 * compressed clock, with episodes on a schedule that repeats every cycle.
 */
export class World {
  readonly fleet: Fleet;
  readonly timing: WorkloadTiming;
  readonly truth: GroundTruth;
  readonly kube = new Map<string, KubeWorld>();
  readonly machine = new Map<string, MachineWorld>();
  readonly karmada = new Map<string, KarmadaWorld>();
  readonly episodes: EpisodeState[];
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Read through a call: a pass awaits, and `stop()` may run meanwhile (TypeScript would keep the narrowing). */
  private isStopped(): boolean {
    return this.stopped;
  }
  /** Wall ms the last full HPA pass took (the benchmark reads it). */
  lastSyncMs = 0;

  private constructor(readonly options: WorldOptions) {
    const { scenario } = options;
    const speed = options.speed ?? scenario.speed;
    this.timing = { speed, cycleMinutes: scenario.cycleMinutes, startedAt: Date.now() };
    this.truth = new GroundTruth(options.dataDir);
    this.episodes = scenario.episodes.map((spec) => ({ spec, active: false, forced: null, stage: 0, saved: [] }));
    const memberOf = new Set(scenario.clusters.flatMap((c) => c.members));
    this.fleet = new Fleet({
      clusters: scenario.clusters.map((c) => ({
        name: c.name,
        profile: c.profile,
        kubernetesVersion: c.kubernetesVersion,
        members: c.members,
        inKubeconfig: !memberOf.has(c.name),
      })),
      dataDir: options.dataDir,
      host: options.host,
      adminPort: options.adminPort,
      retainedEvents: options.retainedEvents,
      virtualFor: (name) => this.lazyVirtual(name),
    });
    this.fleet.adminRoutes.push((req, res, url, body) => this.admin(req, res, url, body));
  }

  static async start(options: WorldOptions): Promise<World> {
    const world = new World(options);
    await world.fleet.start();
    world.seed();
    world.loop();
    return world;
  }

  get speed(): number {
    return this.timing.speed;
  }

  /** Minutes of story since the start. */
  storyMinute(now = Date.now()): number {
    return ((now - this.timing.startedAt) / 60_000) * this.timing.speed;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.forEach(clearTimeout);
    this.truth.flush();
    await this.fleet.stop();
  }

  private lazyVirtual(cluster: string): VirtualSource {
    const target = (): VirtualSource | undefined => this.kube.get(cluster)?.virtual();
    return {
      list: (resource, namespace) => target()?.list(resource, namespace) ?? [],
      podsMetric: (ns, metric, selector) => target()?.podsMetric?.(ns, metric, selector) ?? [],
      objectMetric: (ns, resource, name, metric) => target()?.objectMetric?.(ns, resource, name, metric) ?? new Error('no such cluster'),
      externalMetric: (ns, metric, selector) => target()?.externalMetric?.(ns, metric, selector) ?? [],
    };
  }

  private seed(): void {
    const now = Date.now();
    const { scenario } = this.options;
    const crdCreated = kubeTimeAt(now - 120 * 24 * 3600_000);
    for (const spec of scenario.clusters) {
      const cluster = this.fleet.cluster(spec.name);
      for (const crd of crdObjects(cluster.api.resources, {
        machineAutoscalerConditions: spec.operatorSupportsClusterAPITargets,
        createdAt: crdCreated,
      }))
        cluster.store.create(storage.crds, crd, 'cluster-version-operator');
      if (spec.profile !== 'karmada') {
        const kube = new KubeWorld(cluster, spec, this.timing, this.truth);
        kube.seed(now);
        this.kube.set(spec.name, kube);
      }
      if (spec.profile === 'openshift') {
        const machine = new MachineWorld(cluster, spec, this.timing.speed);
        machine.seed(now);
        machine.syncMirrors();
        this.machine.set(spec.name, machine);
      }
    }
    for (const spec of scenario.clusters.filter((c) => c.profile === 'karmada')) {
      const members = new Map<string, { world: KubeWorld; spec: ClusterSpec }>();
      for (const m of spec.members) {
        const world = this.kube.get(m);
        const memberSpec = scenario.clusters.find((c) => c.name === m);
        if (world && memberSpec) members.set(m, { world, spec: memberSpec });
      }
      const karmada = new KarmadaWorld(this.fleet.cluster(spec.name), spec, members, this.timing.speed, this.truth);
      karmada.seed(now);
      this.karmada.set(spec.name, karmada);
    }
    for (const k of this.kube.values()) k.tick(now);
    this.syncControllers(now);
  }

  private every(ms: number, fn: (now: number) => void): void {
    const run = (): void => {
      if (this.stopped) return;
      const started = Date.now();
      try {
        fn(started);
      } catch (err) {
        console.error(`[sim] loop error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      const spent = Date.now() - started;
      this.timers.push(setTimeout(run, Math.max(10, ms - spent)));
      if (this.timers.length > 64) this.timers.splice(0, this.timers.length - 16);
    };
    this.timers.push(setTimeout(run, ms));
  }

  private loop(): void {
    const syncMs = Math.max(200, 15_000 / this.timing.speed);
    this.every(Math.max(100, Math.min(1000, 2000 / this.timing.speed)), (now) => {
      this.runEpisodes(now);
      for (const k of this.kube.values()) k.tick(now);
    });
    const syncPass = async (): Promise<void> => {
      if (this.stopped) return;
      const started = Date.now();
      try {
        for (const k of this.kube.values()) await k.syncHpasInChunks(200, () => this.stopped);
        for (const k of this.karmada.values()) k.syncFederatedHpas(Date.now());
      } catch (err) {
        console.error(`[sim] controller pass failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      this.lastSyncMs = Date.now() - started;
      if (!this.isStopped()) this.timers.push(setTimeout(() => void syncPass(), Math.max(10, syncMs - this.lastSyncMs)));
    };
    this.timers.push(setTimeout(() => void syncPass(), syncMs));
    this.every(Math.max(500, 10_000 / this.timing.speed), (now) => {
      const load = 0.5 + 0.4 * Math.sin((2 * Math.PI * this.storyMinute(now)) / this.timing.cycleMinutes);
      for (const m of this.machine.values()) {
        m.reconcileOperator(now);
        m.syncMirrors();
        m.autoscaleNodes(load);
      }
      for (const k of this.karmada.values()) k.refreshMembers(now);
    });
    this.every(60_000, (now) => {
      for (const k of this.kube.values()) k.recorder.expire(now);
      for (const m of this.machine.values()) m.recorder.expire(now);
      for (const k of this.karmada.values()) k.recorder.expire(now);
    });
  }

  private syncControllers(now: number): void {
    const started = Date.now();
    for (const k of this.kube.values()) k.syncHpas(now);
    for (const k of this.karmada.values()) k.syncFederatedHpas(now);
    this.lastSyncMs = Date.now() - started;
  }

  private runEpisodes(now: number): void {
    const minute = this.storyMinute(now);
    const cycle = Math.floor(minute / this.options.scenario.cycleMinutes);
    const inCycle = minute - cycle * this.options.scenario.cycleMinutes;
    for (const e of this.episodes) {
      const { spec } = e;
      const scheduled =
        (spec.repeat || cycle === 0) && inCycle >= spec.atMinute && inCycle < spec.atMinute + (spec.forMinutes ?? Number.POSITIVE_INFINITY);
      const want = e.forced ?? scheduled;
      if (want !== e.active) {
        e.active = want;
        e.stage = 0;
        this.options.log?.(`[sim] episode ${spec.name} ${want ? 'starts' : 'ends'} (story minute ${minute.toFixed(1)})`);
        this.applyEpisode(e, want, now);
      }
      // A migration moves on to the new authority a story minute after Migrating.
      if (e.active && spec.kind === 'migrateMachineSet' && e.stage === 0 && (e.forced !== null || inCycle >= spec.atMinute + 1)) {
        e.stage = 1;
        this.machine.get(spec.cluster)?.setAuthority(spec.target ?? '', 'ClusterAPI', now);
      }
    }
  }

  private applyEpisode(e: EpisodeState, on: boolean, now: number): void {
    const { spec } = e;
    switch (spec.kind) {
      case 'metricsOutage': {
        const k = this.kube.get(spec.cluster);
        if (k) k.metricsOutage = on;
        break;
      }
      case 'externalMetricsOutage': {
        const k = this.kube.get(spec.cluster);
        if (k) k.externalMetricsOutage = on;
        break;
      }
      case 'memberNotReady': {
        const member = spec.target ?? '';
        this.karmada.get(spec.cluster)?.setMemberReady(member, !on, now);
        void this.fleet.setFaults(member, { down: on });
        break;
      }
      case 'migrateMachineSet':
        this.machine.get(spec.cluster)?.setAuthority(spec.target ?? '', on ? 'Migrating' : 'MachineAPI', now);
        break;
      case 'deleteMachineSet': {
        const m = this.machine.get(spec.cluster);
        if (!m) break;
        if (on) e.saved = m.deleteMachineSet(spec.target ?? '');
        else m.restore(e.saved);
        break;
      }
      case 'duplicateMachineAutoscaler': {
        const m = this.machine.get(spec.cluster);
        const original = m?.cluster.store.get(machineStorage.ma, 'openshift-machine-api', spec.target ?? '');
        if (!m || !original) break;
        const name = `${original.metadata.name}-2`;
        if (on) {
          const ref = (original.spec as { scaleTargetRef: { name: string; apiVersion: string; kind: string } }).scaleTargetRef;
          m.createMachineAutoscaler(
            {
              name,
              namespace: 'openshift-machine-api',
              target: ref.name,
              apiVersion: ref.apiVersion,
              kind: ref.kind,
              min: 1,
              max: 4,
              createdAtMinute: 0,
              reconciled: true,
            },
            kubeTimeAt(now),
            now,
          );
        } else {
          m.cluster.store.delete(machineStorage.ma, 'openshift-machine-api', name);
        }
        break;
      }
      case 'loadSurge': {
        const [ns = '', name = ''] = (spec.target ?? '').split('/');
        const w = this.kube.get(spec.cluster)?.workloads.get(`${ns}/${name}`);
        if (w) w.surge = on ? 2.5 : 1;
        break;
      }
    }
  }

  private admin(req: IncomingMessage, res: ServerResponse, url: URL, _body: unknown): boolean {
    const send = (code: number, body: unknown): true => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
      return true;
    };
    if (req.method === 'GET' && url.pathname === '/scenario') {
      return send(200, {
        name: this.options.scenario.name,
        speed: this.timing.speed,
        storyMinute: this.storyMinute(),
        cycleMinutes: this.options.scenario.cycleMinutes,
        lastSyncMs: this.lastSyncMs,
        kubeconfig: this.fleet.kubeconfigPath,
        episodes: this.episodes.map((e) => ({
          name: e.spec.name,
          kind: e.spec.kind,
          cluster: e.spec.cluster,
          target: e.spec.target ?? null,
          active: e.active,
          forced: e.forced,
        })),
      });
    }
    const m = /^\/episodes\/([^/]+)\/(start|stop|schedule)$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const e = this.episodes.find((x) => x.spec.name === decodeURIComponent(m[1] ?? ''));
      if (!e) return send(404, { error: `no episode ${m[1]}` });
      e.forced = m[2] === 'start' ? true : m[2] === 'stop' ? false : null;
      this.runEpisodes(Date.now());
      return send(200, { name: e.spec.name, active: e.active, forced: e.forced });
    }
    if (req.method === 'GET' && url.pathname === '/transitions') return send(200, { file: this.truth.file, recent: this.truth.recent });
    return false;
  }
}
