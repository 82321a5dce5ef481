import { describe, expect, it } from 'vitest';
import { globToRegExp } from './glob';
import { toAccessPolicy } from './policy';
import type { Identity } from './scope';
import { canSeeAutoscaler, canSeeAutoscalerId, canSeeCluster, scopeFor } from './scope';

const person = (over: Partial<Identity> = {}): Identity => ({ subject: 'u-1', name: 'Ada', email: 'ada@example.com', groups: [], ...over });

function policyOf(doc: unknown): ReturnType<typeof toAccessPolicy> & { ok: true } {
  const parsed = toAccessPolicy(doc);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed;
}

describe('globToRegExp', () => {
  it.each([
    ['prod-*', 'prod-eu-west-1', true],
    ['prod-*', 'staging', false],
    ['prod-*', 'xprod-eu', false],
    ['*', 'karmada-global/member-eu', true],
    ['karmada-global/*', 'karmada-global/member-eu', true],
    ['karmada-global/*', 'karmada-global', false],
    ['member-??', 'member-eu', true],
    ['member-??', 'member-e', false],
    ['a.b', 'axb', false],
    ['a.b', 'a.b', true],
    ['payments', 'payments-v2', false],
  ])('%s matches %s: %s', (glob, name, expected) => {
    expect(globToRegExp(glob).test(name)).toBe(expected);
  });
});

describe('toAccessPolicy', () => {
  it('fills the defaults: defaultRole none, no rules, every namespace, every kind', () => {
    expect(policyOf({}).policy).toEqual({ defaultRole: 'none', rules: [] });
    expect(policyOf({ rules: [{ groups: ['g'], clusters: ['*'] }] }).policy.rules[0]).toEqual({
      users: [],
      groups: ['g'],
      clusters: ['*'],
      namespaces: ['*'],
    });
  });

  it.each([
    [{ defaultRole: 'admin' }, ['defaultRole']],
    [{ rules: [{ groups: ['g'] }] }, ['rules', 0, 'clusters']],
    [{ rules: [{ clusters: ['*'] }] }, ['rules', 0, 'users']],
    [{ rules: [{ groups: ['g'], clusters: ['prod eu'] }] }, ['rules', 0, 'clusters', 0]],
    [{ rules: [{ groups: ['g'], clusters: ['*'], kinds: ['Deployment'] }] }, ['rules', 0, 'kinds', 0]],
    [{ rules: [{ groups: ['g'], clusters: ['*'], namespace: ['a'] }] }, ['rules', 0]],
    [{ rules: [{ groups: ['g'], clusters: [] }] }, ['rules', 0, 'clusters']],
    [{ role: 'x' }, []],
  ])('%j is refused at %j', (doc, path) => {
    const parsed = toAccessPolicy(doc);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.path)).toContainEqual(path);
  });
});

describe('scopeFor and its checks', () => {
  const { policy } = policyOf({
    defaultRole: 'none',
    rules: [
      { name: 'payments', groups: ['payments'], clusters: ['prod-*', 'staging'], namespaces: ['payments', 'payments-*'] },
      { name: 'platform', groups: ['platform'], clusters: ['ocp-*'], kinds: ['MachineAutoscaler'] },
      { name: 'ada', users: ['ADA@example.com'], clusters: ['karmada-global', 'karmada-global/*'], namespaces: ['shop'] },
    ],
  });

  it('a group member sees the clusters of their rules, and inside them only the allowed namespaces', () => {
    const scope = scopeFor(policy, person({ email: null, groups: ['payments'] }));
    expect(scope.rules).toEqual(['payments']);
    expect(canSeeCluster(scope, 'prod-eu-west-1')).toBe(true);
    expect(canSeeCluster(scope, 'staging')).toBe(true);
    expect(canSeeCluster(scope, 'ocp-prod-east')).toBe(false);
    expect(canSeeAutoscaler(scope, { cluster: 'prod-us', namespace: 'payments-api', kind: 'HorizontalPodAutoscaler' })).toBe(true);
    expect(canSeeAutoscaler(scope, { cluster: 'prod-us', namespace: 'checkout', kind: 'HorizontalPodAutoscaler' })).toBe(false);
    expect(canSeeAutoscaler(scope, { cluster: 'ocp-prod-east', namespace: 'payments', kind: 'HorizontalPodAutoscaler' })).toBe(false);
  });

  it('kinds narrow a rule', () => {
    const scope = scopeFor(policy, person({ email: null, groups: ['platform'] }));
    expect(canSeeAutoscaler(scope, { cluster: 'ocp-edge', namespace: 'openshift-machine-api', kind: 'MachineAutoscaler' })).toBe(true);
    expect(canSeeAutoscaler(scope, { cluster: 'ocp-edge', namespace: 'default', kind: 'HorizontalPodAutoscaler' })).toBe(false);
  });

  it('users match the subject or the email (any case); several rules add up', () => {
    const scope = scopeFor(policy, person({ groups: ['payments'] }));
    expect(scope.rules).toEqual(['payments', 'ada']);
    expect(canSeeCluster(scope, 'karmada-global/member-eu')).toBe(true);
    expect(canSeeAutoscaler(scope, { cluster: 'karmada-global', namespace: 'shop', kind: 'FederatedHPA' })).toBe(true);
    expect(canSeeAutoscaler(scope, { cluster: 'prod-us', namespace: 'payments', kind: 'HorizontalPodAutoscaler' })).toBe(true);
    expect(scopeFor(policy, person({ subject: 'ADA@example.com', email: null })).rules).toEqual(['ada']);
  });

  it('nobody named: nothing under defaultRole none, everything under read-all', () => {
    const none = scopeFor(policy, person({ email: 'eve@example.com', groups: ['other'] }));
    expect(none.rules).toEqual([]);
    expect(canSeeCluster(none, 'prod-us')).toBe(false);
    expect(canSeeAutoscalerId(none, 'prod-us/HorizontalPodAutoscaler/payments/api')).toBe(false);
    const readAll = scopeFor({ ...policy, defaultRole: 'read-all' }, person({ email: 'eve@example.com' }));
    expect(readAll.all).toBe(true);
    expect(canSeeCluster(readAll, 'anything')).toBe(true);
  });

  it('ids: the cluster segment is URL-encoded; an id that does not parse is never visible', () => {
    const scope = scopeFor(policy, person());
    expect(canSeeAutoscalerId(scope, 'karmada-global%2Fmember-eu/HorizontalPodAutoscaler/shop/web')).toBe(true);
    expect(canSeeAutoscalerId(scope, 'karmada-global%2Fmember-eu/HorizontalPodAutoscaler/other/web')).toBe(false);
    expect(canSeeAutoscalerId(scope, 'not-an-id')).toBe(false);
  });
});
