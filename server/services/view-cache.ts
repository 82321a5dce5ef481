import 'server-only';
import type { Autoscaler, AutoscalerFilter, AutoscalerQuery } from '@/lib/api';
import { matchesFilter, sortAutoscalers } from '../fleet/query';
import type { Autoscope } from '../runtime';

/**
 * Filtered and sorted views and triage groupings, kept while the index has not changed: paging through a
 * view, exporting it and several browsers showing the same one cost one computation. A few views per
 * process; the least recently used goes first.
 */
const views = new WeakMap<Autoscope, Map<string, { version: number; value: unknown }>>();
const maxViews = 8;

/** `compute()`, or its value from the last call with this key while the index's version has not moved. */
export function cachedView<T>(app: Autoscope, key: string, compute: () => T): T {
  let cache = views.get(app);
  if (!cache) {
    cache = new Map();
    views.set(app, cache);
  }
  const hit = cache.get(key);
  cache.delete(key);
  const value = hit && hit.version === app.index.version ? (hit.value as T) : compute();
  cache.set(key, { version: app.index.version, value });
  if (cache.size > maxViews) cache.delete(cache.keys().next().value as string);
  return value;
}

/** The parts of a filter that make a view differ: the cache key's body. */
export function filterKey(f: AutoscalerFilter): unknown[] {
  return [f.kind, f.cluster, f.namespace, f.health, f.reason, f.q];
}

/** The index's autoscalers that pass the filter, in id order. */
export function filteredView(app: Autoscope, filter: AutoscalerFilter): Autoscaler[] {
  return app.index.dtosInIdOrder().filter((dto) => matchesFilter(dto, filter));
}

/** The filtered autoscalers in the query's sort order (cached). */
export function sortedView(app: Autoscope, query: AutoscalerQuery): Autoscaler[] {
  return cachedView(app, JSON.stringify(['list', ...filterKey(query), query.sort, query.order]), () => sortAutoscalers(filteredView(app, query), query.sort, query.order));
}
