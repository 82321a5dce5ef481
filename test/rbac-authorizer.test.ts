import { describe, expect, it } from 'vitest';
import { allows, checkRequest, loadRules, requestAttributes } from './rbac-authorizer';

/** The checker test/integration/bff.test.ts runs over every request Autoscope made: first, that it can say no. */
describe('docs/rbac.yaml and its checker', () => {
  const rules = loadRules();

  it('grants only get, list and watch', () => {
    expect([...new Set(rules.flatMap((r) => r.verbs))].sort()).toEqual(['get', 'list', 'watch']);
  });

  it('derives request attributes as the API server does', () => {
    expect(requestAttributes('/apis/autoscaling/v2/horizontalpodautoscalers?watch=1&resourceVersion=5')).toMatchObject({
      apiGroup: 'autoscaling',
      resource: 'horizontalpodautoscalers',
      name: '',
      verb: 'watch',
    });
    expect(requestAttributes('/apis/apps/v1/namespaces/shop/deployments/web/scale')).toMatchObject({
      apiGroup: 'apps',
      namespace: 'shop',
      resource: 'deployments',
      name: 'web',
      subresource: 'scale',
      verb: 'get',
    });
    expect(requestAttributes('/api/v1/namespaces/shop/pods?labelSelector=app%3Dweb')).toMatchObject({
      apiGroup: '',
      namespace: 'shop',
      resource: 'pods',
      verb: 'list',
    });
    expect(requestAttributes('/api/v1/namespaces/shop')).toMatchObject({ resource: 'namespaces', name: 'shop', verb: 'get' });
    expect(requestAttributes('/apis/autoscaling/v2')).toEqual({ kind: 'nonResource', path: '/apis/autoscaling/v2', verb: 'get' });
  });

  it('allows what Autoscope reads', () => {
    for (const p of [
      '/apis/autoscaling/v2/horizontalpodautoscalers?watch=true',
      '/api/v1/events?fieldSelector=involvedObject.kind%3DHorizontalPodAutoscaler',
      '/apis/apps/v1/namespaces/shop/deployments/web/scale',
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/shop/pods/*/http_requests',
      '/apis/cluster.karmada.io/v1alpha1/clusters/member-eu/proxy/apis/autoscaling/v2/horizontalpodautoscalers',
      '/version',
      '/apis',
    ]) {
      expect(checkRequest(rules, p), p).toBeNull();
    }
  });

  it('denies what the role does not grant: secrets, a Deployment itself, writes, an unlisted scale target, the member side of a proxy', () => {
    expect(checkRequest(rules, '/api/v1/namespaces/shop/secrets')).not.toBeNull();
    expect(checkRequest(rules, '/apis/apps/v1/namespaces/shop/deployments/web')).not.toBeNull();
    expect(checkRequest(rules, '/apis/example.com/v1/namespaces/shop/widgets/w/scale')).not.toBeNull();
    expect(checkRequest(rules, '/apis/cluster.karmada.io/v1alpha1/clusters/member-eu/proxy/api/v1/secrets')).not.toBeNull();
    expect(
      allows(rules, {
        kind: 'resource',
        apiGroup: 'autoscaling',
        resource: 'horizontalpodautoscalers',
        subresource: '',
        name: 'web',
        namespace: 'shop',
        verb: 'update',
      }),
    ).toBe(false);
    expect(allows(rules, { kind: 'nonResource', path: '/metrics', verb: 'get' })).toBe(false);
  });
});
