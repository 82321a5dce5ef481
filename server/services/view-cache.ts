import 'server-only';
import type { FleetViews } from '../fleet/fleet-views';
import { fleetViews } from '../fleet/fleet-views';
import type { Autoscope } from '../runtime';

/**
 * The incrementally kept views of the app's index (sort orders, filtered sets, triage ledgers: `FleetViews`), for
 * every viewer. Identical reads share their answer at the HTTP layer (`server/http/shared-answers.ts`).
 */
export function viewsOf(app: Autoscope): FleetViews {
  return fleetViews(app.index);
}
