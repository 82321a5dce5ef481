import 'server-only';
import type { AccessScope } from '@/lib/access';
import { canSeeAutoscaler, canSeeCluster, fullAccess } from '@/lib/access';
import type { Autoscaler, AutoscalerFilter, AutoscalerSort, Health, ProblemGroup } from '@/lib/api';
import type { ProblemTally } from '@/lib/triage';
import { groupTallies, ProblemLedger } from '@/lib/triage';
import type { DtoChange } from './change-journal';
import type { FleetIndex } from './fleet-index';
import { SortedBlocks } from '@/lib/collections/sorted-blocks';

/** What the views read of the index. */
export type ViewSource = Pick<
  FleetIndex,
  'version' | 'size' | 'changesSince' | 'releaseChanges' | 'dtosInIdOrder' | 'dtosOfCluster' | 'clusterNames' | 'clusterVersion'
>;
import { compareAutoscalers, filterPredicate, indexAfter, sortAutoscalers } from './query';

/** The parts of a filter that make a view differ: a cache key's body. */
export function filterKey(f: AutoscalerFilter): unknown[] {
  return [f.kind, f.cluster, f.namespace, f.health, f.reason, f.q, f.group];
}

function filters(f: AutoscalerFilter): boolean {
  return Boolean(f.kind?.length || f.cluster?.length || f.namespace?.length || f.health?.length || f.reason?.length || f.q || f.group);
}

/**
 * A kept set's or ledger's key: the filter's, and the viewer's scope unless it is the whole fleet. Two people whose
 * rules grant the same globs share a scope key (`scopeFor`), so they share the kept views too.
 */
function viewKey(filter: AutoscalerFilter, scope: AccessScope): string {
  return JSON.stringify(scope.all ? filterKey(filter) : [scope.key, ...filterKey(filter)]);
}

/** Passes the filter and is visible to the scope. */
function scopedPredicate(filter: AutoscalerFilter, scope: AccessScope): (a: Autoscaler) => boolean {
  const matches = filterPredicate(filter);
  return scope.all ? matches : (a) => canSeeAutoscaler(scope, a) && matches(a);
}

