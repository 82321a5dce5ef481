import type { Autoscaler, AutoscalerKind, ProblemGroup, ProblemSeverity } from '@/lib/api/autoscaler';
import { SEVERITY_RANK } from '@/lib/triage/health-rules';
import { groupHintFor, groupTitleFor, separateCause } from '@/lib/triage/hints';
import { toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant } from '@/lib/triage/mapper-context';

export interface GroupProblemsOptions {
  /** Also group `info` problems (a deliberate ScalingDisabled); the triage queue leaves them out. */
  includeInfo?: boolean;
  /** Ids kept per group, oldest problem first. */
  sampleSize?: number;
}

const METRIC_OUTAGE_CODES = new Set(['FailedGetResourceMetric', 'FailedGetContainerResourceMetric']);
/** The outage rule needs at least this many Resource-metric autoscalers in the cluster, all failing. */
export const METRICS_OUTAGE_MIN_AUTOSCALERS = 2;

interface Accumulator {
  kind: AutoscalerKind;
  reason: string;
  cause: string | null;
  count: number;
  lastId: string;
  clusters: Set<string>;
  namespaces: Set<string>;
  oldestMs: number;
  oldestSince: string | null;
  worst: ProblemSeverity;
  hint: string | null;
  sameHint: boolean;
  outageClusters: Set<string>;
  samples: { ms: number; id: string }[];
}

function hasResourceMetric(a: Autoscaler): boolean {
  return a.metrics.some((m) => m.type === 'Resource' || m.type === 'ContainerResource');
}

/**
 * Clusters where every autoscaler (of one kind) with a Resource or ContainerResource metric fails to read
 * it, at least METRICS_OUTAGE_MIN_AUTOSCALERS of them: one metrics API outage, not N broken workloads.
 * Failures explained by the workload's own configuration (a missing request) do not count.
 */
function metricsOutages(autoscalers: readonly Autoscaler[]): Set<string> {
  const tally = new Map<string, { total: number; failing: number }>();
  for (const a of autoscalers) {
    if (a.kind === 'MachineAutoscaler' || !hasResourceMetric(a)) continue;
    const key = `${a.kind}\u0000${a.cluster}`;
    const t = tally.get(key) ?? { total: 0, failing: 0 };
    t.total++;
    if (a.problems.some((p) => METRIC_OUTAGE_CODES.has(p.code) && separateCause(p.code, p.message) === null)) t.failing++;
    tally.set(key, t);
  }
  const outages = new Set<string>();
  for (const [key, t] of tally) if (t.total >= METRICS_OUTAGE_MIN_AUTOSCALERS && t.failing === t.total) outages.add(key);
  return outages;
}

function list(names: readonly string[]): string {
  return names.length === 1 ? `cluster ${names[0]}` : `clusters ${names.join(', ')}`;
}

function outageCause(kind: AutoscalerKind, clusters: readonly string[]): string {
  const api = kind === 'FederatedHPA' ? 'served by karmada-metrics-adapter' : 'served by metrics-server';
  return `metrics API unavailable in ${list(clusters)}: every ${kind === 'FederatedHPA' ? 'FederatedHPA' : 'HPA'} with a resource metric there fails to read it (check the v1beta1.metrics.k8s.io APIService, ${api})`;
}

function outageHint(kind: AutoscalerKind, clusters: readonly string[]): string {
  const where = clusters.length === 1 ? `kubectl --context ${clusters[0]} ` : 'kubectl ';
  return kind === 'FederatedHPA'
    ? `${where}get apiservice v1beta1.metrics.k8s.io on the Karmada control plane; if it is not Available, check the karmada-metrics-adapter Deployment and its access to the member clusters`
    : `${where}get apiservice v1beta1.metrics.k8s.io; if it is not Available, check the metrics-server Deployment in kube-system (pods, logs, and the APIService's service endpoints)`;
}

function addSample(samples: { ms: number; id: string }[], ms: number, id: string, size: number): void {
  const before = (s: { ms: number; id: string }): boolean => ms < s.ms || (ms === s.ms && id < s.id);
  if (samples.length >= size) {
    const last = samples[samples.length - 1];
    if (!last || !before(last)) return;
    samples.pop();
  }
  let i = samples.length;
  while (i > 0 && before(samples[i - 1] as { ms: number; id: string })) i--;
  samples.splice(i, 0, { ms, id });
}

