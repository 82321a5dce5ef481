import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { FederationOperation, HpaPreviewRequest } from '@/lib/api';
import {
  AutoscalerDetailResponseSchema,
  AutoscalerListResponseSchema,
  AutoscalerRowListResponseSchema,
  ClusterListResponseSchema,
  ExplainResponseSchema,
  FederationPreviewInputsSchema,
  HistoryResponseSchema,
  HpaPreviewResponseSchema,
  MeResponseSchema,
  TransitionsResponseSchema,
  TriageResponseSchema,
  federationOperations,
  toAutoscalerId,
} from '@/lib/api';
import { fetchJson } from '../api/fetch-json';
import type { AutoscalerRef, FilterParams, ListParams } from '../api/paths';
import { apiPaths, pageParams } from '../api/paths';

/** Query keys: `['fleet', …]` for everything the stream can invalidate. */
export const fleetKeys = {
  all: ['fleet'] as const,
  clusters: () => [...fleetKeys.all, 'clusters'] as const,
  lists: () => [...fleetKeys.all, 'autoscalers'] as const,
  list: (q: ListParams) => [...fleetKeys.lists(), q] as const,
  listPages: (q: Omit<ListParams, 'cursor'>, firstLimit?: number) => [...fleetKeys.lists(), 'pages', q, firstLimit ?? null] as const,
  triage: (f: FilterParams) => [...fleetKeys.all, 'triage', f] as const,
  transitions: (limit: number, notable: boolean) => [...fleetKeys.all, 'transitions', limit, notable] as const,
  detail: (id: string) => [...fleetKeys.all, 'detail', id] as const,
  history: (id: string, window: { from: string; to: string }) => [...fleetKeys.all, 'history', id, window] as const,
  /** Not invalidated by the stream: an explanation reads pods and metrics live, so it refreshes on request. */
  explain: (id: string) => [...fleetKeys.all, 'explain', id] as const,
};

/** The query-key id of an autoscaler: the DTO's own `id`. */
const idOf = (ref: AutoscalerRef): string => toAutoscalerId(ref.cluster, ref.kind, ref.namespace, ref.name);

