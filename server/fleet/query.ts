import 'server-only';
import { z } from 'zod';
import type { Autoscaler, AutoscalerFilter, AutoscalerSort, Health } from '@/lib/api';
import { AutoscalerSortSchema } from '@/lib/api';
import { problemInGroup } from '@/lib/triage';

const healthRank: Record<Health, number> = { failing: 0, degraded: 1, unknown: 2, ok: 3 };

/** The earliest `since` of the autoscaler's problems: how long it has been broken. */
export function problemSince(a: Autoscaler): string | null {
  let oldest: string | null = null;
  for (const p of a.problems) if (p.since && (!oldest || p.since < oldest)) oldest = p.since;
  return oldest;
}

/**
 * Since when an autoscaler has been broken, as orders compare it ('~' after every time: never). Worked out each time:
 * a loop over its few problems costs less than a lookup in a per-DTO memo, whose WeakMap was ~42 B an autoscaler at
 * 100,000 (bench:heap), kept for as long as the DTOs.
 */
const sinceKey = (a: Autoscaler): string => problemSince(a) ?? '~';

/**
 * Whether free text's term is in the autoscaler: its names, cluster, kind, target or a problem's code or title, case
 * folded. A term has no whitespace, so looking field by field finds what looking in all of them joined by spaces would.
 * Nothing is kept per DTO: a memo of each DTO's lower-cased text made the first search of a 100,000-autoscaler fleet
 * take ~280 ms (building 100,000 strings and a WeakMap of them, held for as long as the DTOs) for ~45 ms a scan after;
 * field by field every scan takes ~75 ms, and `toLowerCase` of a string with nothing to fold (names are DNS names)
 * allocates nothing.
 */
function hasTerm(a: Autoscaler, term: string): boolean {
  return (
    a.name.toLowerCase().includes(term) ||
    a.namespace.toLowerCase().includes(term) ||
    a.cluster.toLowerCase().includes(term) ||
    a.kind.toLowerCase().includes(term) ||
    a.target.name.toLowerCase().includes(term) ||
    a.problems.some((p) => p.code.toLowerCase().includes(term) || p.title.toLowerCase().includes(term))
  );
}

/**
 * The filter as a test of one autoscaler, its free text split once: a full scan asks it 100,000 times (splitting the
 * text each time cost ~25 ms of such a scan).
 */
export function filterPredicate(f: AutoscalerFilter): (a: Autoscaler) => boolean {
  const terms = f.q ? f.q.toLowerCase().split(/\s+/).filter(Boolean) : [];
  return (a) => {
    if (f.kind?.length && !f.kind.includes(a.kind)) return false;
    if (f.cluster?.length && !f.cluster.includes(a.cluster)) return false;
    if (f.namespace?.length && !f.namespace.includes(a.namespace)) return false;
    if (f.health?.length && !f.health.includes(a.health)) return false;
    if (f.reason?.length && !f.reason.some((r) => a.problems.some((p) => p.code === r) || a.conditions.some((c) => c.reason === r)))
      return false;
    if (f.group) {
      // Causes read from messages, shared across requests; started afresh so varying messages cannot grow it for ever.
      if (groupCauses.size > 8192) groupCauses.clear();
      if (!problemInGroup(a, f.group, groupCauses)) return false;
    }
    return terms.every((term) => hasTerm(a, term));
  };
}

const groupCauses = new Map<string, string>();

/** Whether one autoscaler passes the filter (for one test; a scan takes `filterPredicate` once). */
export function matchesFilter(a: Autoscaler, f: AutoscalerFilter): boolean {
  return filterPredicate(f)(a);
}

const byString = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** Items keyed once: the sort reads fields, not DTO lookups, per comparison. */
interface Keyed {
  a: Autoscaler;
  rank: number;
  since: string;
}

/** How an order reads an item: the DTO's fields, its health's rank, and since when it has been broken (`sinceKey`). */
interface SortKeys<T> {
  dto: (item: T) => Autoscaler;
  rank: (item: T) => number;
  since: (item: T) => string;
}

/** Each order's comparison, ties left to the id; one definition for items keyed once (a sort) and for DTOs (a kept order). */
function comparisons<T>({ dto, rank, since }: SortKeys<T>): Record<AutoscalerSort, (x: T, y: T) => number> {
  return {
    // Worst first, and among equals the longest broken first: "Ready=False for 2 d" above "for 3 min".
    health: (x, y) => rank(x) - rank(y) || byString(since(x), since(y)),
    since: (x, y) => byString(since(x), since(y)),
    name: (x, y) => byString(dto(x).name, dto(y).name),
    namespace: (x, y) => byString(dto(x).namespace, dto(y).namespace) || byString(dto(x).name, dto(y).name),
    cluster: (x, y) =>
      byString(dto(x).cluster, dto(y).cluster) || byString(dto(x).namespace, dto(y).namespace) || byString(dto(x).name, dto(y).name),
    kind: (x, y) => byString(dto(x).kind, dto(y).kind),
    replicas: (x, y) => (dto(y).currentReplicas ?? -1) - (dto(x).currentReplicas ?? -1),
  };
}

/** Keyed items, as a sort of many reads them: rank and since worked out once per item, not per comparison. */
const compare = comparisons<Keyed>({ dto: (k) => k.a, rank: (k) => k.rank, since: (k) => k.since });

