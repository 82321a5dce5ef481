import 'server-only';
import type { NextRequest } from 'next/server';
import { ZodError } from 'zod';
import type { ErrorBody, FieldIssue } from '@/lib/api';
import { errorText, log } from '../log';
import { getMetrics } from '../metrics/registry';
import { AppError, statusForCode } from './app-error';
import { toRoutePattern } from './route-pattern';

/** Returns plain data, or a Response, or a promise of either. */
type Handler<C> = (req: NextRequest, context: C) => unknown;

/**
 * Wraps a route handler: the handler returns plain data (or a Response it built itself, for
 * downloads and streams); every failure leaves as the JSON error body with its status. Handlers
 * hold no try/catch.
 */
export function handle<C = unknown>(handler: Handler<C>): (req: NextRequest, context: C) => Promise<Response> {
  return async (req, context) => {
    const started = performance.now();
    const response = await respond(handler, req, context);
    await recordRequest(req, context, response.status, (performance.now() - started) / 1000);
    return response;
  };
}

async function respond<C>(handler: Handler<C>, req: NextRequest, context: C): Promise<Response> {
  try {
    const result = await handler(req, context);
    if (result instanceof Response) return result;
    return Response.json(result, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err, req);
  }
}

/** One observation of autoscope_http_request_duration_seconds, labelled with the route's pattern, never its values. */
async function recordRequest(req: NextRequest, context: unknown, status: number, seconds: number): Promise<void> {
  let params: Record<string, string | string[] | undefined> | undefined;
  try {
    params = await (context as { params?: Promise<Record<string, string | string[] | undefined>> } | undefined)?.params;
  } catch {
    params = undefined;
  }
  const route = toRoutePattern(req.nextUrl.pathname, params);
  getMetrics().httpRequestDuration.observe({ method: req.method, route, status: String(status) }, seconds);
}

/** Turns anything thrown into the JSON error response; unknown errors become one log line and a 500. */
export function errorResponse(err: unknown, req?: Request): Response {
  const appError = toAppErrorForHttp(err);
  if (appError.code === 'internal') {
    // One line, no stack in the response; the log line is redacted.
    log.error('internal error', { method: req?.method, path: req ? new URL(req.url).pathname : undefined, error: errorText(err) });
  }
  const body: ErrorBody = {
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.cluster ? { cluster: appError.cluster } : {}),
      ...(appError.issues ? { issues: appError.issues } : {}),
    },
  };
  return Response.json(body, { status: statusForCode[appError.code], headers: { 'cache-control': 'no-store' } });
}

function toAppErrorForHttp(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    const issues: FieldIssue[] = err.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      message: issue.message,
    }));
    const first = issues[0];
    const message = first ? `invalid ${first.path}: ${first.message}` : 'invalid request';
    return new AppError('bad_request', message, { issues });
  }
  return new AppError('internal', 'internal error');
}
