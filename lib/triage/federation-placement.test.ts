import { describe, expect, it } from 'vitest';
import type { PropagationPolicyObject, ResourceBindingObject } from './karmada-types';
import { indexFederationObjects } from './federation-placement';

const binding = (name: string, namespace: string, kind: string, resource: string): ResourceBindingObject => ({
  metadata: { name, namespace },
  spec: { resource: { apiVersion: 'apps/v1', kind, name: resource, namespace } },
});
const policy = (name: string, namespace: string, selectors: { kind: string; name?: string }[]): PropagationPolicyObject => ({
  metadata: { name, namespace },
  spec: { resourceSelectors: selectors.map((s) => ({ apiVersion: 'apps/v1', ...s })) },
});

describe('indexFederationObjects: the binding and policy of a resource template by key', () => {
  const bindings = [
    binding('orders-deployment', 'api', 'Deployment', 'orders'),
    binding('orders-deployment-2', 'api', 'Deployment', 'orders'),
    binding('orders-deployment', 'web', 'Deployment', 'orders'),
  ];
  const policies = [
    policy('all-statefulsets', 'api', [{ kind: 'StatefulSet' }]),
    policy('orders', 'api', [{ kind: 'Deployment', name: 'orders' }]),
    policy('any-deployment', 'api', [{ kind: 'Deployment' }]),
  ];
  const lookup = indexFederationObjects(bindings, policies);

  it('finds the binding by namespace, kind and name; the first in list order wins', () => {
    expect(lookup.binding('api', { kind: 'Deployment', name: 'orders' })).toBe(bindings[0]);
    expect(lookup.binding('web', { kind: 'Deployment', name: 'orders' })).toBe(bindings[2]);
    expect(lookup.binding('api', { kind: 'StatefulSet', name: 'orders' })).toBeNull();
    expect(lookup.binding('other', { kind: 'Deployment', name: 'orders' })).toBeNull();
  });

  it('finds the first policy of the namespace whose selectors pick the resource (a selector without a name picks its whole kind)', () => {
    expect(lookup.policy('api', { kind: 'Deployment', name: 'orders' })?.metadata.name).toBe('orders');
    expect(lookup.policy('api', { kind: 'Deployment', name: 'payments' })?.metadata.name).toBe('any-deployment');
    expect(lookup.policy('web', { kind: 'Deployment', name: 'orders' })).toBeNull();
  });
});
