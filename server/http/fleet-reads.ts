import 'server-only';
import { AutoscalerFilterSchema, AutoscalerQuerySchema } from '@/lib/api';
import { requireViewer } from '../access/access';
import { getAutoscope } from '../runtime';
import { getTriage, listAutoscalers } from '../services/fleet-service';
import { handle } from './handle';
import { queryObject } from './params';
import { jsonPrepared, jsonWithRows, withPreparedBody } from './row-json';
import { answerKey, sharedAnswersOf } from './shared-answers';

/**
 * The two reads every open list and triage page repeats: `GET /api/v1/autoscalers` and `GET /api/v1/triage`.
 * Their app routes export these handlers, and the server's fast path (fast-path.ts) calls the same ones
 * without Next's request pipeline in front, so both ways answer alike. The fast-path handlers answer prepared
 * (`jsonWithRows`, `jsonPrepared`: the bytes beside the response); the app routes' make the body real. Identical
 * reads share one answer until the stream's next message (shared-answers.ts).
 */
export const listAutoscalersPrepared = handle(async (req) => {
  const query = AutoscalerQuerySchema.parse(queryObject(req.nextUrl));
  const viewer = await requireViewer(req);
  const app = getAutoscope();
  // An export is a download made once; only pages are shared.
  const make = (): Response => {
    const result = listAutoscalers(app, query, viewer);
    // A page's rows are stored DTOs: their JSON (whole, or as a table row) is made once and reused by every page that shows them.
    return result instanceof Response ? result : jsonWithRows(result, query.fields);
  };
  return query.format ? make() : sharedAnswersOf(app).answer(answerKey('list', viewer, req.nextUrl.search), make);
});

export const listAutoscalersGet = async (...args: Parameters<typeof listAutoscalersPrepared>): Promise<Response> =>
  withPreparedBody(await listAutoscalersPrepared(...args));

export const triagePrepared = handle(async (req) => {
  const filter = AutoscalerFilterSchema.parse(queryObject(req.nextUrl));
  const viewer = await requireViewer(req);
  const app = getAutoscope();
  return sharedAnswersOf(app).answer(answerKey('triage', viewer, req.nextUrl.search), () => jsonPrepared(getTriage(app, filter, viewer)));
});

export const triageGet = async (...args: Parameters<typeof triagePrepared>): Promise<Response> =>
  withPreparedBody(await triagePrepared(...args));
