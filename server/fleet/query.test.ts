import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Autoscaler, AutoscalerSort, Health } from '@/lib/api';
import { AutoscalerSortSchema, toAutoscalerId } from '@/lib/api';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import { decodeCursor, encodeCursor, indexAfter, matchesFilter, problemSince, sortAutoscalers } from './query';

const healthRank: Record<Health, number> = { failing: 0, degraded: 1, unknown: 2, ok: 3 };
const byString = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** The orders as the API documents them, field by field with the id last: the oracle for the fast sort. */
function reference(items: readonly Autoscaler[], sort: AutoscalerSort, order: 'asc' | 'desc' | undefined): string[] {
  const since = (a: Autoscaler): string => problemSince(a) ?? '~';
  const by: Record<AutoscalerSort, (x: Autoscaler, y: Autoscaler) => number> = {
    health: (x, y) => healthRank[x.health] - healthRank[y.health] || byString(since(x), since(y)),
    since: (x, y) => byString(since(x), since(y)),
    name: (x, y) => byString(x.name, y.name),
    namespace: (x, y) => byString(x.namespace, y.namespace) || byString(x.name, y.name),
    cluster: (x, y) => byString(x.cluster, y.cluster) || byString(x.namespace, y.namespace) || byString(x.name, y.name),
    kind: (x, y) => byString(x.kind, y.kind),
    replicas: (x, y) => (y.currentReplicas ?? -1) - (x.currentReplicas ?? -1),
  };
  const direction = order === 'desc' ? -1 : 1;
  return [...items].sort((x, y) => direction * (by[sort](x, y) || byString(x.id, y.id))).map((a) => a.id);
}

const templates = fleet();

/** Autoscalers drawn from the fixture fleet with clashing names, namespaces, health, problem times and replicas. */
const autoscalerArb = fc
  .record({
    template: fc.integer({ min: 0, max: templates.length - 1 }),
    cluster: fc.constantFrom('prod-eu-west-1', 'prod-us', 'arn:aws:eks:us-east-1:1:cluster/a', 'a'),
    namespace: fc.constantFrom('shop', 'shop-2', 'payments', 's'),
    name: fc.constantFrom('web', 'web-1', 'api', 'w', 'checkout'),
    health: fc.constantFrom<Health>('failing', 'degraded', 'unknown', 'ok'),
    since: fc.option(fc.constantFrom('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00Z', '2026-11-21T00:00:00.000Z'), { nil: null }),
    replicas: fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
  })
  .map(({ template, cluster, namespace, name, health, since, replicas }): Autoscaler => {
    const t = templates[template] as Autoscaler;
    const problems = since ? [{ code: 'X', severity: 'error' as const, title: 'x', message: 'x', since, hint: 'x' }] : [];
    return {
      ...t,
      cluster,
      namespace,
      name,
      health,
      problems: problems,
      currentReplicas: replicas,
      id: toAutoscalerId(cluster, t.kind, namespace, name),
    };
  });

