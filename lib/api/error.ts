import { z } from 'zod';

/** The codes of the error model (docs/architecture.md); `server/http` maps each to one HTTP status. */
export const ErrorCodeSchema = z.enum([
  'bad_request',
  'unauthenticated',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'cluster_unreachable',
  'not_ready',
  'upstream_error',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const FieldIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** Every non-2xx body the BFF sends. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    cluster: z.string().optional(),
    issues: z.array(FieldIssueSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