/**
 * Problems across the fleet grouped by cause: one group per (autoscaler kind, reason), with causes that
 * belong to a single workload's configuration (see `grouping` in hints.ts) split out. The same reason in
 * several clusters stays one group listing them. Ordered by worst severity, then count, then oldest since.
 * `now` bounds `since` values from clusters whose clocks run ahead.
 */
export function groupProblems(autoscalers: readonly Autoscaler[], now: Instant, options: GroupProblemsOptions = {}): ProblemGroup[] {
  const nowMs = toEpochMs(now);
  const sampleSize = options.sampleSize ?? 5;
  const outages = metricsOutages(autoscalers);
  const groups = new Map<string, Accumulator>();

  for (const a of autoscalers) {
    const inOutage = outages.size > 0 && outages.has(`${a.kind}\u0000${a.cluster}`);
    for (const p of a.problems) {
      if (p.severity === 'info' && !options.includeInfo) continue;
      const cause = separateCause(p.code, p.message);
      const key = cause ? `${a.kind}/${p.code}/${cause}` : `${a.kind}/${p.code}`;
      let acc = groups.get(key);
      if (!acc) {
        acc = {
          kind: a.kind,
          reason: p.code,
          cause,
          count: 0,
          lastId: '',
          clusters: new Set(),
          namespaces: new Set(),
          oldestMs: Number.POSITIVE_INFINITY,
          oldestSince: null,
          worst: p.severity,
          hint: p.hint,
          sameHint: true,
          outageClusters: new Set(),
          samples: [],
        };
        groups.set(key, acc);
      }
      if (acc.lastId === a.id) continue;
      acc.lastId = a.id;
      acc.count++;
      acc.clusters.add(a.cluster);
      acc.namespaces.add(a.namespace);
      if (SEVERITY_RANK[p.severity] > SEVERITY_RANK[acc.worst]) acc.worst = p.severity;
      if (acc.sameHint && acc.hint !== p.hint) acc.sameHint = false;
      let ms = p.since ? Date.parse(p.since) : Number.NaN;
      if (Number.isNaN(ms)) ms = Number.POSITIVE_INFINITY;
      else if (ms > nowMs) ms = nowMs;
      if (ms < acc.oldestMs) {
        acc.oldestMs = ms;
        acc.oldestSince = p.since && Date.parse(p.since) <= nowMs ? p.since : new Date(nowMs).toISOString();
      }
      if (inOutage && METRIC_OUTAGE_CODES.has(p.code) && cause === null) acc.outageClusters.add(a.cluster);
      addSample(acc.samples, ms, a.id, sampleSize);
    }
  }

  const result: (ProblemGroup & { oldestMs: number })[] = [];
  for (const [key, acc] of groups) {
    const outageClusters = [...acc.outageClusters].sort();
    const group: ProblemGroup & { oldestMs: number } = {
      key,
      kind: acc.kind,
      reason: acc.reason,
      title: groupTitleFor(acc.reason, acc.cause),
      count: acc.count,
      clusters: [...acc.clusters].sort(),
      namespaces: [...acc.namespaces].sort(),
      oldestSince: acc.oldestSince,
      worstSeverity: acc.worst,
      hint: outageClusters.length > 0 ? outageHint(acc.kind, outageClusters) : acc.sameHint && acc.hint !== null ? acc.hint : groupHintFor(acc.reason, acc.cause),
      sampleIds: acc.samples.map((s) => s.id),
      oldestMs: acc.oldestMs,
    };
    if (outageClusters.length > 0) group.likelyCause = outageCause(acc.kind, outageClusters);
    result.push(group);
  }
  result.sort(
    (a, b) =>
      SEVERITY_RANK[b.worstSeverity] - SEVERITY_RANK[a.worstSeverity] ||
      b.count - a.count ||
      a.oldestMs - b.oldestMs ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return result.map(({ oldestMs: _oldestMs, ...group }) => group);
}
