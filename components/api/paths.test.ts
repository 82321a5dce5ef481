import { describe, expect, it } from 'vitest';
import { apiPaths, pageParams } from './paths';

describe('pageParams', () => {
  const q = { group: 'HorizontalPodAutoscaler/FailedGetResourceMetric', sort: 'health' as const, limit: 500 };

  it('asks for the first page at its own size, and every later one by cursor at the query size', () => {
    expect(apiPaths.autoscalers(pageParams(q, 100, undefined))).toBe(
      '/api/v1/autoscalers?group=HorizontalPodAutoscaler%2FFailedGetResourceMetric&sort=health&limit=100',
    );
    expect(pageParams(q, 100, 'c2')).toEqual({ ...q, cursor: 'c2' });
  });

  it('without a first size, every page is the query size', () => {
    expect(pageParams(q, undefined, undefined)).toEqual({ ...q, cursor: undefined });
    expect(pageParams(q, undefined, 'c2')).toEqual({ ...q, cursor: 'c2' });
  });
});