describe('sortAutoscalers', () => {
  it('gives every order of the API, the id breaking ties, whatever order the items come in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 60 }),
        fc.constantFrom(...AutoscalerSortSchema.options),
        fc.constantFrom<'asc' | 'desc' | undefined>('asc', 'desc', undefined),
        fc.boolean(),
        (items, sort, order, presorted) => {
          const input = presorted ? [...items].sort((x, y) => byString(x.id, y.id)) : items;
          expect(sortAutoscalers(input, sort, order).map((a) => a.id)).toEqual(reference(items, sort, order));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('does not reorder its input', () => {
    const items = templates.slice(0, 10);
    const before = items.map((a) => a.id);
    sortAutoscalers(items, 'name', 'desc');
    expect(items.map((a) => a.id)).toEqual(before);
  });
});

/** Pages through views as the list route does: each page starts after the previous page's cursor in the view of its moment. */
function pageThrough(
  viewAt: (page: number) => Autoscaler[],
  sort: AutoscalerSort,
  order: 'asc' | 'desc' | undefined,
  limit: number,
): string[] {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const view = viewAt(page);
    let start = 0;
    if (cursor) {
      const check = decodeCursor(cursor, sort, order);
      if (!check.ok) throw new Error(check.message);
      start = indexAfter(view, check.after);
    }
    const items = view.slice(start, start + limit);
    seen.push(...items.map((a) => a.id));
    const last = items[items.length - 1];
    cursor = last && start + limit < view.length ? encodeCursor(last, sort, order) : null;
    if (!cursor) return seen;
  }
  throw new Error('no end');
}

describe('keyset cursors', () => {
  const sortArb = fc.constantFrom(...AutoscalerSortSchema.options);
  const orderArb = fc.constantFrom<'asc' | 'desc' | undefined>('asc', 'desc', undefined);

  it('pages of a fleet that does not change cover the view once, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 60 }),
        sortArb,
        orderArb,
        fc.integer({ min: 1, max: 7 }),
        (items, sort, order, limit) => {
          const view = sortAutoscalers(items, sort, order);
          expect(pageThrough(() => view, sort, order, limit)).toEqual(view.map((a) => a.id));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when the fleet changes between pages, an item that kept its place is returned exactly once', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, minLength: 5, maxLength: 60 }),
        fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 20 }),
        sortArb,
        orderArb,
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 1000 }),
        (items, arriving, sort, order, limit, seed) => {
          // Between pages, items leave and others arrive; the ones that stay keep their fields.
          const stay = items.filter((_, i) => (i * 7919 + seed) % 3 !== 0);
          const ids = new Set(items.map((a) => a.id));
          const fresh = arriving.filter((a) => !ids.has(a.id));
          const before = sortAutoscalers(items, sort, order);
          const after = sortAutoscalers([...stay, ...fresh], sort, order);
          const seen = pageThrough((page) => (page === 0 ? before : after), sort, order, limit);
          for (const a of stay) expect(seen.filter((id) => id === a.id)).toHaveLength(1);
          expect(new Set(seen).size).toBe(seen.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a cursor from another order, or not from this server, is refused with a reason', () => {
    const a = templates[0] as Autoscaler;
    expect(decodeCursor(encodeCursor(a, 'name', 'asc'), 'health', 'asc')).toEqual({
      ok: false,
      message: expect.stringContaining('sort=name&order=asc'),
    });
    expect(decodeCursor(encodeCursor(a, 'name', 'asc'), 'name', 'desc').ok).toBe(false);
    expect(decodeCursor('garbage', 'name', 'asc')).toEqual({ ok: false, message: 'not a cursor this server issued' });
    expect(decodeCursor(Buffer.from(JSON.stringify({ o: 100 })).toString('base64url'), 'health', undefined).ok).toBe(false);
  });
});

describe('matchesFilter', () => {
  const a = templates.find((t) => t.problems.length > 0) as Autoscaler;

  it('free text needs every term, in any field, case-insensitive', () => {
    const problem = a.problems[0]?.code ?? '';
    expect(matchesFilter(a, { q: `${a.name.toUpperCase()} ${problem.toLowerCase()}` })).toBe(true);
    expect(matchesFilter(a, { q: `${a.name} no-such-term` })).toBe(false);
    expect(matchesFilter(a, { q: a.cluster })).toBe(true);
  });

  it('free text searches the names, cluster, kind, target and problems, each field folded to lower case', () => {
    const problem = a.problems[0];
    const b: Autoscaler = {
      ...a,
      name: 'web',
      namespace: 'shop',
      cluster: 'Prod-EU',
      target: { ...a.target, name: 'Checkout-API' },
      problems: problem ? [{ ...problem, code: 'FailedGetResourceMetric', title: 'Metrics Unavailable' }] : [],
    };
    for (const term of ['web', 'shop', 'prod-eu', 'horizontalpod', 'checkout-api', 'failedgetresource', 'unavailable'])
      expect(matchesFilter({ ...b, kind: 'HorizontalPodAutoscaler' }, { q: term }), term).toBe(true);
    // A term is one word: it is not found across two fields.
    expect(matchesFilter(b, { q: 'web shop' })).toBe(true);
    expect(matchesFilter(b, { q: 'webshop' })).toBe(false);
    expect(matchesFilter(b, { q: 'metrics-unavailable' })).toBe(false);
  });

  it('a changed DTO is searched as it is now, not as it was', () => {
    expect(matchesFilter(a, { q: 'renamed-one' })).toBe(false);
    const renamed = { ...a, name: 'renamed-one' };
    expect(matchesFilter(renamed, { q: 'renamed-one' })).toBe(true);
  });

  it('each filter field narrows; values of one field are alternatives', () => {
    expect(matchesFilter(a, { kind: [a.kind], cluster: [a.cluster, 'other'], health: [a.health] })).toBe(true);
    expect(matchesFilter(a, { namespace: ['not-' + a.namespace] })).toBe(false);
    expect(matchesFilter(a, { reason: [a.problems[0]?.code ?? ''] })).toBe(true);
  });
});
