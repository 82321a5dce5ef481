import { describe, expect, it } from 'vitest';
import { ApiError, isClientError, isRetryable } from './fetch-json';

describe('which failed requests the browser asks again', () => {
  it('not a wrong input, not a cluster the server knows is unreachable; yes a network blip or a 503 while syncing', () => {
    expect(isRetryable(new ApiError('bad_request', 400, 'limit: too big'))).toBe(false);
    expect(isRetryable(new ApiError('not_found', 404, 'no such HPA'))).toBe(false);
    expect(isRetryable(new ApiError('cluster_unreachable', 502, 'cannot reach prod', 'prod'))).toBe(false);
    expect(isRetryable(new ApiError('upstream_error', 502, 'metrics API said 500'))).toBe(true);
    expect(isRetryable(new ApiError('not_ready', 503, 'syncing'))).toBe(true);
    expect(isRetryable(new ApiError('network', 0, 'fetch failed'))).toBe(true);
    expect(isRetryable(new Error('parse'))).toBe(true);
    expect(isClientError(new ApiError('forbidden', 403, 'no'))).toBe(true);
  });
});
