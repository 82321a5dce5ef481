import type { FilterParams } from '../api/paths';

/** The view state of /triage as it travels in its URL. */
export type TriageUrlParams = FilterParams & { sort?: string; group?: string };

/** A link to the triage page with filters, sort and an expanded group, e.g. from an overview tile. */
export function triageHref(params: TriageUrlParams = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) sp.set(k, v);
  const qs = sp.toString();
  return qs ? `/triage?${qs}` : '/triage';
}
