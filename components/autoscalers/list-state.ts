import type { AutoscalerSort } from '@/lib/api';
import { AutoscalerSortSchema } from '@/lib/api';
import type { FilterParams, ListParams } from '../api/paths';
import { apiPaths } from '../api/paths';
import { readFilter } from '../triage/triage-state';

/** Autoscalers the list asks for at a time. */
export const listPageSize = 200;

export interface ListState {
  filter: FilterParams;
  sort: AutoscalerSort;
}

/** The autoscaler list's view state, read from its URL (the triage filters, and `?sort=`). */
export function readListState(params: URLSearchParams): ListState {
  const sort = AutoscalerSortSchema.safeParse(params.get('sort'));
  return { filter: readFilter(params), sort: sort.success ? sort.data : 'health' };
}

/** The list query (its first page, then on by cursor). */
export function listParams(state: ListState): Omit<ListParams, 'cursor'> {
  return { ...state.filter, sort: state.sort, limit: listPageSize };
}

/** The API reads the page makes as it opens, as the view builds their URLs (the page preloads them with its HTML). */
export function listOpeningReads(state: ListState): string[] {
  return [apiPaths.me(), apiPaths.clusters(), apiPaths.autoscalerRows(listParams(state))];
}
