import type { Autoscaler, AutoscalerKind, Problem, ProblemGroup, ProblemSeverity } from '@/lib/api/autoscaler';
import { SEVERITY_RANK } from '@/lib/triage/health-rules';
import { groupHintFor, groupTitleFor, hasSeparateCauses, separateCause } from '@/lib/triage/hints';
import { METRICS_APIS as METRICS_API_TEXT, metricsApiReasons } from '@/lib/triage/reasons';
import type { MetricsApiId, MetricsApiText } from '@/lib/triage/reasons';
import { toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant } from '@/lib/triage/mapper-context';

export interface GroupProblemsOptions {
  /** Also group `info` problems (a deliberate ScalingDisabled); the triage queue leaves them out. */
  includeInfo?: boolean;
  /** Ids kept per group, oldest problem first. */
  sampleSize?: number;
}

/**
 * A metrics API (REASONS' `metricsApi`) with its text: when every autoscaler of a cluster that reads it fails
 * to, the API is down, not N workloads broken.
 */
interface MetricsApi extends MetricsApiText {
  /** The metric source types read through it. */
  types: ReadonlySet<string>;
  /** The reasons (and metric-unread problem codes) of a failed read. */
  codes: ReadonlySet<string>;
}

const METRICS_APIS: readonly MetricsApi[] = (Object.keys(METRICS_API_TEXT) as MetricsApiId[]).map((id) => ({
  ...metricsApiReasons(id),
  ...METRICS_API_TEXT[id],
}));

const METRICS_API_BY_CODE: ReadonlyMap<string, MetricsApi> = new Map(
  METRICS_APIS.flatMap((api) => [...api.codes].map((code) => [code, api] as const)),
);

/** The outage rule needs at least this many autoscalers reading the API in the cluster, all failing. */
export const METRICS_OUTAGE_MIN_AUTOSCALERS = 2;
/** Group key part for problems without a separate cause. */
const NO_CAUSE = '';

interface Sample {
  ms: number;
  id: string;
}

interface Accumulator {
  kind: AutoscalerKind;
  reason: string;
  cause: string | null;
  count: number;
  lastId: string;
  clusters: Set<string>;
  lastCluster: string;
  namespaces: Set<string>;
  lastNamespace: string;
  oldestMs: number;
  oldestSince: string | null;
  worst: ProblemSeverity;
  hint: string;
  sameHint: boolean;
  outageClusters: Set<string>;
  /** The metrics API whose outage explains this group (its reason is one of the API's codes). */
  outageApi: MetricsApi | null;
  samples: Sample[];
}

/**
 * Per-call memo of the two per-problem costs, reading messages and parsing timestamps: across a fleet the
 * same messages and times repeat (an outage writes one message into every HPA it breaks). Only codes with
 * separate causes have their messages read at all.
 */
class ProblemFacts {
  private readonly causes = new Map<string, Map<string, string>>();
  private readonly times = new Map<string, number>();

  cause(p: Problem): string {
    if (!hasSeparateCauses(p.code)) return NO_CAUSE;
    let byMessage = this.causes.get(p.code);
    if (!byMessage) {
      byMessage = new Map();
      this.causes.set(p.code, byMessage);
    }
    let cause = byMessage.get(p.message);
    if (cause === undefined) {
      cause = separateCause(p.code, p.message) ?? NO_CAUSE;
      byMessage.set(p.message, cause);
    }
    return cause;
  }

  ms(since: string | null): number {
    if (!since) return Number.NaN;
    let ms = this.times.get(since);
    if (ms === undefined) {
      ms = Date.parse(since);
      this.times.set(since, ms);
    }
    return ms;
  }
}

function readsApi(a: Autoscaler, api: MetricsApi): boolean {
  for (const m of a.metrics) if (api.types.has(m.type)) return true;
  return false;
}

function failsToRead(a: Autoscaler, api: MetricsApi, facts: ProblemFacts): boolean {
  for (const p of a.problems) if (api.codes.has(p.code) && facts.cause(p) === NO_CAUSE) return true;
  return false;
}

/**
 * Per metrics API and autoscaler kind, the clusters where every autoscaler reading that API fails to, at
 * least METRICS_OUTAGE_MIN_AUTOSCALERS of them: one API outage, not N broken workloads. Failures explained
 * by the workload's own configuration (a missing request) do not count.
 */
