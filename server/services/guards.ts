import 'server-only';
import type { AutoscalerFilter, AutoscalerPath, ClusterStatus } from '@/lib/api';
import { toAutoscalerId } from '@/lib/api';
import { canSeeAutoscaler, canSeeCluster } from '@/lib/access';
import type { Viewer } from '../access/access';
import type { IndexEntry } from '../fleet/fleet-index';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';

/** Nothing to answer yet: no cluster has finished a first sync (503, so a client retries). */
export function requireSynced(app: Autoscope): void {
  if (app.nothingSyncedYet()) {
    throw new AppError('not_ready', 'no cluster has finished its first sync yet; try again in a few seconds');
  }
}

/** A cluster Autoscope watches and the viewer may see; one the viewer may not see does not exist for them. */
export function isKnownCluster(app: Autoscope, viewer: Viewer, cluster: string): boolean {
  return app.knowsCluster(cluster) && canSeeCluster(viewer.scope, cluster);
}

/** A cluster named in a filter must be one Autoscope knows (and the viewer may see: the same answer otherwise). */
export function requireKnownClusters(app: Autoscope, filter: AutoscalerFilter, viewer: Viewer): void {
  for (const c of filter.cluster ?? []) {
    if (!isKnownCluster(app, viewer, c))
      throw new AppError('bad_request', `unknown cluster ${JSON.stringify(c)}`, {
        issues: [{ path: 'cluster', message: `unknown cluster ${JSON.stringify(c)}` }],
      });
  }
}

/** The states of the clusters the viewer may see, beside every list response. */
export function visibleClusterStatuses(app: Autoscope, viewer: Viewer): ClusterStatus[] {
  const all = app.clusterStatuses();
  return viewer.scope.all ? all : all.filter((c) => canSeeCluster(viewer.scope, c.name));
}

/**
 * The index entry for a path, or the right 404. An object the viewer may not see gets exactly the answer of
 * one that does not exist: the same code, message and cluster field, after the same lookups.
 */
export function findEntry(app: Autoscope, path: AutoscalerPath, viewer: Viewer): IndexEntry {
  if (!isKnownCluster(app, viewer, path.cluster))
    throw new AppError('not_found', `unknown cluster ${JSON.stringify(path.cluster)}`, { cluster: path.cluster });
  const entry = app.index.entries.get(toAutoscalerId(path.cluster, path.kind, path.namespace, path.name));
  if (!entry || !canSeeAutoscaler(viewer.scope, path))
    throw new AppError('not_found', `${path.kind} ${path.namespace}/${path.name} not found in cluster ${path.cluster}`, {
      cluster: path.cluster,
    });
  return entry;
}
