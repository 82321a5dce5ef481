import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AccessScope } from '@/lib/access';
import { canSeeAutoscaler, fullAccess, scopeFor } from '@/lib/access';
import type { Autoscaler, AutoscalerFilter, AutoscalerKind, AutoscalerSort, Health } from '@/lib/api';
import { until } from '@/test/integration/until';
import { AutoscalerSortSchema, toAutoscalerId } from '@/lib/api';
import { groupProblems } from '@/lib/triage';
import { fleet, NOW } from '@/lib/triage/__fixtures__/fleet';
import type { DtoChange } from './change-journal';
import { ChangeJournal } from './change-journal';
import type { ViewSource } from './fleet-views';
import { FleetViews } from './fleet-views';
import { SortedBlocks } from '@/lib/collections/sorted-blocks';
import { decodeCursor, encodeCursor, matchesFilter, sortAutoscalers } from './query';

/** The index's side of the views: its DTOs and the same journal FleetIndex keeps, short enough that views fall behind it and rebuild. */
class FakeIndex implements ViewSource {
  private readonly dtos = new Map<string, Autoscaler>();
  private readonly journal: ChangeJournal;

  constructor(journalCap: number) {
    this.journal = new ChangeJournal(() => journalCap);
  }

  get version(): number {
    return this.journal.version;
  }

  get size(): number {
    return this.dtos.size;
  }

  set(a: Autoscaler): void {
    const old = this.dtos.get(a.id) ?? null;
    this.dtos.set(a.id, a);
    this.journal.record(a.cluster, old, a, this.dtos.size);
  }

  delete(id: string): void {
    const old = this.dtos.get(id);
    if (!old) return;
    this.dtos.delete(id);
    this.journal.record(old.cluster, old, null, this.dtos.size);
  }

  changesSince(revision: number): readonly DtoChange[] | null {
    return this.journal.changesSince(revision);
  }

  releaseChanges(revision: number): void {
    this.journal.release(revision);
  }

  dtosInIdOrder(): Autoscaler[] {
    return [...this.dtos.values()].sort((x, y) => (x.id < y.id ? -1 : 1));
  }

  dtosOfCluster(cluster: string): Autoscaler[] {
    return this.dtosInIdOrder().filter((a) => a.cluster === cluster);
  }

  clusterNames(): string[] {
    return [...new Set([...this.dtos.values()].map((a) => a.cluster))].sort();
  }

  clusterVersion(cluster: string): number {
    return this.journal.clusterVersion(cluster);
  }
}

const templates = fleet();

/** Autoscalers with clashing names, clusters whose ids interleave by prefix, equal problem times written two ways. */
const autoscalerArb = fc
  .record({
    template: fc.integer({ min: 0, max: templates.length - 1 }),
    cluster: fc.constantFrom('prod', 'prod-eu', 'arn:aws:eks:us-east-1:1:cluster/a', 'a'),
    namespace: fc.constantFrom('shop', 'shop-2', 'payments'),
    name: fc.constantFrom('web', 'web-1', 'api', 'w'),
    health: fc.constantFrom<Health>('failing', 'degraded', 'unknown', 'ok'),
    since: fc.option(fc.constantFrom('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00Z', '2026-11-19T00:00:00.000Z'), { nil: null }),
    replicas: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    keepProblems: fc.boolean(),
  })
  .map(({ template, cluster, namespace, name, health, since, replicas, keepProblems }): Autoscaler => {
    const t = templates[template] as Autoscaler;
    const own = since ? [{ code: 'X', severity: 'error' as const, title: 'x', message: 'x', since, hint: 'x' }] : [];
    return {
      ...t,
      cluster,
      namespace,
      name,
      health,
      problems: keepProblems ? [...t.problems, ...own] : own,
      currentReplicas: replicas,
      id: toAutoscalerId(cluster, t.kind, namespace, name),
    };
  });

/** No filter (the whole fleet) half the time, else any mix of fields. */
const filterArb: fc.Arbitrary<AutoscalerFilter> = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      cluster: fc.subarray(['prod', 'prod-eu', 'a'], { minLength: 1 }),
      health: fc.subarray<Health>(['failing', 'degraded', 'ok'], { minLength: 1 }),
      kind: fc.constant<AutoscalerKind[]>(['HorizontalPodAutoscaler']),
      q: fc.constantFrom('web', 'shop x'),
    },
    { requiredKeys: [] },
  ),
);

/**
 * A viewer's scope as the policy file makes it: the whole fleet, nothing, or the union of one to three grants of
 * cluster and namespace globs (some of one kind only) — globs that split the arbitrary fleet's clusters and namespaces.
 */