function metricsOutages(autoscalers: readonly Autoscaler[], facts: ProblemFacts): Map<MetricsApi, Map<AutoscalerKind, Set<string>>> {
  const outages = new Map<MetricsApi, Map<AutoscalerKind, Set<string>>>();
  for (const api of METRICS_APIS) {
    const tally = new Map<AutoscalerKind, Map<string, { total: number; failing: number }>>();
    for (const a of autoscalers) {
      if (a.kind === 'MachineAutoscaler' || !readsApi(a, api)) continue;
      let byCluster = tally.get(a.kind);
      if (!byCluster) {
        byCluster = new Map();
        tally.set(a.kind, byCluster);
      }
      let t = byCluster.get(a.cluster);
      if (!t) {
        t = { total: 0, failing: 0 };
        byCluster.set(a.cluster, t);
      }
      t.total++;
      if (failsToRead(a, api, facts)) t.failing++;
    }
    for (const [kind, byCluster] of tally) {
      for (const [cluster, t] of byCluster) {
        if (t.total < METRICS_OUTAGE_MIN_AUTOSCALERS || t.failing !== t.total) continue;
        const byKind = outages.get(api) ?? new Map<AutoscalerKind, Set<string>>();
        const set = byKind.get(kind) ?? new Set<string>();
        set.add(cluster);
        byKind.set(kind, set);
        outages.set(api, byKind);
      }
    }
  }
  return outages;
}

function before(ms: number, id: string, s: Sample): boolean {
  return ms < s.ms || (ms === s.ms && id < s.id);
}

/** Keeps the `size` oldest (then smallest id) samples, sorted. */
function addSample(samples: Sample[], ms: number, id: string, size: number): void {
  if (samples.length >= size) {
    const last = samples[samples.length - 1];
    if (!last || !before(ms, id, last)) return;
    samples.pop();
  }
  let i = samples.length;
  while (i > 0 && before(ms, id, samples[i - 1] as Sample)) i--;
  samples.splice(i, 0, { ms, id });
}

function newAccumulator(kind: AutoscalerKind, p: Problem, cause: string): Accumulator {
  return {
    kind,
    reason: p.code,
    cause: cause === NO_CAUSE ? null : cause,
    count: 0,
    lastId: '',
    clusters: new Set(),
    lastCluster: '',
    namespaces: new Set(),
    lastNamespace: '',
    oldestMs: Number.POSITIVE_INFINITY,
    oldestSince: null,
    worst: p.severity,
    hint: p.hint,
    sameHint: true,
    outageClusters: new Set(),
    outageApi: null,
    samples: [],
  };
}

/** kind → code → cause → group, so that the hot loop builds no key strings. */
type GroupIndex = Map<AutoscalerKind, Map<string, Map<string, Accumulator>>>;

function accumulatorFor(index: GroupIndex, kind: AutoscalerKind, p: Problem, cause: string): Accumulator {
  let byCode = index.get(kind);
  if (!byCode) {
    byCode = new Map();
    index.set(kind, byCode);
  }
  let byCause = byCode.get(p.code);
  if (!byCause) {
    byCause = new Map();
    byCode.set(p.code, byCause);
  }
  let acc = byCause.get(cause);
  if (!acc) {
    acc = newAccumulator(kind, p, cause);
    byCause.set(cause, acc);
  }
  return acc;
}

function toGroup(acc: Accumulator): ProblemGroup & { oldestMs: number } {
  const outageClusters = [...acc.outageClusters].sort();
  const group: ProblemGroup & { oldestMs: number } = {
    key: acc.cause ? `${acc.kind}/${acc.reason}/${acc.cause}` : `${acc.kind}/${acc.reason}`,
    kind: acc.kind,
    reason: acc.reason,
    title: groupTitleFor(acc.reason, acc.cause),
    count: acc.count,
    clusters: [...acc.clusters].sort(),
    namespaces: [...acc.namespaces].sort(),
    oldestSince: acc.oldestSince,
    worstSeverity: acc.worst,
    hint:
      acc.outageApi && outageClusters.length > 0
        ? acc.outageApi.hint(acc.kind, outageClusters)
        : acc.sameHint
          ? acc.hint
          : groupHintFor(acc.reason, acc.cause),
    sampleIds: acc.samples.map((s) => s.id),
    oldestMs: acc.oldestMs,
  };
  if (acc.outageApi && outageClusters.length > 0) group.likelyCause = acc.outageApi.cause(acc.kind, outageClusters);
  return group;
}

/**
 * The problems of one slice of the fleet (the service keeps one per cluster), accumulated but not yet
 * grouped: `groupTallies` merges slices into the groups `groupProblems` returns. The outage rule reads one
 * cluster at a time, so slicing by cluster gives the same groups as one pass over the fleet. Never mutated
 * after it is made, so a slice that did not change can be merged again.
 */
export interface ProblemTally {
  readonly index: GroupIndex;
  readonly sampleSize: number;
}

