import 'server-only';
import type { AutoscalerFilter, TriageResponse } from '@/lib/api';
import { groupProblems } from '@/lib/triage';
import type { Autoscope } from '../runtime';
import { requireKnownClusters, requireSynced } from './guards';
import { cachedView, filteredView, filterKey } from './view-cache';

/** The triage queue of the filtered autoscalers: problem groups and health totals (cached per index version). */
export function getTriage(app: Autoscope, filter: AutoscalerFilter): TriageResponse {
  requireKnownClusters(app, filter);
  requireSynced(app);
  const { groups, totals } = cachedView(app, JSON.stringify(['triage', ...filterKey(filter)]), () => {
    const items = filteredView(app, filter);
    const counts = { total: items.length, failing: 0, degraded: 0, ok: 0, unknown: 0 };
    for (const a of items) counts[a.health] += 1;
    return { groups: groupProblems(items, Date.now()), totals: counts };
  });
  return { groups, totals, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() };
}
