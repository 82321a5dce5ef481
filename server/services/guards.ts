import 'server-only';
import type { AutoscalerFilter, AutoscalerPath } from '@/lib/api';
import { toAutoscalerId } from '@/lib/api';
import type { IndexEntry } from '../fleet/fleet-index';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';

/** Nothing to answer yet: no cluster has finished a first sync (503, so a client retries). */
export function requireSynced(app: Autoscope): void {
  const statuses = app.clusterStatuses();
  if (statuses.length > 0 && statuses.every((s) => s.lastSyncAt === null && s.state === 'syncing')) {
    throw new AppError('not_ready', 'no cluster has finished its first sync yet; try again in a few seconds');
  }
}

/** A cluster named in a filter must be one Autoscope knows. */
export function requireKnownClusters(app: Autoscope, filter: AutoscalerFilter): void {
  for (const c of filter.cluster ?? []) {
    if (!app.watchers.has(c)) throw new AppError('bad_request', `unknown cluster ${JSON.stringify(c)}`, { issues: [{ path: 'cluster', message: `unknown cluster ${JSON.stringify(c)}` }] });
  }
}

/** The index entry for a path, or the right 404. */
export function findEntry(app: Autoscope, path: AutoscalerPath): IndexEntry {
  if (!app.watchers.has(path.cluster)) throw new AppError('not_found', `unknown cluster ${JSON.stringify(path.cluster)}`, { cluster: path.cluster });
  const entry = app.index.entries.get(toAutoscalerId(path.cluster, path.kind, path.namespace, path.name));
  if (!entry) throw new AppError('not_found', `${path.kind} ${path.namespace}/${path.name} not found in cluster ${path.cluster}`, { cluster: path.cluster });
  return entry;
}
