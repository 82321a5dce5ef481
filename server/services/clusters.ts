import 'server-only';
import type { ClusterListResponse, ReadyResponse } from '@/lib/api';
import { canSeeAutoscaler, canSeeCluster } from '@/lib/access';
import type { Viewer } from '../access/access';
import type { Autoscope } from '../runtime';
import { visibleClusterStatuses } from './guards';

/** The clusters the viewer may see with their sync state, and counts of the autoscalers they may see there. */
export function listClusters(app: Autoscope, viewer: Viewer): ClusterListResponse {
  const { scope } = viewer;
  const summaries = scope.all
    ? app.clusterSummaries()
    : app.clusterSummaries({ cluster: (name) => canSeeCluster(scope, name), autoscaler: (dto) => canSeeAutoscaler(scope, dto) });
  return { clusters: summaries, generatedAt: new Date().toISOString() };
}

/**
 * Ready once every cluster has synced (or failed). The body lists the states of the clusters the viewer may
 * see — none for a probe that is not signed in; the status code is the whole fleet's either way.
 */
export function readiness(app: Autoscope, viewer: Viewer | null): { body: ReadyResponse; ready: boolean } {
  const ready = app.isReady();
  return { body: { ready, clusters: viewer ? visibleClusterStatuses(app, viewer) : [] }, ready };
}
