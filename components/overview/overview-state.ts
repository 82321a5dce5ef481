import { apiPaths } from '../api/paths';

/** Transitions the overview's feed shows. */
export const feedLimit = 50;

/** Whether the URL asks the feed for every transition (`?feed=all`) rather than the notable ones only. */
export function feedShowsAll(params: URLSearchParams): boolean {
  return params.get('feed') === 'all';
}

/** The API reads the overview makes as it opens, as its parts build their URLs (the page preloads them with its HTML). */
export function overviewOpeningReads(params: URLSearchParams): string[] {
  return [apiPaths.me(), apiPaths.clusters(), apiPaths.triage({}), apiPaths.transitions(feedLimit, { notable: !feedShowsAll(params) })];
}