const scopeArb: fc.Arbitrary<AccessScope> = fc.oneof(
  fc.constant(fullAccess),
  fc
    .array(
      fc.record(
        {
          clusters: fc.subarray(['prod*', 'a', 'arn:*', '*'], { minLength: 1 }),
          namespaces: fc.subarray(['shop*', 'payments', '*'], { minLength: 1 }),
          kinds: fc.constant<AutoscalerKind[]>(['HorizontalPodAutoscaler']),
        },
        { requiredKeys: ['clusters', 'namespaces'] },
      ),
      { maxLength: 3 },
    )
    .map((grants) =>
      scopeFor(
        { defaultRole: 'none', rules: grants.map((g) => ({ ...g, users: ['someone'], groups: [] })) },
        { subject: 'someone', name: 'someone', email: null, groups: [] },
      ),
    ),
);

/** Every page of the view as the list service reads them, cursor after cursor. */
function pages(
  views: FleetViews,
  filter: AutoscalerFilter,
  sort: AutoscalerSort,
  order: 'asc' | 'desc' | undefined,
  limit: number,
  scope: AccessScope = fullAccess,
): { ids: string[]; total: number } {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    let after;
    if (cursor) {
      const check = decodeCursor(cursor, sort, order);
      if (!check.ok) throw new Error(check.message);
      after = check.after;
    }
    const page = views.page(filter, sort, order, limit, after, scope);
    ids.push(...page.items.map((a) => a.id));
    const last = page.items[page.items.length - 1];
    cursor = last && page.more ? encodeCursor(last, sort, order) : null;
    if (!cursor) return { ids, total: page.total };
  }
}

/** A step between two looks: items arrive, change (a new DTO for the id) or leave. */
const stepArb = fc.array(
  fc.oneof(
    autoscalerArb.map((a) => ({ set: a })),
    fc.nat().map((n) => ({ drop: n })),
  ),
  { maxLength: 12 },
);

/** One look at the views: a step of changes first, then every page of a filter in an order, the export and the triage. */
const look = {
  step: stepArb,
  filter: filterArb,
  sort: fc.constantFrom(...AutoscalerSortSchema.options),
  order: fc.constantFrom<'asc' | 'desc' | undefined>('asc', 'desc', undefined),
  limit: fc.integer({ min: 1, max: 9 }),
};

/** Applies one step to the index. */
function applyStep(index: FakeIndex, step: ({ set: Autoscaler } | { drop: number })[]): void {
  for (const s of step) {
    if ('set' in s) index.set(s.set);
    else {
      const ids = index.dtosInIdOrder();
      const victim = ids[s.drop % Math.max(1, ids.length)];
      if (victim) index.delete(victim.id);
    }
  }
}

/** Every page, the export and the triage of the views equal a fresh filter, sort and grouping of what the scope sees. */
function expectAsFresh(
  views: FleetViews,
  index: FakeIndex,
  filter: AutoscalerFilter,
  sort: AutoscalerSort,
  order: 'asc' | 'desc' | undefined,
  limit: number,
  scope: AccessScope = fullAccess,
): void {
  const inIdOrder = index.dtosInIdOrder().filter((a) => canSeeAutoscaler(scope, a) && matchesFilter(a, filter));
  const expected = sortAutoscalers([...inIdOrder], sort, order);
  expect(pages(views, filter, sort, order, limit, scope)).toEqual({ ids: expected.map((a) => a.id), total: expected.length });
  expect(views.all(filter, sort, order, scope).map((a) => a.id)).toEqual(expected.map((a) => a.id));
  const totals = { total: inIdOrder.length, failing: 0, degraded: 0, ok: 0, unknown: 0 };
  for (const a of inIdOrder) totals[a.health] += 1;
  const now = Date.parse(NOW);
  expect(views.triage(filter, now, scope)).toEqual({ groups: groupProblems(inIdOrder, now), totals });
}

