import 'server-only';
import type { AutoscalerFilter, TriageResponse } from '@/lib/api';
import { filterKey } from '../fleet/fleet-views';
import type { Autoscope } from '../runtime';
import { requireKnownClusters, requireSynced } from './guards';
import { cachedView, viewsOf } from './view-cache';

/** The triage queue of the filtered autoscalers: problem groups and health totals (per-cluster tallies, merged; kept per index version). */
export function getTriage(app: Autoscope, filter: AutoscalerFilter): TriageResponse {
  requireKnownClusters(app, filter);
  requireSynced(app);
  const { groups, totals } = cachedView(app, JSON.stringify(['triage', ...filterKey(filter)]), () => viewsOf(app).triage(filter, Date.now()));
  return { groups, totals, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() };
}
