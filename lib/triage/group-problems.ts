import { SortedBlocks } from '@/lib/collections/sorted-blocks';
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
    key: groupKey(acc.kind, acc.reason, acc.cause),
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

/** A group's key: `kind/reason`, or `kind/reason/cause` for a cause split out of its reason. */
function groupKey(kind: AutoscalerKind, reason: string, cause: string | null): string {
  return cause ? `${kind}/${reason}/${cause}` : `${kind}/${reason}`;
}

/**
 * The problem that puts the autoscaler in the group with this key (its first, as the tally counts it), or undefined
 * when the group does not count it. `causes` memoizes reading causes from messages across calls.
 */
export function problemInGroup<P extends Pick<Problem, 'code' | 'severity' | 'message'>>(
  a: { kind: Autoscaler['kind']; problems: readonly P[] },
  key: string,
  causes: Map<string, string> = new Map(),
): P | undefined {
  if (!key.startsWith(`${a.kind}/`)) return undefined;
  for (const p of a.problems) {
    if (p.severity === 'info' || key.length < a.kind.length + 1 + p.code.length) continue;
    if (!key.startsWith(p.code, a.kind.length + 1)) continue;
    let cause = NO_CAUSE;
    if (hasSeparateCauses(p.code)) {
      const memo = causes.get(`${p.code}\u0000${p.message}`);
      cause = memo ?? separateCause(p.code, p.message) ?? NO_CAUSE;
      if (memo === undefined) causes.set(`${p.code}\u0000${p.message}`, cause);
    }
    if (groupKey(a.kind, p.code, cause === NO_CAUSE ? null : cause) === key) return p;
  }
  return undefined;
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

/** A member of a ledger's group: its problem's time (NaN when missing or unparsable) and id. */
interface Member {
  parsed: number;
  id: string;
  since: string | null;
}

/** Order of a group's members: by time (unparsable last), then id. */
function compareMembers(x: Member, y: Member): number {
  const xm = Number.isNaN(x.parsed) ? Number.POSITIVE_INFINITY : x.parsed;
  const ym = Number.isNaN(y.parsed) ? Number.POSITIVE_INFINITY : y.parsed;
  if (xm !== ym) return xm < ym ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

const sameMember = (held: Member, probe: Member): boolean => held.id === probe.id;

function increment<K>(counts: Map<K, number>, key: K, by: 1 | -1): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}

/** One (kind, reason, cause) group of a ledger: counters and members that take one autoscaler in or out. */
interface GroupLedger {
  kind: AutoscalerKind;
  reason: string;
  cause: string | null;
  /**
   * In `compareMembers` order, in blocks: a group can hold most of the fleet (10,000+ in the bench), and one splice
   * into a flat array that size per change held the event loop for tens of ms when a view caught up with 250 ms of churn.
   */
  members: SortedBlocks<Member>;
  clusters: Map<string, number>;
  namespaces: Map<string, number>;
  severities: Map<ProblemSeverity, number>;
  hints: Map<string, number>;
}

/** What one autoscaler adds to one group: its first problem of that group (a second one is not counted). */
interface Contribution {
  kind: AutoscalerKind;
  code: string;
  cause: string;
  problem: Problem;
}

/** Memos past this many entries start afresh, so messages that vary with time cannot grow them without end. */
const LEDGER_MEMO_LIMIT = 8192;

/**
 * The problem tally of a slice of the fleet kept per change: `add` and `remove` take one autoscaler in or out in
 * time proportional to its problems (and a binary search in each of its groups), and `tally` gives what
 * `tallyProblems` would give over the slice's current autoscalers in id order, in time proportional to the number
 * of groups. The triage keeps one per filter, so a request after changes anywhere in the fleet no longer
 * re-tallies whole clusters (2,000 autoscalers each in the bench) for each one that changed.
 *
 * `remove` must be given the very autoscaler (or an equal one) that `add` was given.
 */
export class ProblemLedger {
  private readonly index = new Map<string, GroupLedger>();
  /** Per metrics API, kind and cluster: autoscalers reading it, and how many of them fail to (the outage rule). */
  private readonly readers = new Map<MetricsApi, Map<AutoscalerKind, Map<string, { total: number; failing: number }>>>();
  private facts = new ProblemFacts();
  private memoUses = 0;
  private readonly sampleSize: number;
  private readonly includeInfo: boolean;

  constructor(options: GroupProblemsOptions = {}) {
    this.sampleSize = options.sampleSize ?? 5;
    this.includeInfo = options.includeInfo ?? false;
  }

  add(a: Autoscaler): void {
    this.apply(a, 1);
  }

  remove(a: Autoscaler): void {
    this.apply(a, -1);
  }

  private apply(a: Autoscaler, by: 1 | -1): void {
    if (++this.memoUses > LEDGER_MEMO_LIMIT) {
      this.facts = new ProblemFacts();
      this.memoUses = 0;
    }
    if (a.kind !== 'MachineAutoscaler') {
      for (const api of METRICS_APIS) {
        if (!readsApi(a, api)) continue;
        const byKind = this.readers.get(api) ?? this.readers.set(api, new Map()).get(api);
        const byCluster = byKind?.get(a.kind) ?? byKind?.set(a.kind, new Map()).get(a.kind);
        if (!byCluster) continue;
        const t = byCluster.get(a.cluster) ?? { total: 0, failing: 0 };
        t.total += by;
        if (failsToRead(a, api, this.facts)) t.failing += by;
        if (t.total === 0) byCluster.delete(a.cluster);
        else byCluster.set(a.cluster, t);
      }
    }
    for (const c of this.contributions(a)) {
      const key = `${c.kind}\u0000${c.code}\u0000${c.cause}`;
      let group = this.index.get(key);
      if (!group) {
        if (by < 0) continue;
        group = {
          kind: c.kind,
          reason: c.code,
          cause: c.cause === NO_CAUSE ? null : c.cause,
          members: new SortedBlocks(compareMembers),
          clusters: new Map(),
          namespaces: new Map(),
          severities: new Map(),
          hints: new Map(),
        };
        this.index.set(key, group);
      }
      const member: Member = { parsed: this.facts.ms(c.problem.since), id: a.id, since: c.problem.since };
      if (by > 0) group.members.insert(member);
      else if (!group.members.remove(member, sameMember)) continue;
      increment(group.clusters, a.cluster, by);
      increment(group.namespaces, a.namespace, by);
      increment(group.severities, c.problem.severity, by);
      increment(group.hints, c.problem.hint, by);
      if (group.members.size === 0) this.index.delete(key);
    }
  }

  private contributions(a: Autoscaler): Contribution[] {
    const out: Contribution[] = [];
    for (const p of a.problems) {
      if (p.severity === 'info' && !this.includeInfo) continue;
      const cause = this.facts.cause(p);
      if (out.some((c) => c.code === p.code && c.cause === cause)) continue;
      out.push({ kind: a.kind, code: p.code, cause, problem: p });
    }
    return out;
  }

  private inOutage(api: MetricsApi, kind: AutoscalerKind, cluster: string): boolean {
    const t = this.readers.get(api)?.get(kind)?.get(cluster);
    return t !== undefined && t.total >= METRICS_OUTAGE_MIN_AUTOSCALERS && t.failing === t.total;
  }

  /** The slice's tally as of `now` (which bounds times from clusters whose clocks run ahead), for `groupTallies`. */
  tally(now: Instant): ProblemTally {
    const nowMs = toEpochMs(now);
    const index: GroupIndex = new Map();
    for (const group of this.index.values()) {
      const byCode = index.get(group.kind) ?? index.set(group.kind, new Map()).get(group.kind);
      const byCause = byCode?.get(group.reason) ?? byCode?.set(group.reason, new Map()).get(group.reason);
      byCause?.set(group.cause ?? NO_CAUSE, this.accumulator(group, nowMs));
    }
    return { index, sampleSize: this.sampleSize };
  }

  private accumulator(group: GroupLedger, nowMs: number): Accumulator {
    let worst: ProblemSeverity = 'info';
    for (const s of group.severities.keys()) if (SEVERITY_RANK[s] > SEVERITY_RANK[worst]) worst = s;
    const hints = [...group.hints.keys()];
    const acc: Accumulator = {
      kind: group.kind,
      reason: group.reason,
      cause: group.cause,
      count: group.members.size,
      lastId: '',
      clusters: new Set(group.clusters.keys()),
      lastCluster: '',
      namespaces: new Set(group.namespaces.keys()),
      lastNamespace: '',
      oldestMs: Number.POSITIVE_INFINITY,
      oldestSince: null,
      worst,
      hint: hints[0] ?? '',
      sameHint: hints.length === 1,
      outageClusters: new Set(),
      outageApi: null,
      samples: [],
    };
    const api = group.cause === null ? METRICS_API_BY_CODE.get(group.reason) : undefined;
    if (api) {
      for (const cluster of acc.clusters) {
        if (!this.inOutage(api, group.kind, cluster)) continue;
        acc.outageApi = api;
        acc.outageClusters.add(cluster);
      }
    }
    this.oldestAndSamples(group.members, nowMs, acc);
    return acc;
  }

  /**
   * `tallyProblems` bounds each time by `now` and keeps the oldest (then smallest id) members: members before `now`
   * in their order, then those at or after it all at `now` (so by id), then those without a time.
   */
  private oldestAndSamples(members: SortedBlocks<Member>, nowMs: number, acc: Accumulator): void {
    // Those before `now` come first in the order: the oldest is the first of them, the samples the first few; only
    // when they are too few to fill the samples is the rest (at or after `now`, then undated) read.
    let before = 0;
    const later: Member[] = [];
    const undated: Member[] = [];
    members.walk(false, undefined, (m) => {
      if (m.parsed < nowMs) {
        if (before === 0) {
          acc.oldestMs = m.parsed;
          acc.oldestSince = m.since;
        }
        before += 1;
        if (acc.samples.length < this.sampleSize) acc.samples.push({ ms: m.parsed, id: m.id });
        return acc.samples.length < this.sampleSize;
      }
      (Number.isNaN(m.parsed) ? undated : later).push(m);
      return true;
    });
    if (acc.samples.length >= this.sampleSize && before > 0) return;
    later.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    const firstLater = later[0];
    if (before === 0 && firstLater) {
      acc.oldestMs = nowMs;
      acc.oldestSince = firstLater.parsed <= nowMs ? firstLater.since : new Date(nowMs).toISOString();
    }
    for (const m of later) {
      if (acc.samples.length >= this.sampleSize) return;
      acc.samples.push({ ms: nowMs, id: m.id });
    }
    for (const m of undated) {
      if (acc.samples.length >= this.sampleSize) return;
      acc.samples.push({ ms: Number.POSITIVE_INFINITY, id: m.id });
    }
  }
}