/** Accumulates the problems of `autoscalers` (in id order) for `groupTallies`. */
export function tallyProblems(autoscalers: readonly Autoscaler[], now: Instant, options: GroupProblemsOptions = {}): ProblemTally {
  const nowMs = toEpochMs(now);
  const sampleSize = options.sampleSize ?? 5;
  const includeInfo = options.includeInfo ?? false;
  const facts = new ProblemFacts();
  const outages = metricsOutages(autoscalers, facts);
  const index: GroupIndex = new Map();

  for (const a of autoscalers) {
    for (const p of a.problems) {
      if (p.severity === 'info' && !includeInfo) continue;
      const cause = facts.cause(p);
      const acc = accumulatorFor(index, a.kind, p, cause);
      if (acc.lastId === a.id) continue;
      acc.lastId = a.id;
      acc.count++;
      if (acc.lastCluster !== a.cluster) {
        acc.clusters.add(a.cluster);
        acc.lastCluster = a.cluster;
      }
      if (acc.lastNamespace !== a.namespace) {
        acc.namespaces.add(a.namespace);
        acc.lastNamespace = a.namespace;
      }
      if (SEVERITY_RANK[p.severity] > SEVERITY_RANK[acc.worst]) acc.worst = p.severity;
      if (acc.sameHint && acc.hint !== p.hint) acc.sameHint = false;
      const parsed = facts.ms(p.since);
      const ms = Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : Math.min(parsed, nowMs);
      if (ms < acc.oldestMs) {
        acc.oldestMs = ms;
        acc.oldestSince = parsed <= nowMs ? p.since : new Date(nowMs).toISOString();
      }
      const api = cause === NO_CAUSE ? METRICS_API_BY_CODE.get(p.code) : undefined;
      if (api && outages.get(api)?.get(a.kind)?.has(a.cluster)) {
        acc.outageApi = api;
        acc.outageClusters.add(a.cluster);
      }
      addSample(acc.samples, ms, a.id, sampleSize);
    }
  }
  return { index, sampleSize };
}

/** `into` (a copy this merge owns) takes in `from`: the fold over both slices, in that order. */
function mergeAccumulator(into: Accumulator, from: Accumulator, sampleSize: number): void {
  into.count += from.count;
  for (const c of from.clusters) into.clusters.add(c);
  for (const n of from.namespaces) into.namespaces.add(n);
  if (from.oldestMs < into.oldestMs) {
    into.oldestMs = from.oldestMs;
    into.oldestSince = from.oldestSince;
  }
  if (SEVERITY_RANK[from.worst] > SEVERITY_RANK[into.worst]) into.worst = from.worst;
  into.sameHint = into.sameHint && from.sameHint && into.hint === from.hint;
  for (const c of from.outageClusters) into.outageClusters.add(c);
  into.outageApi ??= from.outageApi;
  for (const s of from.samples) addSample(into.samples, s.ms, s.id, sampleSize);
}

function copyAccumulator(acc: Accumulator): Accumulator {
  return {
    ...acc,
    clusters: new Set(acc.clusters),
    namespaces: new Set(acc.namespaces),
    outageClusters: new Set(acc.outageClusters),
    samples: [...acc.samples],
  };
}

/** The groups of the slices together: the tallies merged in the order given, then ordered as `groupProblems` orders them. */
export function groupTallies(tallies: readonly ProblemTally[]): ProblemGroup[] {
  let accumulators: Accumulator[] = [];
  if (tallies.length === 1) {
    for (const byCode of (tallies[0] as ProblemTally).index.values())
      for (const byCause of byCode.values()) accumulators.push(...byCause.values());
  } else {
    const merged = new Map<string, Accumulator>();
    for (const tally of tallies) {
      for (const byCode of tally.index.values()) {
        for (const byCause of byCode.values()) {
          for (const acc of byCause.values()) {
            const key = `${acc.kind}\u0000${acc.reason}\u0000${acc.cause ?? ''}`;
            const into = merged.get(key);
            if (into) mergeAccumulator(into, acc, tally.sampleSize);
            else merged.set(key, copyAccumulator(acc));
          }
        }
      }
    }
    accumulators = [...merged.values()];
  }
  const result = accumulators.map(toGroup);
  result.sort(
    (a, b) =>
      SEVERITY_RANK[b.worstSeverity] - SEVERITY_RANK[a.worstSeverity] ||
      b.count - a.count ||
      a.oldestMs - b.oldestMs ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return result.map(({ oldestMs: _oldestMs, ...group }) => group);
}

/**
 * Problems across the fleet grouped by cause: one group per (autoscaler kind, reason), with causes that
 * belong to a single workload's configuration (see `grouping` in hints.ts) split out. The same reason in
 * several clusters stays one group listing them. Ordered by worst severity, then count, then oldest since.
 * `now` bounds `since` values from clusters whose clocks run ahead.
 */
export function groupProblems(autoscalers: readonly Autoscaler[], now: Instant, options: GroupProblemsOptions = {}): ProblemGroup[] {
  return groupTallies([tallyProblems(autoscalers, now, options)]);
}
