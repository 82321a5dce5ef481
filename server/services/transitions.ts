import 'server-only';
import type { Transition, TransitionsResponse } from '@/lib/api';
import { canSeeAutoscaler } from '@/lib/access';
import type { Viewer } from '../access/access';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';
import { isKnownCluster } from './guards';

/** How far back a scoped viewer's feed is searched for `limit` transitions they may see. */
const maxScanned = 20_000;

/** The fleet's latest condition transitions the viewer may see, newest first, optionally of one cluster or only the notable ones. */
export async function listTransitions(
  app: Autoscope,
  query: { limit: number; cluster?: string; notable: boolean },
  viewer: Viewer,
): Promise<TransitionsResponse> {
  if (query.cluster && !isKnownCluster(app, viewer, query.cluster))
    throw new AppError('bad_request', `unknown cluster ${JSON.stringify(query.cluster)}`);
  const { scope } = viewer;
  if (scope.all) return { transitions: await app.history.latestTransitions(query.limit, query.cluster, query.notable) };
  // The store pages newest first; read wider windows until the viewer's `limit` is filled or the feed ends.
  for (let window = query.limit * 4; ; window *= 4) {
    const rows = await app.history.latestTransitions(Math.min(window, maxScanned), query.cluster, query.notable);
    const visible: Transition[] = rows.filter((t) => canSeeAutoscaler(scope, t));
    if (visible.length >= query.limit || rows.length < window || window >= maxScanned)
      return { transitions: visible.slice(0, query.limit) };
  }
}
