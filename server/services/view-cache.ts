import 'server-only';
import type { FleetViews } from '../fleet/fleet-views';
import { fleetViews } from '../fleet/fleet-views';
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
