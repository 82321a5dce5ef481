import 'server-only';
import type {
  AutoscalerKind,
  AutoscalerPath,
  ExplainResponse,
  FederationPreviewInputs,
  HpaChanges,
  HpaPreviewResponse,
  SyncSummary,
} from '@/lib/api';
import { AssignReplicasInputSchema, HpaPreviewRequestSchema, InitialAssignmentInputSchema, parseAutoscalerId } from '@/lib/api';
import type { HpaSyncInput, HpaSyncResult } from '@/lib/hpa';
import { playLoadCurve, scaleLoad, simulateHpaSync } from '@/lib/hpa';
import type { HorizontalPodAutoscaler, Pod, PodMetrics } from '@/lib/k8s/types';
import { conditionMeaning } from '@/lib/triage';
import { toAppError } from '../clusters/kube-client';
import { AppError } from '../http/app-error';
import type { Viewer } from '../access/access';
import type { Autoscope } from '../runtime';
import { findEntry } from './guards';
import type { GatheredInput } from './live-input';
import { gatherHpaInput } from './live-input';

function summarize(kind: AutoscalerKind, result: HpaSyncResult, currentReplicas: number): SyncSummary {
  return {
    desiredReplicas: result.desiredReplicas,
    replicasAfter: result.rescale ? result.desiredReplicas : currentReplicas,
    rescale: result.rescale,
    conditions: result.conditions.map((c) => ({
      type: c.type,
      status: c.status === 'True' || c.status === 'False' ? c.status : 'Unknown',
      reason: c.reason ?? null,
      message: c.message ?? null,
      lastTransitionTime: c.lastTransitionTime ?? null,
      meaning: conditionMeaning(kind, { type: c.type, status: c.status, reason: c.reason }),
    })),
    currentMetrics: result.currentMetrics as SyncSummary['currentMetrics'],
    events: result.events,
    explanation: result.explanation,
  };
}

