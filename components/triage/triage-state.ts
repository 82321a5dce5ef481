import type { AutoscalerSort, ProblemGroup } from '@/lib/api';
import { SEVERITY_RANK } from '@/lib/triage/health-rules';
import type { FilterParams, ListParams } from '../api/paths';
import { apiPaths, pageParams } from '../api/paths';

export const filterKeys = ['kind', 'cluster', 'namespace', 'health', 'reason', 'q'] as const;
export type FilterKey = (typeof filterKeys)[number];

export const triageSorts = ['severity', 'since', 'count', 'cluster', 'name'] as const;
export type TriageSort = (typeof triageSorts)[number];

/** Each sort orders the groups, and the autoscalers of an expanded group the matching way. */
export const triageSortOptions: Record<TriageSort, { label: string; rows: AutoscalerSort }> = {
  severity: { label: 'Worst first', rows: 'health' },
  since: { label: 'Longest broken first', rows: 'since' },
  count: { label: 'Most autoscalers first', rows: 'health' },
  cluster: { label: 'Cluster', rows: 'cluster' },
  name: { label: 'Title / name', rows: 'name' },
};

export interface TriageState {
  filter: FilterParams;
  sort: TriageSort;
  /** The key of the expanded group. */
  group: string | null;
}

function isSort(value: string | null): value is TriageSort {
  return value !== null && (triageSorts as readonly string[]).includes(value);
}

/** A URL change that removes every filter (and keeps the rest of the view). */
export const noFilters = Object.fromEntries(filterKeys.map((k) => [k, null])) as Record<FilterKey, null>;

/** The filters of a URL (`?kind=&cluster=&namespace=&health=&reason=&q=`), blanks left out. */
export function readFilter(params: URLSearchParams): FilterParams {
  const filter: FilterParams = {};
  for (const key of filterKeys) {
    const value = params.get(key)?.trim();
    if (value) filter[key] = value;
  }
  return filter;
}

/** The triage page's view state, read from its URL (`?kind=&cluster=&namespace=&health=&reason=&q=&sort=&group=`). */
export function readTriageState(params: URLSearchParams): TriageState {
  const filter = readFilter(params);
  const sort = params.get('sort');
  return { filter, sort: isSort(sort) ? sort : 'severity', group: params.get('group') || null };
}

export function hasFilters(filter: FilterParams): boolean {
  return filterKeys.some((k) => Boolean(filter[k]));
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The server orders groups worst first; the other orders are applied here, stable on that order. */
export function sortGroups(groups: readonly ProblemGroup[], sort: TriageSort): ProblemGroup[] {
  const indexed = groups.map((g, i) => ({ g, i }));
  const compare: Record<TriageSort, (a: ProblemGroup, b: ProblemGroup) => number> = {
    severity: () => 0,
    since: (a, b) => byString(a.oldestSince ?? '~', b.oldestSince ?? '~'),
    count: (a, b) => b.count - a.count,
    cluster: (a, b) => byString(a.clusters[0] ?? '~', b.clusters[0] ?? '~'),
    name: (a, b) => byString(a.title.toLowerCase(), b.title.toLowerCase()),
  };
  return indexed
    .sort((x, y) => compare[sort](x.g, y.g) || SEVERITY_RANK[y.g.worstSeverity] - SEVERITY_RANK[x.g.worstSeverity] || x.i - y.i)
    .map((x) => x.g);
}

/** The list query of a group's autoscalers: the filter, narrowed by the API to the group (`group=<key>`). */
export function groupListFilter(groupKey: string, filter: FilterParams): FilterParams {
  return { ...filter, group: groupKey };
}

/** Autoscalers of an expanded group asked for at a time as it scrolls. */
export const groupPageSize = 500;

/**
 * The first page of an expanded group: a few screens of rows. A first page of 500 full rows is 1 MB of JSON that the
 * browser parses and checks before the first row shows; the rest come by cursor as the table scrolls.
 */
export const groupFirstPageSize = 100;

/** The list query of an expanded group's autoscalers (its first page, then on by cursor). */
export function groupMembersParams(state: TriageState): Omit<ListParams, 'cursor'> {
  return { ...groupListFilter(state.group ?? '', state.filter), sort: triageSortOptions[state.sort].rows, limit: groupPageSize };
}

/**
 * The API reads the page makes as it opens, as the view builds their URLs: the page names them in its HTML
 * (`<link rel="preload">`), so the browser fetches them beside the scripts instead of after them.
 */
export function triageOpeningReads(state: TriageState): string[] {
  const urls = [apiPaths.me(), apiPaths.clusters(), apiPaths.triage(state.filter)];
  if (state.group) urls.push(apiPaths.autoscalerRows(pageParams(groupMembersParams(state), groupFirstPageSize, undefined)));
  return urls;
}

/** What the export buttons download: the filtered queue, i.e. every autoscaler that is not OK unless a health filter says otherwise. */
export function exportFilter(filter: FilterParams): FilterParams {
  return filter.health ? filter : { ...filter, health: 'failing,degraded,unknown' };
}