/** Who is signed in (not under `fleet`: the stream never invalidates it). */
export function meQuery() {
  return queryOptions({
    queryKey: ['me'] as const,
    queryFn: ({ signal }) => fetchJson(apiPaths.me(), MeResponseSchema, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function clustersQuery() {
  return queryOptions({
    queryKey: fleetKeys.clusters(),
    queryFn: ({ signal }) => fetchJson(apiPaths.clusters(), ClusterListResponseSchema, { signal }),
  });
}

export function autoscalerListQuery(q: ListParams) {
  return queryOptions({
    queryKey: fleetKeys.list(q),
    queryFn: ({ signal }) => fetchJson(apiPaths.autoscalers(q), AutoscalerListResponseSchema, { signal }),
  });
}

/**
 * The whole filtered list, page by page (`nextCursor`), for views that virtualize thousands of rows, each item as a
 * table row shows it (`AutoscalerRow`). `firstLimit`: a smaller first page, for a view that shows its first rows as the
 * page opens and loads the rest as it scrolls.
 */
export function autoscalerPagesQuery(q: Omit<ListParams, 'cursor'>, firstLimit?: number) {
  return infiniteQueryOptions({
    queryKey: fleetKeys.listPages(q, firstLimit),
    queryFn: ({ signal, pageParam }) =>
      fetchJson(apiPaths.autoscalerRows(pageParams(q, firstLimit, pageParam)), AutoscalerRowListResponseSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function triageQuery(f: FilterParams) {
  return queryOptions({
    queryKey: fleetKeys.triage(f),
    queryFn: ({ signal }) => fetchJson(apiPaths.triage(f), TriageResponseSchema, { signal }),
  });
}

export function transitionsQuery(limit: number, notable: boolean) {
  return queryOptions({
    queryKey: fleetKeys.transitions(limit, notable),
    queryFn: ({ signal }) => fetchJson(apiPaths.transitions(limit, { notable }), TransitionsResponseSchema, { signal }),
  });
}

export function autoscalerDetailQuery(ref: AutoscalerRef) {
  return queryOptions({
    queryKey: fleetKeys.detail(idOf(ref)),
    queryFn: ({ signal }) => fetchJson(apiPaths.autoscaler(ref), AutoscalerDetailResponseSchema, { signal }),
  });
}

export function historyQuery(ref: AutoscalerRef, window: { from: string; to: string }) {
  return queryOptions({
    queryKey: fleetKeys.history(idOf(ref), window),
    queryFn: ({ signal }) => fetchJson(apiPaths.history(ref, window), HistoryResponseSchema, { signal }),
  });
}

/** `…/explain`: the HPA decision recomputed from what the cluster serves now (HPA and FederatedHPA). */
export function explainQuery(ref: AutoscalerRef) {
  return queryOptions({
    queryKey: fleetKeys.explain(idOf(ref)),
    queryFn: ({ signal }) => fetchJson(apiPaths.explain(ref), ExplainResponseSchema, { signal }),
    staleTime: 30_000,
  });
}

/** Previews: pure answers to the body sent (keyed by it), outside `fleet` so the stream never refetches them. */
export const previewKeys = {
  all: ['preview'] as const,
  federationInputs: (id: string) => [...previewKeys.all, 'federation-inputs', id] as const,
  federation: (operation: FederationOperation, body: unknown) => [...previewKeys.all, 'federation', operation, body] as const,
  hpa: (body: HpaPreviewRequest) => [...previewKeys.all, 'hpa', body] as const,
};

/** The answer of `POST /api/v1/preview/federation/{operation}`. */
export type FederationOperationResult<Op extends FederationOperation> = z.infer<(typeof federationOperations)[Op]['result']>;
/** An answer tagged with the operation and body it answers, so a switch on `operation` narrows `result`. */
export type FederationAnswer = {
  [Op in FederationOperation]: { operation: Op; body: unknown; result: FederationOperationResult<Op> };
}[FederationOperation];

/** The operation table seen through a mapped type, so indexing it with a generic operation keeps the result type. */
const resultSchemas: { [Op in FederationOperation]: { result: z.ZodType<FederationOperationResult<Op>> } } = federationOperations;

/** `…/federation-preview`: the inputs of both federation previews, filled from a live FederatedHPA. */
export function federationPreviewInputsQuery(ref: AutoscalerRef) {
  return queryOptions({
    queryKey: previewKeys.federationInputs(idOf(ref)),
    queryFn: ({ signal }) => fetchJson(apiPaths.federationPreviewInputs(ref), FederationPreviewInputsSchema, { signal }),
    staleTime: Infinity,
  });
}

/**
 * One `lib/federation` preview of `body` (the server validates it: a 400 names the bad fields in `ApiError.issues`).
 * The answer carries its operation and body, so data kept while the next answer loads still matches its request.
 */
export function federationPreviewQuery(operation: FederationOperation, body: unknown) {
  return queryOptions({
    queryKey: previewKeys.federation(operation, body),
    queryFn: async ({ signal }): Promise<FederationAnswer> => {
      const result = await fetchJson(apiPaths.previewFederation(operation), resultSchemas[operation].result, {
        signal,
        method: 'POST',
        body,
      });
      // The table pairs each operation with its own result schema; TypeScript cannot follow that through a union key.
      return { operation, body, result } as FederationAnswer;
    },
    staleTime: Infinity,
  });
}

/** `POST /api/v1/preview/hpa`: reads the live HPA, its pods and metrics, then runs the decision before and after. */
export function hpaPreviewQuery(body: HpaPreviewRequest) {
  return queryOptions({
    queryKey: previewKeys.hpa(body),
    queryFn: ({ signal }) => fetchJson(apiPaths.previewHpa(), HpaPreviewResponseSchema, { signal, method: 'POST', body }),
    staleTime: 30_000,
  });
}
