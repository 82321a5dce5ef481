import { readFileSync } from 'node:fs';
import type { RequestLogEntry } from '@/sim/api/api-server';
import type { Transition } from '@/sim/world/ground-truth';
import type { World } from '@/sim/world/world';
import type { Comparison, RecordedRow } from './compare';
import { compareWithTruth } from './compare';

/** When each request to the simulator ended (its log entry is written then): a watch serves events until it ends. */
export function timeRequestLog(world: World): WeakMap<object, number> {
  const endedAt = new WeakMap<object, number>();
  const requestLog = world.fleet.requestLog;
  const push = requestLog.push.bind(requestLog);
  requestLog.push = (...entries) => {
    for (const e of entries) endedAt.set(e, Date.now());
    return push(...entries);
  };
  return endedAt;
}

/**
 * A process killed with SIGKILL: when, which clusters' streams it held then, each cluster's resourceVersion at
 * that moment, and a second before it (`inFlightSecond` apart): what the simulator wrote into a stream in the
 * last moments may have been in the socket, the ingest queue or an uncommitted write when the process died.
 */
export interface Kill {
  at: number;
  /** The clusters whose streams open at `at` were this process' (all of them when one process watched everything). */
  clusters: (cluster: string) => boolean;
  rvAt: ReadonlyMap<string, number>;
  rvBefore: ReadonlyMap<string, number>;
}

/** How long before a kill what a process was sent may have been lost with it. */
export const inFlightSecond = 1_000;

/** Each cluster's resourceVersion in the simulator now. */
export function resourceVersions(world: World, clusters: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of clusters) out.set(c, Number(world.fleet.cluster(c).store.resourceVersion));
  return out;
}

/**
 * The versions each cluster's resource (`cluster|path`) was served in, from the simulator's request log: a list's
 * version, a watch's [fromRv, rv]. What a killed process was served is cut: after the kill it read nothing, so only
 * what the simulator had written by then counts (`rvAt`); with `inFlight`, only what it had written a second
 * before (`rvBefore`), since what the process read in its last second may not have been written yet.
 */
export function servedRangesOf(
  requestLog: readonly RequestLogEntry[],
  kills: readonly Kill[],
  inFlight: boolean,
): Map<string, [number, number][]> {
  const servedRanges = new Map<string, [number, number][]>();
  for (const e of requestLog) {
    if (e.status !== 200 || e.method !== 'GET' || !e.rv) continue;
    const key = `${e.cluster}|${e.path}`;
    const ranges = servedRanges.get(key) ?? [];
    // A request of a killed process (one it made before the kill, on a cluster it watched): what the simulator
    // wrote into it after the cut was not kept by the process. That holds for a stream still open at the kill and
    // for one that ended in its last second (a cut, a 5xx) alike, and for a list answered then. A watch opened in
    // that second delivered everything it carried then, however old — a watch resumed after an outage replays the
    // changes since its resourceVersion at once — so all of it was in flight.
    const from = Number(e.fromRv ?? e.rv);
    let cut = Infinity;
    for (const k of kills) {
      const at = Date.parse(e.at);
      if (at >= k.at || !k.clusters(e.cluster)) continue;
      const openedInFlight = inFlight && e.verb === 'watch' && at >= k.at - inFlightSecond;
      cut = Math.min(cut, openedInFlight ? from - 1 : ((inFlight ? k.rvBefore : k.rvAt).get(e.cluster) ?? Infinity));
    }
    if (e.verb !== 'watch' && Number(e.rv) > cut) continue;
    if (e.verb === 'watch' && cut < from) continue;
    ranges.push(e.verb === 'watch' ? [from, Math.min(Number(e.rv), cut)] : [Number(e.rv), Number(e.rv)]);
    servedRanges.set(key, ranges);
  }
  return servedRanges;
}

export interface Judgement extends Comparison {
  duplicateSegments: number;
  /** Each pair of consecutive rows of one condition with the same state. */
  duplicates: [RecordedRow, RecordedRow][];
  servedLagMs: number;
  lagged: string[];
  recordedBy: Map<string, RecordedRow[]>;
  /**
   * For each missing transition, the answers that served its state (what makes it due rather than unobservable
   * or lost in flight): a failure then says which request, from which moment, showed what was not recorded.
   */
  missingServedBy: string[];
}

/**
 * What the processes under test recorded (`rows`, every history row in write order), judged against the
 * simulator's ground truth (compare.ts). Called after the simulator stopped (its ground truth is flushed).
 */
