import type { AutoscalerKind, AutoscalerSort } from '@/lib/api';

/** Filters as they travel in URLs: comma-separated strings (the server's schema splits and validates them). */
export type FilterParams = Partial<Record<'kind' | 'cluster' | 'namespace' | 'health' | 'reason' | 'q' | 'group', string>>;
export type ListParams = FilterParams & { sort?: AutoscalerSort; order?: 'asc' | 'desc'; limit?: number; cursor?: string };

/**
 * One page of a list read page by page: the first (no cursor) at `firstLimit` when one is given, each later one by its
 * cursor at the query's own limit.
 */
export function pageParams(q: Omit<ListParams, 'cursor'>, firstLimit: number | undefined, cursor: string | undefined): ListParams {
  return cursor === undefined && firstLimit !== undefined ? { ...q, limit: firstLimit } : { ...q, cursor };
}

export interface AutoscalerRef {
  cluster: string;
  kind: AutoscalerKind;
  namespace: string;
  name: string;
}

function search(params: Record<string, string | number | undefined | null | readonly string[]>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length) sp.set(k, v.join(','));
    } else sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

const base = (ref: AutoscalerRef): string =>
  `/api/v1/autoscalers/${encodeURIComponent(ref.cluster)}/${ref.kind}/${ref.namespace}/${ref.name}`;

/** Every API URL the browser uses, built in one place (no component builds a URL by hand). */
export const apiPaths = {
  clusters: (): string => '/api/v1/clusters',
  autoscalers: (q: ListParams): string => `/api/v1/autoscalers${search({ ...q })}`,
  /** A page of table rows (`fields=row`: `AutoscalerRow`), as the virtualized tables read them. */
  autoscalerRows: (q: ListParams): string => `/api/v1/autoscalers${search({ ...q, fields: 'row' })}`,
  autoscalersExport: (f: FilterParams, format: 'csv' | 'json'): string => `/api/v1/autoscalers${search({ ...f, format })}`,
  autoscaler: (ref: AutoscalerRef): string => base(ref),
  history: (ref: AutoscalerRef, window: { from: string; to: string }): string => `${base(ref)}/history${search(window)}`,
  explain: (ref: AutoscalerRef): string => `${base(ref)}/explain`,
  federationPreviewInputs: (ref: AutoscalerRef): string => `${base(ref)}/federation-preview`,
  triage: (f: FilterParams): string => `/api/v1/triage${search({ ...f })}`,
  transitions: (limit: number, options: { cluster?: string; notable?: boolean } = {}): string =>
    `/api/v1/transitions${search({ limit, cluster: options.cluster, notable: options.notable ? 'true' : undefined })}`,
  previewHpa: (): string => '/api/v1/preview/hpa',
  previewFederation: (operation: string): string => `/api/v1/preview/federation/${operation}`,
  stream: (): string => '/api/v1/stream',
  me: (): string => '/api/v1/me',
  /** The sign-in page, coming back to `returnTo` (a path of this site) afterwards. */
  signIn: (returnTo: string): string => `/auth/login${search({ returnTo })}`,
};

/** The page of one autoscaler: /autoscalers/{cluster}/{kind}/{namespace}/{name} with the cluster as one encoded segment. */
export function autoscalerHref(ref: AutoscalerRef, params?: Record<string, string>): string {
  return `/autoscalers/${encodeURIComponent(ref.cluster)}/${ref.kind}/${ref.namespace}/${ref.name}${params ? search(params) : ''}`;
}

/** The preview page for one live autoscaler: `/preview/hpa?id=…` (HPA) or `/preview/federation?id=…` (FederatedHPA). */
export function previewHref(kind: 'HorizontalPodAutoscaler' | 'FederatedHPA', id: string): string {
  return `/preview/${kind === 'FederatedHPA' ? 'federation' : 'hpa'}${search({ id })}`;
}
