import { describe, expect, it } from 'vitest';
import type { MetricSpec, MetricStatus } from '@/lib/k8s/types';
import { metricKey, pairMetrics, toMetricIdentity } from '@/lib/hpa';

const cpuSpec: MetricSpec = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } };
const memSpec: MetricSpec = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } };
const queueSpec = (queue: string): MetricSpec => ({
  type: 'External',
  external: { metric: { name: 'queue_depth', selector: { matchLabels: { queue } } }, target: { type: 'AverageValue', averageValue: '30' } },
});
const cpuStatus: MetricStatus = { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 92, averageValue: '460m' } } };
const memStatus: MetricStatus = { type: 'Resource', resource: { name: 'memory', current: { averageValue: '300Mi' } } };
const queueStatus = (queue: string, averageValue: string): MetricStatus => ({
  type: 'External',
  external: { metric: { name: 'queue_depth', selector: { matchLabels: { queue } } }, current: { averageValue } },
});

describe('pairMetrics — by identity, never by position', () => {
  it('pairs a reordered status list (Headlamp #7736)', () => {
    const pairs = pairMetrics([cpuSpec, memSpec], [memStatus, cpuStatus]);
    expect(pairs.map((p) => [p.key, p.status])).toEqual([
      ['Resource/cpu', cpuStatus],
      ['Resource/memory', memStatus],
    ]);
  });

  it('leaves a failed metric unpaired when the controller wrote an empty entry in its place', () => {
    const pairs = pairMetrics([cpuSpec, memSpec], [{ type: '' }, memStatus]);
    expect(pairs.map((p) => [p.key, p.status])).toEqual([
      ['Resource/cpu', null],
      ['Resource/memory', memStatus],
    ]);
  });

  it('tells apart two External metrics of one name by their selectors (Lens #6110)', () => {
    const pairs = pairMetrics([queueSpec('a'), queueSpec('b')], [queueStatus('b', '12'), queueStatus('a', '40')]);
    expect(pairs.map((p) => [p.key, p.status?.external?.current.averageValue])).toEqual([
      ['External/queue_depth{queue=a}', '40'],
      ['External/queue_depth{queue=b}', '12'],
    ]);
  });

  it('matches an Object metric whose status lacks the apiVersion or, for AverageValue on released controllers, the described object', () => {
    const objectSpec = (apiVersion: string | undefined, type: string): MetricSpec => ({
      type: 'Object',
      object: { describedObject: { apiVersion, kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type, value: '10' } },
    });
    const withoutApiVersion: MetricStatus = {
      type: 'Object',
      object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, current: { value: '12' } },
    };
    expect(pairMetrics([objectSpec('networking.k8s.io/v1', 'Value')], [withoutApiVersion])[0]?.status).toBe(withoutApiVersion);
    const withoutObject = {
      type: 'Object',
      object: { metric: { name: 'rps' }, current: { averageValue: '4' } },
    } as unknown as MetricStatus;
    expect(pairMetrics([objectSpec('networking.k8s.io/v1', 'AverageValue')], [withoutObject])[0]?.status).toBe(withoutObject);
  });

  it('lists status entries without a spec metric last, and handles absent lists', () => {
    const pairs = pairMetrics([cpuSpec], [memStatus, cpuStatus]);
    expect(pairs.map((p) => [p.key, p.spec === null, p.status === null])).toEqual([
      ['Resource/cpu', false, false],
      ['Resource/memory', true, false],
    ]);
    expect(pairMetrics(null, undefined)).toEqual([]);
  });

  it('keys identities as type/name[container]@object{selector}', () => {
    expect(
      metricKey(
        toMetricIdentity({
          type: 'ContainerResource',
          containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization' } },
        }),
      ),
    ).toBe('ContainerResource/cpu[app]');
    expect(
      metricKey(
        toMetricIdentity({
          type: 'Pods',
          pods: {
            metric: {
              name: 'rps',
              selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }] },
            },
            target: { type: 'AverageValue' },
          },
        }),
      ),
    ).toBe('Pods/rps{a=1,b=2,c In (x,y)}');
  });
});
