import 'server-only';
import type { ClusterListResponse, ReadyResponse } from '@/lib/api';
import type { Autoscope } from '../runtime';

/** Every configured cluster with its sync state and counts. */
export function listClusters(app: Autoscope): ClusterListResponse {
  return { clusters: app.clusterSummaries(), generatedAt: new Date().toISOString() };
}

/** Ready once every cluster has synced (or failed): the body lists each cluster's state either way. */
export function readiness(app: Autoscope): { body: ReadyResponse; ready: boolean } {
  const ready = app.isReady();
  return { body: { ready, clusters: app.clusterStatuses() }, ready };
}
