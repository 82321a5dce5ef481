import 'server-only';
import type { TriageResponse } from '@/lib/api';
import { AutoscalerFilterSchema, AutoscalerQuerySchema } from '@/lib/api';
import { requireViewer } from '../access/access';
import { getAutoscope } from '../runtime';
import { getTriage, listAutoscalers } from '../services/fleet-service';
import { handle } from './handle';
import { queryObject } from './params';
import { jsonWithRows, withPreparedBody } from './row-json';

/**
 * The two reads every open list and triage page repeats: `GET /api/v1/autoscalers` and `GET /api/v1/triage`.
 * Their app routes export these handlers, and the server's fast path (fast-path.ts) calls the same ones
 * without Next's request pipeline in front, so both ways answer alike. The list's fast-path handler answers a page
 * prepared (`jsonWithRows`: its bytes beside the response); the app route's makes the body real.
 */
export const listAutoscalersPrepared = handle(async (req) => {
  const query = AutoscalerQuerySchema.parse(queryObject(req.nextUrl));
  const result = listAutoscalers(getAutoscope(), query, await requireViewer(req));
  // A page's rows are stored DTOs: their JSON (whole, or as a table row) is made once and reused by every page that shows them.
  return result instanceof Response ? result : jsonWithRows(result, query.fields);
});

export const listAutoscalersGet = async (...args: Parameters<typeof listAutoscalersPrepared>): Promise<Response> =>
  withPreparedBody(await listAutoscalersPrepared(...args));

export const triageGet = handle(async (req): Promise<TriageResponse> =>
  getTriage(getAutoscope(), AutoscalerFilterSchema.parse(queryObject(req.nextUrl)), await requireViewer(req)),
);
