import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

/** Names of the built-in metric profiles an app can use (see `metric-profiles.ts`). */
export const MetricProfileSchema = z.enum([
  'cpu',
  'cpu-sidecar',
  'memory',
  'container-cpu',
  'rps',
  'ingress',
  'queue',
  'cpu-rps',
  'cpu-queue',
  'cpu-memory',
]);
/** Built-in load curves (see `load.ts`). */
export const LoadCurveSchema = z.enum(['flat', 'steady', 'diurnal', 'spiky', 'saturating', 'drop', 'idle']);
export const BehaviorProfileSchema = z.enum(['none', 'defaults', 'fast-up-slow-down', 'no-scale-down', 'conservative']);

const AppSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  metrics: MetricProfileSchema.default('cpu'),
  load: LoadCurveSchema.default('diurnal'),
  behavior: BehaviorProfileSchema.default('none'),
  replicas: z.number().int().min(0).default(2),
  min: z.number().int().min(0).default(1),
  max: z.number().int().min(1).default(10),
  /** Replicas' worth of work at 100% of the request, at the curve's peak. */
  demand: z.number().positive().default(4),
  /** The workload's container has no resources.requests (FailedGetResourceMetric: missing request for cpu). */
  noRequests: z.boolean().default(false),
  /** No HorizontalPodAutoscaler for this workload (plain Deployment). */
  noHpa: z.boolean().default(false),
  /** A second HPA targeting the same workload (AmbiguousSelector on both). */
  ambiguous: z.boolean().default(false),
  /** The HPA targets a Deployment that does not exist (AbleToScale=False/FailedGetScale). */
  missingTarget: z.boolean().default(false),
});
export type AppSpec = z.infer<typeof AppSchema>;

const MachineSetSchema = z.object({
  name: z.string(),
  /** Which API is authoritative at the start: the MAPI copy's spec/status.authoritativeAPI. */
  authority: z.enum(['MachineAPI', 'ClusterAPI']).default('MachineAPI'),
  /** Whether a Cluster API mirror exists in openshift-cluster-api. */
  mirror: z.boolean().default(true),
  /** Only a Cluster API MachineSet (no Machine API copy). */
  capiOnly: z.boolean().default(false),
  replicas: z.number().int().min(0).default(2),
  instanceType: z.string().default('m6i.xlarge'),
  zone: z.string().default('us-east-1a'),
  gpu: z.number().int().min(0).default(0),
  /** Leave out the scale-from-zero capacity annotations. */
  noCapacity: z.boolean().default(false),
  /** The CAPI copy is served in v1beta1 shape by its own CRD version (still stored as v1beta2). */
  capiVersion: z.enum(['v1beta1', 'v1beta2']).default('v1beta2'),
});

const MachineAutoscalerSchema = z.object({
  name: z.string(),
  namespace: z.string().default('openshift-machine-api'),
  target: z.string(),
  apiVersion: z.string().default('machine.openshift.io/v1beta1'),
  kind: z.string().default('MachineSet'),
  min: z.number().int().default(1),
  max: z.number().int().default(6),
  /** Created this many story-minutes after the start (0 = at start). */
  createdAtMinute: z.number().min(0).default(0),
  /** Whether the operator reconciled it (annotations written, finalizer and lastTargetRef set). */
  reconciled: z.boolean().default(true),
});

const FederatedAppSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  strategy: z.enum(['Duplicated', 'StaticWeight', 'DynamicWeight', 'Aggregated']),
  weights: z.record(z.string(), z.number().int().min(1)).optional(),
  min: z.number().int().min(1).default(1),
  max: z.number().int().min(1).default(20),
  replicas: z.number().int().min(1).default(4),
  demand: z.number().positive().default(6),
  load: LoadCurveSchema.default('diurnal'),
});

const ClusterSchema = z.object({
  name: z.string(),
  profile: z.enum(['kubernetes', 'openshift', 'karmada', 'karmada-member']),
  kubernetesVersion: z.string().default('1.33.2'),
  namespaces: z.array(z.string()).default([]),
  apps: z.array(AppSchema).default([]),
  machineSets: z.array(MachineSetSchema).default([]),
  machineAutoscalers: z.array(MachineAutoscalerSchema).default([]),
  clusterAutoscaler: z.boolean().default(true),
  /** The MachineAutoscaler CRD carries status.conditions (an enhancement-era operator with Cluster API targets). */
  operatorSupportsClusterAPITargets: z.boolean().default(false),
  members: z.array(z.string()).default([]),
  federated: z.array(FederatedAppSchema).default([]),
  /** Karmada member: allocatable pods and CPU reported in the Cluster's resourceSummary. */
  capacity: z.object({ pods: z.number().int().default(110), cpu: z.string().default('32') }).default({ pods: 110, cpu: '32' }),
  region: z.string().optional(),
});
export type ClusterSpec = z.infer<typeof ClusterSchema>;

