import 'server-only';
import type { AutoscalerListResponse, AutoscalerQuery } from '@/lib/api';
import { decodeCursor, encodeCursor, indexAfter } from '../fleet/query';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import { exportAutoscalers } from './export-autoscalers';
import { requireKnownClusters, requireSynced } from './guards';
import { sortedView } from './view-cache';

/** One page of the filtered, sorted autoscaler list (cursor paging), or the whole view as a download. */
export function listAutoscalers(app: Autoscope, query: AutoscalerQuery): AutoscalerListResponse | Response {
  requireKnownClusters(app, query);
  requireSynced(app);
  const items = sortedView(app, query);
  if (query.format) return exportAutoscalers(items, query.format, app.clusterStatuses());
  let start = 0;
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, query.sort, query.order);
    if (!cursor.ok) throw new AppError('bad_request', `invalid cursor: ${cursor.message}; use the nextCursor of a previous page`, { issues: [{ path: 'cursor', message: cursor.message }] });
    start = indexAfter(items, cursor.after);
  }
  const page = items.slice(start, start + query.limit);
  const last = page[page.length - 1];
  const next = last && start + query.limit < items.length ? encodeCursor(last, query.sort, query.order) : null;
  return { items: page, total: items.length, nextCursor: next, clusters: app.clusterStatuses(), generatedAt: new Date().toISOString() };
}