/**
 * DTOs, as a kept order reads them: it calls a comparison ~17 times per change it takes in (two binary searches), so
 * it allocates nothing; wrapping both DTOs as `Keyed` per call made a catch-up of 4,096 changes ~90 ms at 100,000.
 */
const compareDtos = comparisons<Autoscaler>({ dto: (a) => a, rank: (a) => healthRank[a.health], since: sinceKey });

function sortedById(items: readonly Autoscaler[]): boolean {
  for (let i = 1; i < items.length; i++) if ((items[i - 1] as Autoscaler).id > (items[i] as Autoscaler).id) return false;
  return true;
}

/**
 * Sorts (a new array); every order ends with the id, so pages are stable, and `desc` is the exact reverse
 * of `asc`. The id tie-break comes from a stable sort of items already in id order (the index keeps its
 * ids sorted; anything else is put in id order first): comparing long ids that share a cluster prefix was
 * most of the time of a 100,000-item sort.
 */
export function sortAutoscalers(items: readonly Autoscaler[], sort: AutoscalerSort, order: 'asc' | 'desc' | undefined): Autoscaler[] {
  const inIdOrder = sortedById(items) ? items : [...items].sort((x, y) => byString(x.id, y.id));
  const keyed: Keyed[] = inIdOrder.map((a) => ({ a, rank: healthRank[a.health], since: sinceKey(a) }));
  keyed.sort(compare[sort]);
  if (order === 'desc') keyed.reverse();
  return keyed.map((k) => k.a);
}

/** The full ascending order of `sort` as one comparison, the id last: what `sortAutoscalers` gives, item by item. */
export function compareAutoscalers(sort: AutoscalerSort): (x: Autoscaler, y: Autoscaler) => number {
  const by = compareDtos[sort];
  return (x, y) => by(x, y) || byString(x.id, y.id);
}

/** What a cursor carries: the last item's place in its order (the fields the order reads, and the id). */
const CursorSchema = z.object({
  v: z.literal(2),
  sort: AutoscalerSortSchema,
  order: z.enum(['asc', 'desc']),
  id: z.string(),
  rank: z.number().int(),
  since: z.string(),
  name: z.string(),
  namespace: z.string(),
  cluster: z.string(),
  kind: z.string(),
  replicas: z.number().int().nullable(),
});

/**
 * A keyset cursor: the next page starts after the last item's place in the order, not at an offset, so a
 * fleet that changes between two pages neither repeats nor skips an item that kept its place.
 */
export function encodeCursor(last: Autoscaler, sort: AutoscalerSort, order: 'asc' | 'desc' | undefined): string {
  const cursor: z.infer<typeof CursorSchema> = {
    v: 2,
    sort,
    order: order ?? 'asc',
    id: last.id,
    rank: healthRank[last.health],
    since: sinceKey(last),
    name: last.name,
    namespace: last.namespace,
    cluster: last.cluster,
    kind: last.kind,
    replicas: last.currentReplicas,
  };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export type CursorCheck = { ok: true; after: (a: Autoscaler) => boolean } | { ok: false; message: string };

/**
 * Reads a cursor for this sort and order. One this server did not make, or made for another order, is a
 * 400 naming why, never a silent first page.
 */
export function decodeCursor(cursor: string, sort: AutoscalerSort, order: 'asc' | 'desc' | undefined): CursorCheck {
  let parsed: z.infer<typeof CursorSchema>;
  try {
    parsed = CursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    return { ok: false, message: 'not a cursor this server issued' };
  }
  if (parsed.sort !== sort || parsed.order !== (order ?? 'asc'))
    return { ok: false, message: `the cursor belongs to sort=${parsed.sort}&order=${parsed.order}; keep the sort of the first page` };
  const at: Keyed = {
    a: {
      id: parsed.id,
      name: parsed.name,
      namespace: parsed.namespace,
      cluster: parsed.cluster,
      kind: parsed.kind,
      currentReplicas: parsed.replicas,
    } as Autoscaler,
    rank: parsed.rank,
    since: parsed.since,
  };
  const by = compare[sort];
  const direction = parsed.order === 'desc' ? -1 : 1;
  return {
    ok: true,
    after: (a) => direction * (by({ a, rank: healthRank[a.health], since: sinceKey(a) }, at) || byString(a.id, at.a.id)) > 0,
  };
}

/** The first index of a sorted view whose item comes after the cursor (binary search: `after` is false, then true). */
export function indexAfter(view: readonly Autoscaler[], after: (a: Autoscaler) => boolean): number {
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(view[mid] as Autoscaler)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const csvColumns = [
  'cluster',
  'kind',
  'namespace',
  'name',
  'health',
  'problems',
  'since',
  'currentReplicas',
  'desiredReplicas',
  'minReplicas',
  'maxReplicas',
  'target',
  'stale',
] as const;

function csvCell(value: unknown): string {
  const s = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  // Quote per RFC 4180; a leading =,+,-,@ is prefixed so a spreadsheet does not run it as a formula.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(items: readonly Autoscaler[]): string {
  const rows = items.map((a) =>
    [
      a.cluster,
      a.kind,
      a.namespace,
      a.name,
      a.health,
      a.problems.map((p) => p.code).join(';'),
      problemSince(a),
      a.currentReplicas,
      a.desiredReplicas,
      a.minReplicas,
      a.maxReplicas,
      `${a.target.kind}/${a.target.name}`,
      a.stale,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${csvColumns.join(',')}\n${rows.join('\n')}${rows.length ? '\n' : ''}`;
}