export const EpisodeKindSchema = z.enum([
  'metricsOutage',
  'externalMetricsOutage',
  'memberNotReady',
  'migrateMachineSet',
  'deleteMachineSet',
  'duplicateMachineAutoscaler',
  'loadSurge',
]);

const EpisodeSchema = z.object({
  name: z.string(),
  kind: EpisodeKindSchema,
  cluster: z.string(),
  /** Member cluster (memberNotReady), MachineSet (migrate/delete), app `namespace/name` (loadSurge), MachineAutoscaler (duplicate). */
  target: z.string().optional(),
  atMinute: z.number().min(0),
  /** Story minutes it lasts; absent = until the end of the cycle (structural episodes persist). */
  forMinutes: z.number().positive().optional(),
  /** Repeats every cycle (the default); false = once. */
  repeat: z.boolean().default(true),
});
export type EpisodeSpec = z.infer<typeof EpisodeSchema>;

export const ScenarioSchema = z.object({
  name: z.string(),
  description: z.string().default(''),
  /** Story seconds per wall second. */
  speed: z.number().positive().default(10),
  /** Length of the repeating story, in story minutes. */
  cycleMinutes: z.number().positive().default(30),
  clusters: z.array(ClusterSchema).min(1),
  episodes: z.array(EpisodeSchema).default([]),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

export const scenariosDir = path.resolve(__dirname, '..', 'scenarios');

/** Loads `sim/scenarios/<name>.yaml` (or a path), validated; a bad file is a clear error naming the field. */
export function loadScenario(nameOrPath: string): Scenario {
  const file = nameOrPath.endsWith('.yaml') || nameOrPath.includes('/') ? nameOrPath : path.join(scenariosDir, `${nameOrPath}.yaml`);
  const parsed = ScenarioSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`scenario ${file}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
  }
  const names = new Set(parsed.data.clusters.map((c) => c.name));
  for (const c of parsed.data.clusters)
    for (const m of c.members)
      if (!names.has(m)) throw new Error(`scenario ${file}: cluster ${c.name} lists member ${m}, which is not a cluster of the scenario`);
  return parsed.data;
}

const generatedProfiles: z.infer<typeof MetricProfileSchema>[] = [
  'cpu',
  'cpu',
  'cpu-rps',
  'memory',
  'rps',
  'queue',
  'cpu',
  'container-cpu',
  'ingress',
  'cpu-queue',
];
/**
 * Most of a big fleet is quiet: 80% of generated workloads have a flat load (their HPA status settles and
 * stops changing), 20% move (diurnal, spikes, saturation, drops), so the status churn resembles a real
 * fleet's rather than every HPA rewriting its status every sync.
 */
const generatedLoads: z.infer<typeof LoadCurveSchema>[] = [
  'flat',
  'flat',
  'flat',
  'diurnal',
  'flat',
  'flat',
  'flat',
  'spiky',
  'flat',
  'flat',
];

/** A large synthetic fleet for benchmarks: `clusters` plain clusters with `hpasPerCluster` apps each. */
export function generateScenario(clusters: number, hpasPerCluster: number, speed = 1): Scenario {
  const namespaces = ['team-a', 'team-b', 'team-c', 'team-d', 'team-e', 'team-f', 'team-g', 'team-h'];
  return ScenarioSchema.parse({
    name: `generated-${clusters}x${hpasPerCluster}`,
    description: 'Synthetic benchmark fleet',
    speed,
    cycleMinutes: 60,
    clusters: Array.from({ length: clusters }, (_, c) => ({
      name: `bench-${String(c + 1).padStart(3, '0')}`,
      profile: 'kubernetes',
      namespaces,
      apps: Array.from({ length: hpasPerCluster }, (_, i) => ({
        namespace: namespaces[i % namespaces.length],
        name: `svc-${String(i).padStart(5, '0')}`,
        metrics: generatedProfiles[i % generatedProfiles.length],
        load: generatedLoads[(i + c) % generatedLoads.length],
        replicas: 2 + (i % 4),
        min: 1 + (i % 3),
        max: 8 + (i % 12),
        demand: 1 + (i % 7),
        noRequests: i % 97 === 13,
      })),
    })),
    episodes: clusters > 1 ? [{ name: 'metrics-outage', kind: 'metricsOutage', cluster: 'bench-002', atMinute: 5, forMinutes: 10 }] : [],
  });
}
