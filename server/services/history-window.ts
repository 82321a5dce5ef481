import 'server-only';
import type { AutoscalerPath, HistoryQuery, HistoryResponse } from '@/lib/api';
import type { Viewer } from '../access/access';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import { findEntry } from './guards';

const day = 24 * 3600_000;

/** One autoscaler's condition transitions, replica samples and events in a window (default: the last day; at most a year). */
export async function getHistory(app: Autoscope, path: AutoscalerPath, query: HistoryQuery, viewer: Viewer): Promise<HistoryResponse> {
  const entry = findEntry(app, path, viewer);
  const to = query.to ? new Date(query.to).toISOString() : new Date().toISOString();
  const from = query.from ? new Date(query.from).toISOString() : new Date(Date.parse(to) - day).toISOString();
  if (Date.parse(to) - Date.parse(from) > 366 * day)
    throw new AppError('bad_request', 'the window may span at most a year', {
      issues: [{ path: 'from', message: 'window longer than a year' }],
    });
  return { id: entry.dto.id, from, to, ...(await app.history.history(entry.dto.id, entry.dto.kind, from, to)) };
}
