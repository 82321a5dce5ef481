import 'server-only';
import type { TransitionsResponse } from '@/lib/api';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';

/** The fleet's latest condition transitions, newest first, optionally of one cluster or only the notable ones. */
export function listTransitions(app: Autoscope, query: { limit: number; cluster?: string; notable: boolean }): TransitionsResponse {
  if (query.cluster && !app.watchers.has(query.cluster)) throw new AppError('bad_request', `unknown cluster ${JSON.stringify(query.cluster)}`);
  return { transitions: app.history.latestTransitions(query.limit, query.cluster, query.notable) };
}
