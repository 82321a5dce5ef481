import { describe, expect, it } from 'vitest';
import { toRoutePattern } from './route-pattern';

describe('toRoutePattern', () => {
  it.each([
    ['/api/healthz', undefined, '/api/healthz'],
    ['/api/v1/autoscalers', {}, '/api/v1/autoscalers'],
    [
      '/api/v1/autoscalers/prod-eu/HorizontalPodAutoscaler/shop/web',
      { cluster: 'prod-eu', kind: 'HorizontalPodAutoscaler', namespace: 'shop', name: 'web' },
      '/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]',
    ],
    // Equal values are placed in the route's order, so each lands on its own segment.
    [
      '/api/v1/autoscalers/a/HorizontalPodAutoscaler/a/a/history',
      { cluster: 'a', kind: 'HorizontalPodAutoscaler', namespace: 'a', name: 'a' },
      '/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/history',
    ],
    // A Karmada member's name carries a slash, percent-encoded in the path; Next hands it over decoded.
    [
      '/api/v1/autoscalers/karmada-global%2Fmember-eu/HorizontalPodAutoscaler/shop/web/explain',
      { cluster: 'karmada-global/member-eu', kind: 'HorizontalPodAutoscaler', namespace: 'shop', name: 'web' },
      '/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/explain',
    ],
    ['/api/v1/preview/federation/divide', { operation: 'divide' }, '/api/v1/preview/federation/[operation]'],
    ['/api/no/such/route', { path: ['no', 'such', 'route'] }, '/api/[...path]'],
  ])('%s → its pattern', (pathname, params, pattern) => {
    expect(toRoutePattern(pathname, params)).toBe(pattern);
  });

  it('says (unmatched) rather than echo a value it could not place', () => {
    expect(toRoutePattern('/api/v1/autoscalers/x', { cluster: 'y' })).toBe('(unmatched)');
  });
});
