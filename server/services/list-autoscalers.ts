import 'server-only';
import type { AutoscalerListResponse, AutoscalerQuery } from '@/lib/api';
import type { Viewer } from '../access/access';
import { decodeCursor, encodeCursor, indexAfter } from '../fleet/query';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import { exportAutoscalers } from './export-autoscalers';
import { requireKnownClusters, requireSynced, visibleClusterStatuses } from './guards';
import { scopedSortedView, viewsOf } from './view-cache';

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
  if (viewer.scope.all) {
    const views = viewsOf(app);
    if (query.format) return exportAutoscalers(views.all(query, query.sort, query.order), query.format, clusters);
    const page = views.page(query, query.sort, query.order, query.limit, after);
    const last = page.items[page.items.length - 1];
    const next = last && page.more ? encodeCursor(last, query.sort, query.order) : null;
    return { items: page.items, total: page.total, nextCursor: next, clusters, generatedAt: new Date().toISOString() };
  }
  const items = scopedSortedView(app, query, viewer);
  if (query.format) return exportAutoscalers(items, query.format, clusters);
  const start = after ? indexAfter(items, after) : 0;
  const page = items.slice(start, start + query.limit);
  const last = page[page.length - 1];
  const next = last && start + query.limit < items.length ? encodeCursor(last, query.sort, query.order) : null;
  return { items: page, total: items.length, nextCursor: next, clusters, generatedAt: new Date().toISOString() };
}