/** First index whose item is not before `item` in the order (binary search). */
function lowerBound(items: readonly Autoscaler[], item: Autoscaler, cmp: (x: Autoscaler, y: Autoscaler) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(items[mid] as Autoscaler, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A sorted array brought up to date with the changes after it was sorted, merged into a new array in one pass:
 * each changed DTO is found or placed by binary search (O(k log n) comparisons). The order is total (the id
 * last), so the result is the array a full sort would give. (A few changes go into the kept `SortedBlocks` one
 * by one instead; this is for many.)
 */
export function patchOrder(
  items: readonly Autoscaler[],
  changes: readonly DtoChange[],
  cmp: (x: Autoscaler, y: Autoscaler) => number,
): Autoscaler[] {
  const inserted = new Set<Autoscaler>();
  const removed: Autoscaler[] = [];
  for (const { old, now } of changes) {
    if (old && !inserted.delete(old)) removed.push(old);
    if (now) inserted.add(now);
  }
  const adds = [...inserted].sort(cmp);
  const drop: number[] = [];
  for (const r of removed) {
    const i = lowerBound(items, r, cmp);
    if (items[i] === r) drop.push(i);
  }
  drop.sort((x, y) => x - y);
  const out: Autoscaler[] = [];
  let next = 0;
  let d = 0;
  /** Copies items[next, to) minus the dropped positions. */
  const copyUpTo = (to: number): void => {
    while (next < to) {
      const stop = d < drop.length && (drop[d] as number) < to ? (drop[d] as number) : to;
      for (; next < stop; next++) out.push(items[next] as Autoscaler);
      if (next === drop[d]) {
        next++;
        d++;
      }
    }
  };
  for (const add of adds) {
    copyUpTo(lowerBound(items, add, cmp));
    out.push(add);
  }
  copyUpTo(items.length);
  return out;
}

/** Beyond this many changes since a view was built, rebuilding it costs less than catching up. */
function tooMany(changes: readonly DtoChange[] | null, size: number): boolean {
  return !changes || changes.length > (size >> 3) + 256;
}

const MAX_FILTERED = 16;
const MAX_TRIAGE_FILTERS = 8;

interface Kept<T> {
  revision: number;
  value: T;
  /** When a request last read it (ms, the views' clock): unused views stop being kept warm, then go. */
  used: number;
}

interface KeptSet extends Kept<Set<Autoscaler>> {
  filter: AutoscalerFilter;
  scope: AccessScope;
  /**
   * The set's members in the orders pages of it were read in (`ownOrderBelow`), taking the set's changes as the set
   * takes them; dropped with the set, or when no request read one for `idleMs`.
   */
  orders: Map<AutoscalerSort, { value: SortedBlocks<Autoscaler>; used: number }>;
}

/** Options of `FleetViews`; see the constructor. */
export interface FleetViewOptions {
  sortBelow: number;
  /** A filtered set holding less than this share of the index keeps its own order per sort read (see the constructor). */
  ownOrderBelow: number;
  spliceUpTo: number;
  /** A kept order or filtered set no request has read for this long is dropped (its memory and upkeep freed). */
  idleMs: number;
  /** How often kept views are brought up to date between requests (`refresh`); 0: only when a request reads them. */
  warmEveryMs: number;
  now: () => number;
}

const defaultOptions: FleetViewOptions = {
  sortBelow: 512,
  ownOrderBelow: 1 / 4,
  spliceUpTo: 4096,
  idleMs: 10 * 60_000,
  warmEveryMs: 250,
  now: () => performance.now(),
};

export interface ViewPage {
  items: Autoscaler[];
  total: number;
  /** Items of the view follow the page. */
  more: boolean;
}

export interface TriageView {
  groups: ProblemGroup[];
  totals: Record<Health, number> & { total: number };
}

/** The problems and health totals of one triage filter, kept per change. */
interface KeptTriage {
  revision: number;
  filter: AutoscalerFilter;
  scope: AccessScope;
  ledger: ProblemLedger;
  totals: Record<Health, number>;
  /** The ledger's tally, made at the first request after it last changed. */
  tally: ProblemTally | null;
  used: number;
}

/**
 * The list and triage views of one index, kept incrementally so a request costs about the same whether or
 * not the fleet changed since the last one:
 * - each sort order is kept in blocks (`SortedBlocks`) that take the index's change journal one change at a
 *   time, built in full only on first use or after falling behind the journal;
 * - each recently used filter keeps its set of matching DTOs, updated from the journal;
 * - a page is found by binary search for the cursor in the order, then a walk: a filter that matches less than a
 *   quarter of the index walks its set's own order (its members, kept in each order read), any other filter the
 *   full order, keeping its members (or, for a small set of a small index, a sort of the set);
 * - the triage keeps one problem ledger per filter (`ProblemLedger`), which takes each change in and out, so a
 *   request groups what the ledger holds without reading the autoscalers.
 * A viewer's scope (which clusters, namespaces and kinds a person may see) is one more filter: a scoped viewer's
 * set (scope and filter together) and triage ledger are kept like a filter's, under a key that includes the scope's.
 */
export class FleetViews {
  private readonly orders = new Map<AutoscalerSort, Kept<SortedBlocks<Autoscaler>>>();
  private readonly filtered = new Map<string, KeptSet>();
  private readonly options: FleetViewOptions;
  private warm: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly tallies = new Map<string, KeptTriage>();

  /**
   * `spliceUpTo`: a kept order catches up with at most this many changes one by one (each a binary search and a splice
   * within one block of `SortedBlocks`); with more it is rebuilt by one merge (`patchOrder`). `ownOrderBelow`: a filtered
   * set holding less than this share of the index keeps its members in each order a page of it is read in, updated with
   * the set, so a page costs a binary search and the page whatever the filter's share: walked out of the full order, a
   * page of one cluster of fifty (2,000 of 100,000 autoscalers) tested ~5,000 DTOs against the set, and the fleet
   * bench's twenty clients on distinct pages spent a sixth of the event loop there; sorted per request, the 500 of a
   * text search took another 5% (docs/performance.md). `sortBelow`: a set with no order of its own (a quarter of a
   * small index or more) at most this large is sorted per request instead of walked out of the full order.
   */
  constructor(
    private readonly index: ViewSource,
    options: Partial<FleetViewOptions> = {},
  ) {
    this.options = { ...defaultOptions, ...options };
  }

  /** Every DTO in the ascending order of `sort` (the id last). */
  order(sort: AutoscalerSort): SortedBlocks<Autoscaler> {
    const kept = this.currentOrder(sort, this.orders.get(sort));
    kept.used = this.options.now();
    this.orders.set(sort, kept);
    this.keepWarm();
    return kept.value;
  }

  private currentOrder(sort: AutoscalerSort, kept: Kept<SortedBlocks<Autoscaler>> | undefined): Kept<SortedBlocks<Autoscaler>> {
    const revision = this.index.version;
    if (kept?.revision === revision) return kept;
    const changes = kept ? this.index.changesSince(kept.revision) : null;
    const cmp = compareAutoscalers(sort);
    const value =
      !kept || !changes || tooMany(changes, kept.value.size)
        ? new SortedBlocks(cmp, sortAutoscalers(this.index.dtosInIdOrder(), sort, 'asc'))
        : this.caughtUp(kept.value, changes, cmp);
    return { revision, value, used: kept?.used ?? 0 };
  }

  /** A kept order with `changes` taken in: one by one up to `spliceUpTo` of them, else one merge into a new order. */
  private caughtUp(
    value: SortedBlocks<Autoscaler>,
    changes: readonly DtoChange[],
    cmp: (x: Autoscaler, y: Autoscaler) => number,
  ): SortedBlocks<Autoscaler> {
    if (changes.length > this.options.spliceUpTo) return new SortedBlocks(cmp, patchOrder(value.toArray(), changes, cmp));
    // In the journal's order: a DTO replaced twice is removed as the version the order holds at that point.
    for (const { old, now } of changes) {
      if (old && now) value.replace(old, now);
      else if (old) value.remove(old);
      else if (now) value.insert(now);
    }
    return value;
  }

  /** The DTOs that pass the filter and that the scope sees, or null when neither leaves anything out. */
  matching(filter: AutoscalerFilter, scope: AccessScope = fullAccess): ReadonlySet<Autoscaler> | null {
    return this.keptSet(filter, scope)?.value ?? null;
  }

  /** The kept set of `matching`, brought up to date (null when neither filter nor scope leaves anything out). */
  private keptSet(filter: AutoscalerFilter, scope: AccessScope): KeptSet | null {
    if (scope.all && !filters(filter)) return null;
    const key = viewKey(filter, scope);
    const kept = this.currentSet(filter, scope, this.filtered.get(key));
    kept.used = this.options.now();
    // Most recently used last: the first is the one to drop.
    this.filtered.delete(key);
    this.filtered.set(key, kept);
    if (this.filtered.size > MAX_FILTERED) this.filtered.delete(this.filtered.keys().next().value as string);
    this.keepWarm();
    return kept;
  }

  /**
   * The kept set's members in the ascending order of `sort`, kept with the set once a page or export of it is read in
   * that order; null while the set holds `ownOrderBelow` of the index or more (walking the full order finds a page's
   * members among a few times as many DTOs).
   */
  private ownOrder(kept: KeptSet, sort: AutoscalerSort): SortedBlocks<Autoscaler> | null {
    let order = kept.orders.get(sort);
    if (!order) {
      if (kept.value.size >= this.index.size * this.options.ownOrderBelow) return null;
      order = { value: new SortedBlocks(compareAutoscalers(sort), sortAutoscalers([...kept.value], sort, 'asc')), used: 0 };
      kept.orders.set(sort, order);
    }
    order.used = this.options.now();
    return order.value;
  }

  private currentSet(filter: AutoscalerFilter, scope: AccessScope, kept: KeptSet | undefined): KeptSet {
    const revision = this.index.version;
    if (kept?.revision === revision) return kept;
    const changes = kept ? this.index.changesSince(kept.revision) : null;
    const matches = scopedPredicate(filter, scope);
    if (kept && !tooMany(changes, this.index.size)) {
      // What entered and left the set, for the set's own orders (journal order kept, as a kept order takes it).
      const moves: DtoChange[] | null = kept.orders.size > 0 ? [] : null;
      for (const { old, now } of changes ?? []) {
        const left = old !== null && kept.value.delete(old);
        const joined = now !== null && matches(now);
        if (joined) kept.value.add(now);
        if (moves && (left || joined)) moves.push({ old: left ? old : null, now: joined ? now : null });
      }
      if (moves && moves.length > 0)
        for (const [sort, order] of kept.orders) order.value = this.caughtUp(order.value, moves, compareAutoscalers(sort));
      kept.revision = revision;
      return kept;
    }
    // Made afresh: its orders are made again when a page reads them.
    const value = new Set(this.candidates(filter, scope).filter(matches));
    return { revision, value, used: kept?.used ?? 0, filter, scope, orders: new Map() };
  }

  /** What a full scan for the filter and scope reads: the clusters the filter names and the scope may see, else every DTO. */
  private candidates(filter: AutoscalerFilter, scope: AccessScope): Autoscaler[] {
    if (filter.cluster?.length) return [...new Set(filter.cluster)].flatMap((c) => this.index.dtosOfCluster(c));
    if (scope.all) return this.index.dtosInIdOrder();
    return this.index.clusterNames().flatMap((c) => (canSeeCluster(scope, c) ? this.index.dtosOfCluster(c) : []));
  }

  /**
   * Brings every kept order and filtered set up to date with the index, and drops those unused for `idleMs`.
   * Run between requests (every `warmEveryMs`), so a request finds its view current: without it, a view no request read
   * while the fleet churned falls behind the journal and the next request pays a full sort (~100–180 ms at
   * 100,000 autoscalers), and every request pays for the changes since the one before it.
   */
  refresh(): void {
    for (const step of this.refreshSteps()) step();
    this.releaseTaken();
  }

  /**
   * `refresh` one view per turn of the event loop: at 100,000 autoscalers and a few thousand changes a second, the
   * changes of 250 ms applied to every kept order, filter and triage ledger in one piece held requests for tens of ms.
   */
  private async refreshInTurns(): Promise<void> {
    for (const step of this.refreshSteps()) {
      step();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.releaseTaken();
  }

  /**
   * Lets the index forget the changes every kept view has taken in (all of them when none is kept): the journal's
   * replaced DTOs were ~0.26 KiB an autoscaler of a 20,000-HPA index's heap (`npm run bench:heap`), held only for
   * views that had them already. The views are one per index (`fleetViews`), so no other reader needs them.
   */
  private releaseTaken(): void {
    let oldest = this.index.version;
    for (const kept of [...this.orders.values(), ...this.filtered.values(), ...this.tallies.values()])
      oldest = Math.min(oldest, kept.revision);
    this.index.releaseChanges(oldest);
  }

  /** One step per kept view: drop it when idle, else bring it up to date (each reads the view again: a request may have moved it). */
  private refreshSteps(): (() => void)[] {
    const now = this.options.now();
    const idle = (used: number): boolean => now - used > this.options.idleMs;
    return [
      ...[...this.orders.keys()].map((sort) => (): void => {
        const kept = this.orders.get(sort);
        if (!kept) return;
        if (idle(kept.used)) this.orders.delete(sort);
        else this.orders.set(sort, this.currentOrder(sort, kept));
      }),
      ...[...this.filtered.keys()].map((key) => (): void => {
        const kept = this.filtered.get(key);
        if (!kept) return;
        if (idle(kept.used)) this.filtered.delete(key);
        else {
          for (const [sort, order] of kept.orders) if (idle(order.used)) kept.orders.delete(sort);
          this.filtered.set(key, this.currentSet(kept.filter, kept.scope, kept));
        }
      }),
      ...[...this.tallies.keys()].map((key) => (): void => {
        const kept = this.tallies.get(key);
        if (!kept) return;
        if (idle(kept.used)) this.tallies.delete(key);
        else this.tallies.set(key, this.currentTriage(kept.filter, kept.scope, kept));
      }),
    ];
  }

  /** How many kept views the index has moved past (for tests and stats). */
  get behind(): number {
    const version = this.index.version;
    let n = 0;
    for (const kept of [...this.orders.values(), ...this.filtered.values(), ...this.tallies.values()]) if (kept.revision !== version) n++;
    return n;
  }

  /** How many filtered sets' own orders are kept (`ownOrderBelow`; for tests). */
  get ownOrders(): number {
    let n = 0;
    for (const kept of this.filtered.values()) n += kept.orders.size;
    return n;
  }

  /** How many orders and filtered sets are kept (for tests and stats). */
  get kept(): { orders: number; filtered: number; triage: number } {
    return { orders: this.orders.size, filtered: this.filtered.size, triage: this.tallies.size };
  }

  /**
   * While anything is kept, refresh every `warmEveryMs`; the timer stops once idle views are all dropped, and it
   * never keeps the process alive.
   */
  private keepWarm(): void {
    if (this.warm || this.options.warmEveryMs <= 0) return;
    this.warm = setInterval(() => {
      // A pass still under way (one view per turn) is not started twice.
      this.refreshing ??= this.refreshInTurns().finally(() => {
        this.refreshing = null;
        if (this.orders.size + this.filtered.size + this.tallies.size === 0 && this.warm) {
          clearInterval(this.warm);
          this.warm = null;
        }
      });
    }, this.options.warmEveryMs);
    this.warm.unref();
  }

  /** A page of the filtered view in `sort`/`order`, starting after the cursor's place (`after`). */
  page(
    filter: AutoscalerFilter,
    sort: AutoscalerSort,
    order: 'asc' | 'desc' | undefined,
    limit: number,
    after?: (a: Autoscaler) => boolean,
    scope: AccessScope = fullAccess,
  ): ViewPage {
    const kept = this.keptSet(filter, scope);
    const matched = kept?.value;
    const own = kept ? this.ownOrder(kept, sort) : null;
    if (matched && !own && matched.size <= this.options.sortBelow) {
      const view = sortAutoscalers([...matched], sort, order);
      const start = after ? indexAfter(view, after) : 0;
      return { items: view.slice(start, start + limit), total: view.length, more: start + limit < view.length };
    }
    const asc = own ?? this.order(sort);
    const items: Autoscaler[] = [];
    let more = false;
    // From the cursor's place (binary search over the blocks, then within one), keeping the filter's members.
    asc.walk(order === 'desc', after, (a) => {
      if (matched && !own && !matched.has(a)) return true;
      if (items.length < limit) {
        items.push(a);
        return true;
      }
      more = true;
      return false;
    });
    return { items, total: matched ? matched.size : asc.size, more };
  }

  /** The whole filtered view in `sort`/`order` (exports). */
  all(filter: AutoscalerFilter, sort: AutoscalerSort, order: 'asc' | 'desc' | undefined, scope: AccessScope = fullAccess): Autoscaler[] {
    const kept = this.keptSet(filter, scope);
    const own = kept ? this.ownOrder(kept, sort) : null;
    const view = own
      ? own.toArray()
      : this.order(sort)
          .toArray()
          .filter((a) => !kept || kept.value.has(a));
    return order === 'desc' ? view.reverse() : view;
  }

  /** Problem groups and health totals of the filtered fleet the scope sees, from the ledger of that filter and scope. */
  triage(filter: AutoscalerFilter, now: number, scope: AccessScope = fullAccess): TriageView {
    const key = viewKey(filter, scope);
    const kept = this.currentTriage(filter, scope, this.tallies.get(key));
    kept.used = this.options.now();
    // Most recently used last: the first is the one to drop.
    this.tallies.delete(key);
    this.tallies.set(key, kept);
    if (this.tallies.size > MAX_TRIAGE_FILTERS) this.tallies.delete(this.tallies.keys().next().value as string);
    this.keepWarm();
    kept.tally ??= kept.ledger.tally(now);
    const { failing, degraded, ok, unknown } = kept.totals;
    return { groups: groupTallies([kept.tally]), totals: { total: failing + degraded + ok + unknown, failing, degraded, ok, unknown } };
  }

  /** A triage filter's ledger brought up to date with the index (built on first use or when behind the journal). */
  private currentTriage(filter: AutoscalerFilter, scope: AccessScope, kept: KeptTriage | undefined): KeptTriage {
    const revision = this.index.version;
    if (kept?.revision === revision) return kept;
    const changes = kept ? this.index.changesSince(kept.revision) : null;
    const catchUp = kept && !tooMany(changes, this.index.size);
    const into: KeptTriage = catchUp
      ? kept
      : {
          revision,
          filter,
          scope,
          ledger: new ProblemLedger(),
          totals: { failing: 0, degraded: 0, ok: 0, unknown: 0 },
          tally: null,
          used: kept?.used ?? 0,
        };
    const matches = scopedPredicate(filter, scope);
    const take = (a: Autoscaler, by: 1 | -1): void => {
      if (!matches(a)) return;
      if (by > 0) into.ledger.add(a);
      else into.ledger.remove(a);
      into.totals[a.health] += by;
      into.tally = null;
    };
    if (catchUp) {
      for (const { old, now } of changes ?? []) {
        if (old) take(old, -1);
        if (now) take(now, 1);
      }
    } else {
      for (const a of this.candidates(filter, scope)) take(a, 1);
    }
    into.revision = revision;
    return into;
  }
}

const viewsOf = new WeakMap<FleetIndex, FleetViews>();

/** The views kept for an index (one per index, made on first use). */
export function fleetViews(index: FleetIndex): FleetViews {
  let views = viewsOf.get(index);
  if (!views) {
    views = new FleetViews(index);
    viewsOf.set(index, views);
  }
  return views;
}