describe('FleetViews', () => {
  it('pages, exports and triage of an index that keeps changing equal a fresh filter, sort and grouping', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 50 }),
        fc.array(fc.record(look), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 20 }),
        (initial, looks, journalCap, sortBelow, spliceUpTo) => {
          const index = new FakeIndex(journalCap);
          for (const a of initial) index.set(a);
          const views = new FleetViews(index, { sortBelow, spliceUpTo });
          for (const { step, filter, sort, order, limit } of looks) {
            applyStep(index, step);
            expectAsFresh(views, index, filter, sort, order, limit);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
  it('with sets that keep their own orders, pages, exports and triage of a changing index equal a fresh filter, sort and grouping', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 50 }),
        // A few views read again and again, so each set's own orders take changes between reads.
        fc.array(fc.record({ filter: filterArb, scope: scopeArb, sort: look.sort }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ step: stepArb, view: fc.nat(), order: look.order, limit: look.limit, refresh: fc.boolean() }), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom(0.5, 2),
        (initial, viewed, looks, journalCap, sortBelow, spliceUpTo, ownOrderBelow) => {
          const index = new FakeIndex(journalCap);
          for (const a of initial) index.set(a);
          const views = new FleetViews(index, { sortBelow, spliceUpTo, ownOrderBelow, warmEveryMs: 0 });
          for (const { step, view, order, limit, refresh } of looks) {
            const { filter, scope, sort } = viewed[view % viewed.length] as (typeof viewed)[number];
            applyStep(index, step);
            if (refresh) views.refresh();
            expectAsFresh(views, index, filter, sort, order, limit, scope);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
  it("a scoped viewer's pages, exports and triage equal a fresh filter, sort and grouping of what the scope sees", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 50 }),
        fc.array(fc.record({ ...look, scope: scopeArb }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 30 }),
        (initial, looks, journalCap, sortBelow) => {
          const index = new FakeIndex(journalCap);
          for (const a of initial) index.set(a);
          const views = new FleetViews(index, { sortBelow });
          for (const { step, filter, scope, sort, order, limit } of looks) {
            applyStep(index, step);
            expectAsFresh(views, index, filter, sort, order, limit, scope);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
  it('views refreshed between requests, and dropped when idle, answer as a fresh filter and sort would', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 40 }),
        fc.array(
          fc.record({
            step: stepArb,
            refresh: fc.boolean(),
            idle: fc.integer({ min: 0, max: 10 }),
            filter: filterArb,
            sort: fc.constantFrom(...AutoscalerSortSchema.options),
            order: fc.constantFrom<'asc' | 'desc' | undefined>('asc', 'desc', undefined),
            limit: fc.integer({ min: 1, max: 9 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 40 }),
        (initial, looks, journalCap) => {
          const index = new FakeIndex(journalCap);
          for (const a of initial) index.set(a);
          let clock = 0;
          const views = new FleetViews(index, { sortBelow: 4, spliceUpTo: 3, idleMs: 5, warmEveryMs: 0, now: () => clock });
          for (const { step, refresh, idle, filter, sort, order, limit } of looks) {
            for (const s of step) {
              if ('set' in s) index.set(s.set);
              else {
                const victim = index.dtosInIdOrder()[s.drop % Math.max(1, index.size)];
                if (victim) index.delete(victim.id);
              }
              if (refresh) views.refresh();
            }
            clock += idle;
            views.refresh();
            const expected = sortAutoscalers(
              index.dtosInIdOrder().filter((a) => matchesFilter(a, filter)),
              sort,
              order,
            );
            expect(pages(views, filter, sort, order, limit)).toEqual({ ids: expected.map((a) => a.id), total: expected.length });
            const { cluster: _cluster, ...rest } = filter;
            const ofClusters = index.dtosInIdOrder().filter((a) => !filter.cluster?.length || filter.cluster.includes(a.cluster));
            const inTriage = ofClusters.filter((a) => matchesFilter(a, rest));
            const totals = { total: inTriage.length, failing: 0, degraded: 0, ok: 0, unknown: 0 };
            for (const a of inTriage) totals[a.health] += 1;
            expect(views.triage(filter, Date.parse(NOW))).toEqual({ groups: groupProblems(inTriage, NOW), totals });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('kept warm between requests by its timer, a view a request reads is already current, and the timer stops once all are dropped', async () => {
    const index = new FakeIndex(1000);
    const dtos =
      fc.sample(fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, minLength: 20, maxLength: 20 }), { numRuns: 1, seed: 7 })[0] ?? [];
    for (const a of dtos.slice(0, 10)) index.set(a);
    let clock = 0;
    const views = new FleetViews(index, { idleMs: 1000, warmEveryMs: 5, now: () => clock });
    const filter: AutoscalerFilter = { health: ['failing', 'degraded'] };
    views.page(filter, 'name', 'asc', 100);
    views.order('name');
    views.triage({}, Date.parse(NOW));
    for (const a of dtos.slice(10)) index.set(a);
    expect(views.behind).toBe(3);
    await until(
      () => views.behind,
      (behind) => behind === 0,
      2000,
    );
    const read = vi.spyOn(index, 'changesSince');
    const page = views.page(filter, 'name', 'asc', 100);
    const order = views.order('name').toArray();
    const triage = views.triage({}, Date.parse(NOW));
    expect(read).not.toHaveBeenCalled();
    expect(order.map((a) => a.id)).toEqual(sortAutoscalers(index.dtosInIdOrder(), 'name', 'asc').map((a) => a.id));
    const expected = sortAutoscalers(
      index.dtosInIdOrder().filter((a) => matchesFilter(a, filter)),
      'name',
      'asc',
    );
    expect(page.items.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    expect(triage.groups).toEqual(groupProblems(index.dtosInIdOrder(), NOW));
    clock = 5000;
    await until(
      () => views.kept,
      (k) => k.orders + k.filtered + k.triage === 0,
      2000,
    );
  });

  it('a refresh lets the index forget the changes every kept view has taken in, and the views still catch up', () => {
    const index = new FakeIndex(1000);
    const dtos =
      fc.sample(fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, minLength: 30, maxLength: 30 }), { numRuns: 1, seed: 11 })[0] ?? [];
    for (const a of dtos.slice(0, 10)) index.set(a);
    const views = new FleetViews(index, { idleMs: 1000, warmEveryMs: 0, now: () => 0 });
    const filter: AutoscalerFilter = { health: ['failing', 'degraded'] };
    views.order('name');
    views.matching(filter);
    const built = index.version;
    for (const a of dtos.slice(10, 20)) index.set(a);
    expect(index.changesSince(built)).toHaveLength(10);
    views.refresh();
    // Every kept view took the ten in: the journal no longer holds them (nor the DTOs they replaced).
    expect(index.changesSince(built)).toBeNull();
    expect(index.changesSince(index.version)).toEqual([]);
    const taken = index.version;
    for (const a of dtos.slice(20)) index.set(a);
    const read = vi.spyOn(index, 'changesSince');
    const expected = sortAutoscalers(
      index.dtosInIdOrder().filter((a) => matchesFilter(a, filter)),
      'name',
      'asc',
    );
    expect(views.page(filter, 'name', 'asc', 100).items.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    // Caught up from where the refresh left them, not rebuilt.
    expect(read).toHaveBeenCalledWith(taken);
    expect(read.mock.results.every((r) => r.value !== null)).toBe(true);
    // With nothing kept, everything is forgotten.
    const idle = new FleetViews(index, { warmEveryMs: 0 });
    idle.refresh();
    expect(index.changesSince(index.version - 1)).toBeNull();
  });

  it('a refresh brings kept views up to date and drops those no request read for idleMs', () => {
    const index = new FakeIndex(100);
    let clock = 0;
    const views = new FleetViews(index, { idleMs: 1000, warmEveryMs: 0, now: () => clock });
    views.order('health');
    views.matching({ health: ['failing'] });
    views.triage({ kind: ['HorizontalPodAutoscaler'] }, Date.parse(NOW));
    expect(views.kept).toEqual({ orders: 1, filtered: 1, triage: 1 });
    clock = 999;
    views.refresh();
    expect(views.kept).toEqual({ orders: 1, filtered: 1, triage: 1 });
    views.order('health');
    clock = 1200;
    views.triage({ kind: ['HorizontalPodAutoscaler'] }, Date.parse(NOW));
    clock = 1500;
    views.refresh();
    expect(views.kept).toEqual({ orders: 1, filtered: 0, triage: 1 });
    clock = 2000;
    views.refresh();
    expect(views.kept).toEqual({ orders: 0, filtered: 0, triage: 1 });
    clock = 2300;
    views.refresh();
    expect(views.kept).toEqual({ orders: 0, filtered: 0, triage: 0 });
  });

  it("a sparse filter's pages walk its own order, kept with its set and dropped when no page read it for idleMs", () => {
    const index = new FakeIndex(1000);
    const dtos =
      fc.sample(fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, minLength: 60, maxLength: 60 }), { numRuns: 1, seed: 11 })[0] ?? [];
    for (const a of dtos) index.set(a);
    let clock = 0;
    const views = new FleetViews(index, { sortBelow: 0, ownOrderBelow: 1 / 2, idleMs: 1000, warmEveryMs: 0, now: () => clock });
    const few = index.dtosInIdOrder().slice(0, 10);
    const sparse: AutoscalerFilter = { cluster: [...new Set(few.map((a) => a.cluster))].slice(0, 1) };
    const share = (views.matching(sparse)?.size ?? 0) / index.size;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1 / 2);
    // The full order is not read for a page of the sparse set once it keeps its own.
    views.page(sparse, 'name', 'asc', 5);
    expect(views.ownOrders).toBe(1);
    const walked = vi.spyOn(SortedBlocks.prototype, 'walk');
    views.page(sparse, 'name', 'desc', 5);
    expect(walked).toHaveBeenCalledTimes(1);
    expect(walked.mock.contexts).not.toContain(views.order('name'));
    walked.mockRestore();
    // A set as large as the fleet is walked out of the full order.
    views.page({ health: ['failing', 'degraded', 'ok', 'unknown'] }, 'name', 'asc', 5);
    expect(views.ownOrders).toBe(1);
    clock = 900;
    views.page(sparse, 'cluster', 'asc', 5);
    expect(views.ownOrders).toBe(2);
    clock = 1500;
    views.refresh();
    expect(views.ownOrders).toBe(1);
    clock = 3000;
    views.refresh();
    expect(views.ownOrders).toBe(0);
  });
});
