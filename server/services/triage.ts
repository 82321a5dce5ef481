import 'server-only';
import type { AutoscalerFilter, TriageResponse } from '@/lib/api';
import type { Viewer } from '../access/access';
import type { Autoscope } from '../runtime';
import { requireKnownClusters, requireSynced, visibleClusterStatuses } from './guards';
import { viewsOf } from './view-cache';

/**
 * The triage queue of the filtered autoscalers the viewer may see: problem groups and health totals, from the problem
 * ledger kept for that filter and scope (fleet-views.ts; its tally is made once per change of the ledger).
 */
export function getTriage(app: Autoscope, filter: AutoscalerFilter, viewer: Viewer): TriageResponse {
  requireKnownClusters(app, filter, viewer);
  requireSynced(app);
  const { groups, totals } = viewsOf(app).triage(filter, Date.now(), viewer.scope);
  return { groups, totals, clusters: visibleClusterStatuses(app, viewer), generatedAt: new Date().toISOString() };
}