export function judgeHistory(input: {
  world: World;
  endedAt: WeakMap<object, number>;
  rows: readonly RecordedRow[];
  stoppedAt: number;
  kills: readonly Kill[];
}): Judgement {
  const { world, endedAt, stoppedAt } = input;
  const requestLog = world.fleet.requestLog;
  const memberParent = new Map<string, string>();
  for (const c of world.options.scenario.clusters) for (const m of c.members) memberParent.set(m, c.name);
  const kubeName = (gt: string): string => (memberParent.has(gt) ? `${memberParent.get(gt)}/${gt}` : gt);
  const truth = readFileSync(world.truth.file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Transition)
    .filter((t) => t.kind === 'HorizontalPodAutoscaler' || t.kind === 'FederatedHPA');
  const recordedBy = new Map<string, RecordedRow[]>();
  for (const r of input.rows) {
    const key = `${r.id}|${r.type}`;
    recordedBy.set(key, [...(recordedBy.get(key) ?? []), r]);
  }
  const truthBy = new Map<string, Transition[]>();
  for (const t of truth) {
    const key = `${kubeName(t.cluster)}/${t.kind}/${t.namespace}/${t.name}|${t.type}`;
    truthBy.set(key, [...(truthBy.get(key) ?? []), t]);
  }
  // Whole seconds in the ground truth; what changed in the last seconds before the end could not be seen yet.
  const horizon = new Date(stoppedAt - 5_000).toISOString();
  const resourcePathOf = (kind: string): string =>
    kind === 'FederatedHPA' ? '/apis/autoscaling.karmada.io/v1alpha1/federatedhpas' : '/apis/autoscaling/v2/horizontalpodautoscalers';
  /**
   * What is due: the ground-truth transitions up to the latest object version of each cluster's resource
   * that was served (a list's version, a watch's last event). A watch still in its restart backoff when the
   * run stopped had not replayed the last seconds yet; how far behind the least recently served one was is
   * a figure of its own (`servedLagMs`, bounded by the 15 s backoff cap).
   */
  const servedRv = new Map<string, number>();
  const servedUntil = new Map<string, number>();
  for (const e of requestLog) {
    if (e.status !== 200 || e.method !== 'GET') continue;
    const key = `${e.cluster}|${e.path}`;
    servedUntil.set(key, Math.max(servedUntil.get(key) ?? 0, endedAt.get(e) ?? Date.parse(e.at)));
    if (e.rv) servedRv.set(key, Math.max(servedRv.get(key) ?? 0, Number(e.rv)));
  }
  let servedLagMs = 0;
  const lagged: string[] = [];
  for (const t of truth) {
    const served = servedUntil.get(`${t.cluster}|${resourcePathOf(t.kind)}`) ?? 0;
    const lag = stoppedAt - served;
    if (lag > servedLagMs) servedLagMs = lag;
    if (lag > 5_000 && !lagged.includes(`${t.cluster} ${t.kind}`)) lagged.push(`${t.cluster} ${t.kind}`);
  }
  /**
   * Proof that a state was never served to Autoscope, by object version. The simulator logs, for each list,
   * the version it served, and for each watch that served, the version it started from and the last one it
   * delivered: the client saw every change in [from, last]. A state written at `t.rv` and replaced at
   * `next.rv` was served when some list's version or some watch's range falls in [t.rv, next.rv); when none
   * does — a cluster down or failing while its watch window moved on (410, relist), a process killed — it was
   * never served to any Autoscope process, and cannot have been recorded.
   */
  const servedRangesUpTo = (inFlight: boolean) => servedRangesOf(requestLog, input.kills, inFlight);
  const neverServed = (servedRanges: Map<string, [number, number][]>) => (t: Transition, next: Transition | undefined) => {
    if (!next) return false;
    const ranges = servedRanges.get(`${t.cluster}|${resourcePathOf(t.kind)}`) ?? [];
    const [from, to] = [Number(t.rv), Number(next.rv)];
    return !ranges.some(([a, b]) => a < to && b >= from);
  };
  // What a killed process was sent in its last second and no other answer showed: lost with it (in the
  // socket, the ingest queue, an uncommitted write), reported on its own.
  const comparison = compareWithTruth({
    truthBy,
    recordedBy,
    due: (t) => t.at < horizon && Number(t.rv) <= (servedRv.get(`${t.cluster}|${resourcePathOf(t.kind)}`) ?? 0),
    unobservableState: neverServed(servedRangesUpTo(false)),
    lostInFlight: neverServed(servedRangesUpTo(true)),
  });
  const missingServedBy = comparison.missing.slice(0, 10).map((m) => {
    const list = truthBy.get(`${m.id}|${m.type}`) ?? [];
    const i = list.findIndex((t) => t.rv === m.rv && t.status === m.status && t.reason === m.reason);
    const t = list[i];
    const next = list[i + 1];
    if (!t) return `${m.id} ${m.type} rv ${m.rv}: not found`;
    const [from, to] = [Number(t.rv), next ? Number(next.rv) : Infinity];
    const served = requestLog
      .filter((e) => e.status === 200 && e.method === 'GET' && e.rv && e.cluster === t.cluster && e.path === resourcePathOf(t.kind))
      .filter((e) => {
        const [a, b] = e.verb === 'watch' ? [Number(e.fromRv ?? e.rv), Number(e.rv)] : [Number(e.rv), Number(e.rv)];
        return a < to && b >= from;
      })
      .map((e) => {
        const ended = endedAt.get(e);
        return `${e.verb} ${e.at}–${ended ? new Date(ended).toISOString() : 'open'} [${e.fromRv ?? e.rv}, ${e.rv}]`;
      });
    return `${m.id} ${m.type} ${m.status}/${m.reason} rv ${m.rv}–${next?.rv ?? '…'}: served by ${served.join('; ') || 'nothing'}`;
  });
  let duplicateSegments = 0;
  const duplicates: [RecordedRow, RecordedRow][] = [];
  for (const list of recordedBy.values()) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1], list[i]];
      if (a && b && a.reason !== 'Deleted' && a.uid === b.uid && a.status === b.status && a.reason === b.reason) {
        duplicateSegments += 1;
        duplicates.push([a, b]);
      }
    }
  }
  return { ...comparison, duplicateSegments, duplicates, servedLagMs, lagged, recordedBy, missingServedBy };
}
