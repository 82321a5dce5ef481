import 'server-only';
import type { AutoscalerListResponse, AutoscalerQuery } from '@/lib/api';
import type { Viewer } from '../access/access';
import { decodeCursor, encodeCursor } from '../fleet/query';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import { exportAutoscalers } from './export-autoscalers';
import { requireKnownClusters, requireSynced, visibleClusterStatuses } from './guards';
import { viewsOf } from './view-cache';

/** One page of the filtered, sorted autoscaler list the viewer may see (cursor paging), or the whole view as a download. */
export function listAutoscalers(app: Autoscope, query: AutoscalerQuery, viewer: Viewer): AutoscalerListResponse | Response {
  requireKnownClusters(app, query, viewer);
  requireSynced(app);
  const clusters = visibleClusterStatuses(app, viewer);
  let after;
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, query.sort, query.order);
    if (!cursor.ok)
      throw new AppError('bad_request', `invalid cursor: ${cursor.message}; use the nextCursor of a previous page`, {
        issues: [{ path: 'cursor', message: cursor.message }],
      });
    after = cursor.after;
  }
  // A scoped viewer's page comes from the same kept views, through a set kept for their scope (fleet-views.ts).
  const views = viewsOf(app);
  if (query.format) return exportAutoscalers(views.all(query, query.sort, query.order, viewer.scope), query.format, clusters);
  const page = views.page(query, query.sort, query.order, query.limit, after, viewer.scope);
  const last = page.items[page.items.length - 1];
  const next = last && page.more ? encodeCursor(last, query.sort, query.order) : null;
  return { items: page.items, total: page.total, nextCursor: next, clusters, generatedAt: new Date().toISOString() };
}
