import 'server-only';
import type { ErrorCode, FieldIssue } from '@/lib/api';

/** The one error type server code throws; `handle()` turns it into the JSON error body. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly cluster: string | undefined;
  readonly issues: FieldIssue[] | undefined;

  constructor(code: ErrorCode, message: string, options: { cluster?: string; issues?: FieldIssue[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.cluster = options.cluster;
    this.issues = options.issues;
  }
}

/** The one table from error code to HTTP status. */
export const statusForCode: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  cluster_unreachable: 502,
  not_ready: 503,
  upstream_error: 502,
  internal: 500,
};
