import 'server-only';
import type { Autoscaler, AutoscalerFilter, AutoscalerQuery } from '@/lib/api';
import { canSeeAutoscaler } from '@/lib/access';
import type { Viewer } from '../access/access';
import type { FleetViews } from '../fleet/fleet-views';
import { filterKey, fleetViews } from '../fleet/fleet-views';
import { filterPredicate, sortAutoscalers } from '../fleet/query';
import type { Autoscope } from '../runtime';

/**
 * Values kept while the index has not changed: several browsers showing the same triage cost one merge.
 * A few per process; the least recently used goes first. What is kept across changes (sort orders,
 * filtered sets, per-cluster triage tallies) lives in `FleetViews`.
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

/** The incrementally kept views of the app's index. */
export function viewsOf(app: Autoscope): FleetViews {
  return fleetViews(app.index);
}

/**
 * A viewer who may not see the whole fleet: the autoscalers of their scope that pass the filter, in id order.
 * (The whole fleet's viewers take the incremental views above.)
 */
export function scopedView(app: Autoscope, filter: AutoscalerFilter, viewer: Viewer): Autoscaler[] {
  const { scope } = viewer;
  const matches = filterPredicate(filter);
  return app.index.dtosInIdOrder().filter((dto) => canSeeAutoscaler(scope, dto) && matches(dto));
}

/** The scoped view in the query's sort order, cached per scope and filter while the index has not changed. */
export function scopedSortedView(app: Autoscope, query: AutoscalerQuery, viewer: Viewer): Autoscaler[] {
  return cachedView(app, JSON.stringify(['list', viewer.scope.key, ...filterKey(query), query.sort, query.order]), () =>
    sortAutoscalers(scopedView(app, query, viewer), query.sort, query.order),
  );
}