/** Gathers the live input for an HPA, or for a FederatedHPA across its ready member clusters. */
async function gather(
  app: Autoscope,
  path: AutoscalerPath,
  viewer: Viewer,
): Promise<{ kind: AutoscalerKind; id: string; raw: HorizontalPodAutoscaler; gathered: GatheredInput }> {
  const entry = findEntry(app, path, viewer);
  const { dto } = entry;
  if (dto.kind === 'MachineAutoscaler')
    throw new AppError(
      'bad_request',
      'explain and preview are for HorizontalPodAutoscalers and FederatedHPAs; a MachineAutoscaler has no metrics decision (see its findings)',
    );
  const raw = entry.held.object() as HorizontalPodAutoscaler;
  if (dto.kind === 'HorizontalPodAutoscaler')
    return { kind: dto.kind, id: dto.id, raw, gathered: await gatherHpaInput(app, dto.cluster, raw, dto.id) };

  const members = (dto.federation?.members ?? []).filter((m) => m.ready === 'True' && m.replicas > 0);
  const duplicated = dto.federation?.strategy === 'Duplicated';
  const read = duplicated ? members.slice(0, 1) : members;
  const gathered = await gatherHpaInput(app, dto.cluster, raw, dto.id, {
    pods: async (selector) => {
      const pods: Pod[] = [];
      const metrics: PodMetrics[] = [];
      let metricsError: Error | null = null;
      for (const m of read) {
        const member = app.connectionFor(`${dto.cluster}/${m.cluster}`);
        if (!member) continue;
        const client = member.client;
        const list = await client
          .get<{ items?: Pod[] }>(`/api/v1/namespaces/${dto.namespace}/pods`, { query: { labelSelector: selector } })
          .catch((err: unknown) => {
            throw toAppError(err, member.name);
          });
        pods.push(...(list.items ?? []));
        const read = await client
          .get<{ items?: PodMetrics[] }>(`/apis/metrics.k8s.io/v1beta1/namespaces/${dto.namespace}/pods`, {
            query: { labelSelector: selector },
          })
          .then(
            (l) => l.items ?? [],
            (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
          );
        if (read instanceof Error) metricsError = read;
        else metrics.push(...read);
      }
      return { pods, metrics: metricsError ?? metrics, clusters: read.map((m) => m.cluster) };
    },
  });
  gathered.assumptions.push(
    duplicated
      ? `Duplicated placement: Karmada divides by a calibration of ${members.length} clusters, so the pods of one member (${read[0]?.cluster ?? 'none'}) stand for all; the desired count is per cluster.`
      : `Divided placement: one decision over the pods of the ready member clusters (${read.map((m) => m.cluster).join(', ') || 'none'}), read through the Karmada proxy; karmada-scheduler then divides the replicas.`,
  );
  return { kind: dto.kind, id: dto.id, raw, gathered };
}

export async function explain(app: Autoscope, path: AutoscalerPath, viewer: Viewer): Promise<ExplainResponse> {
  const { kind, id, raw, gathered } = await gather(app, path, viewer);
  const result = simulateHpaSync(gathered.input);
  const controller = raw.status?.desiredReplicas ?? null;
  return {
    id,
    fetchedAt: gathered.input.now,
    observed: gathered.observed,
    assumptions: gathered.assumptions,
    result: summarize(kind, result, gathered.input.scale.specReplicas),
    controllerDesiredReplicas: controller,
    agreesWithController: controller === null ? null : controller === result.desiredReplicas,
  };
}

function applyChanges(input: HpaSyncInput, changes: HpaChanges): HpaSyncInput {
  const spec = { ...input.hpa.spec };
  if (changes.minReplicas !== undefined) spec.minReplicas = changes.minReplicas;
  if (changes.maxReplicas !== undefined) spec.maxReplicas = changes.maxReplicas;
  if (changes.metrics !== undefined) spec.metrics = changes.metrics;
  if (changes.behavior !== undefined) {
    if (changes.behavior === null) delete spec.behavior;
    else spec.behavior = changes.behavior;
  }
  if ((spec.minReplicas ?? 1) > spec.maxReplicas)
    throw new AppError('bad_request', `minReplicas ${spec.minReplicas ?? 1} exceeds maxReplicas ${spec.maxReplicas}`, {
      issues: [{ path: 'changes.minReplicas', message: 'must not exceed maxReplicas' }],
    });
  return scaleLoad({ ...input, hpa: { ...input.hpa, spec } }, changes.loadFactor ?? 1);
}

function differences(before: SyncSummary, after: SyncSummary): string[] {
  const out: string[] = [];
  if (before.desiredReplicas !== after.desiredReplicas) out.push(`desired replicas ${before.desiredReplicas} → ${after.desiredReplicas}`);
  if (before.replicasAfter !== after.replicasAfter) out.push(`replicas after the sync ${before.replicasAfter} → ${after.replicasAfter}`);
  for (const a of after.conditions) {
    const b = before.conditions.find((c) => c.type === a.type);
    if (!b || b.status !== a.status || b.reason !== a.reason)
      out.push(`${a.type}: ${b ? `${b.status}/${b.reason ?? '—'}` : 'absent'} → ${a.status}/${a.reason ?? '—'}`);
  }
  const events = (s: SyncSummary): string => s.events.map((e) => e.reason).join(', ') || 'none';
  if (events(before) !== events(after)) out.push(`events: ${events(before)} → ${events(after)}`);
  return out;
}

export async function previewHpa(app: Autoscope, body: unknown, viewer: Viewer): Promise<HpaPreviewResponse> {
  const request = HpaPreviewRequestSchema.parse(body);
  const ref = parseAutoscalerId(request.id);
  if (!ref) throw new AppError('bad_request', 'invalid id', { issues: [{ path: 'id', message: 'not an autoscaler id' }] });
  const { kind, id, gathered } = await gather(app, ref, viewer);
  const base: HpaSyncInput = { ...gathered.input, config: request.config };
  const edited = applyChanges(base, request.changes);
  const before = summarize(kind, simulateHpaSync(base), base.scale.specReplicas);
  const after = summarize(kind, simulateHpaSync(edited), base.scale.specReplicas);
  const assumptions = [...gathered.assumptions];
  if (request.changes.loadFactor !== undefined && request.changes.loadFactor !== 1)
    assumptions.push(`Every observed metric value multiplied by ${request.changes.loadFactor} (load proportional to today's).`);
  let playback: HpaPreviewResponse['playback'];
  if (request.playback) {
    const { factors, intervalSeconds } = request.playback;
    const b = playLoadCurve(base, factors, intervalSeconds);
    const a = playLoadCurve({ ...edited, metrics: base.metrics, pods: base.pods }, factors, intervalSeconds);
    playback = b.map((step, i) => ({
      t: step.t,
      factor: step.factor,
      before: { replicas: step.replicas, desired: step.desired, limited: step.limited },
      after: { replicas: a[i]?.replicas ?? 0, desired: a[i]?.desired ?? 0, limited: a[i]?.limited ?? null },
    }));
    assumptions.push(
      `Load curve: one sync every ${intervalSeconds} s with today's total load × each factor, spread evenly over the replicas; new pods are assumed ready at once.`,
    );
  }
  return {
    id,
    fetchedAt: base.now,
    observed: gathered.observed,
    assumptions,
    before,
    after,
    differences: differences(before, after),
    editedSpec: edited.hpa.spec as unknown as HpaPreviewResponse['editedSpec'],
    ...(playback ? { playback } : {}),
  };
}

const seedPolicyOf = {
  Duplicated: 'Duplicated',
  StaticWeight: 'StaticWeighted',
  DynamicWeight: 'DynamicWeighted',
  Aggregated: 'Aggregated',
  Unknown: 'DynamicWeighted',
} as const;

/** Inputs for the federation preview, filled from a live FederatedHPA's binding, members and policy. */
export function federationPreviewInputs(app: Autoscope, path: AutoscalerPath, viewer: Viewer): FederationPreviewInputs {
  const entry = findEntry(app, path, viewer);
  const { dto } = entry;
  if (dto.kind !== 'FederatedHPA' || !dto.federation) throw new AppError('bad_request', 'federation previews start from a FederatedHPA');
  const watcher = app.watchers.get(dto.cluster);
  // The watcher's cache where this process watches the cluster; else the binding the owner mapped it with.
  const binding =
    watcher
      ?.objects('resourceBindings')
      .find(
        (b) =>
          b.metadata.namespace === dto.namespace &&
          (b.spec as { resource?: { kind?: string; name?: string } } | undefined)?.resource?.name === dto.target.name,
      ) ?? entry.related.binding;
  const bspec = (binding?.spec ?? {}) as {
    replicas?: number;
    resource?: { uid?: string };
    clusters?: { name: string; replicas?: number }[];
    placement?: {
      replicaScheduling?: { weightPreference?: { staticWeightList?: { targetCluster?: { clusterNames?: string[] }; weight?: number }[] } };
    };
  };
  const weights = new Map<string, number>();
  for (const w of bspec.placement?.replicaScheduling?.weightPreference?.staticWeightList ?? [])
    for (const c of w.targetCluster?.clusterNames ?? []) weights.set(c, Math.max(weights.get(c) ?? 0, w.weight ?? 0));
  const strategy = dto.federation.strategy === 'Unknown' ? 'DynamicWeight' : dto.federation.strategy;
  const ready = dto.federation.members.filter((m) => m.ready === 'True');
  const previous = (bspec.clusters ?? []).map((c) => ({ name: c.name, replicas: c.replicas ?? 0 }));
  const spec = (entry.held.object().spec ?? {}) as { minReplicas?: number; maxReplicas?: number };
  const notes = [
    "Shipped Karmada divides the template's replicas with the PropagationPolicy's strategy (Webster method since v1.16); the seed's five policies, which split min/max bounds, never shipped (karmada-io/karmada PR #3161).",
  ];
  if (ready.length < dto.federation.members.length)
    notes.push(
      `Not ready and left out: ${dto.federation.members
        .filter((m) => m.ready !== 'True')
        .map((m) => m.cluster)
        .join(', ')}.`,
    );
  return {
    id: dto.id,
    fetchedAt: new Date().toISOString(),
    assignReplicas: AssignReplicasInputSchema.parse({
      strategy,
      replicas: bspec.replicas ?? dto.desiredReplicas ?? dto.currentReplicas ?? 0,
      candidates: ready.map((m) => ({
        name: m.cluster,
        ...(strategy === 'StaticWeight' ? { staticWeight: weights.get(m.cluster) ?? 1 } : {}),
        ...(m.availableReplicas !== null ? { allocatableReplicas: m.availableReplicas } : {}),
      })),
      previousClusters: previous.filter((p) => ready.some((m) => m.cluster === p.name)),
      uid: bspec.resource?.uid ?? '',
      divider: 'webster',
    }),
    initialAssignment: InitialAssignmentInputSchema.parse({
      policy: seedPolicyOf[dto.federation.strategy],
      federatedMinReplicas: Math.max(1, spec.minReplicas ?? 1),
      federatedMaxReplicas: Math.max(1, spec.maxReplicas ?? 1),
      scaleToZero: false,
      clusters: ready.map((m) => ({
        name: m.cluster,
        prevReplicas: m.replicas,
        ...(m.availableReplicas !== null ? { availableReplicas: m.availableReplicas } : {}),
        ...(weights.has(m.cluster) ? { staticWeight: weights.get(m.cluster) } : {}),
      })),
      previousBinding: previous,
    }),
    notes,
  };
}
