import 'server-only';
import type { AutoscalerFilter, TriageResponse } from '@/lib/api';
import { groupProblems } from '@/lib/triage';
import type { Viewer } from '../access/access';
import { filterKey } from '../fleet/fleet-views';
import type { Autoscope } from '../runtime';
import { requireKnownClusters, requireSynced, visibleClusterStatuses } from './guards';
import { cachedView, scopedView, viewsOf } from './view-cache';

/**
 * The triage queue of the filtered autoscalers the viewer may see: problem groups and health totals (the whole
 * fleet's from per-cluster tallies, merged; a narrower scope's over its own autoscalers; kept per index version).
 */
export function getTriage(app: Autoscope, filter: AutoscalerFilter, viewer: Viewer): TriageResponse {
  requireKnownClusters(app, filter, viewer);
  requireSynced(app);
  const { groups, totals } = viewer.scope.all
    ? cachedView(app, JSON.stringify(['triage', ...filterKey(filter)]), () => viewsOf(app).triage(filter, Date.now()))
    : cachedView(app, JSON.stringify(['triage', viewer.scope.key, ...filterKey(filter)]), () => {
        const items = scopedView(app, filter, viewer);
        const counts = { total: items.length, failing: 0, degraded: 0, ok: 0, unknown: 0 };
        for (const a of items) counts[a.health] += 1;
        return { groups: groupProblems(items, Date.now()), totals: counts };
      });
  return { groups, totals, clusters: visibleClusterStatuses(app, viewer), generatedAt: new Date().toISOString() };
}
