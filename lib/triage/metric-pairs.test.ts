import { describe, expect, it } from 'vitest';
import type { MetricSpec, MetricStatus } from '@/lib/k8s/types';
import { EU, hpa } from '@/lib/triage/__fixtures__/fleet';
import { toMetricPairs } from '@/lib/triage/metric-pairs';

const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main-route' };
const queue = { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'worker_tasks' } } };

type Case = [string, MetricSpec, MetricStatus | null, number | null, string];

// Each basis the controller uses (docs/engines/hpa.md §2 table), with kubectl-style summaries.
const cases: Case[] = [
  [
    'Resource Utilization',
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 92, averageValue: '460m' } } },
    1.53,
    'cpu 92% / 60%',
  ],
  [
    'Resource: averageValue wins over averageUtilization when both are set (computeStatusForResourceMetricGeneric)',
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60, averageValue: '500m' } } },
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 92, averageValue: '460m' } } },
    0.92,
    'cpu 460m / 500m',
  ],
  [
    'ContainerResource AverageValue in binary SI',
    {
      type: 'ContainerResource',
      containerResource: { name: 'memory', container: 'renderer', target: { type: 'AverageValue', averageValue: '512Mi' } },
    },
    { type: 'ContainerResource', containerResource: { name: 'memory', container: 'renderer', current: { averageValue: '412Mi' } } },
    0.8,
    'memory (container renderer) 412Mi / 512Mi',
  ],
  [
    'Pods AverageValue across suffixes',
    { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '500' } } },
    { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '1k' } } },
    2,
    'packets-per-second 1k / 500',
  ],
  [
    'Object Value',
    {
      type: 'Object',
      object: { describedObject: ingress, metric: { name: 'requests-per-second' }, target: { type: 'Value', value: '2k' } },
    },
    { type: 'Object', object: { describedObject: ingress, metric: { name: 'requests-per-second' }, current: { value: '10k' } } },
    5,
    'requests-per-second on Ingress/main-route 10k / 2k',
  ],
  [
    'Object AverageValue (per pod)',
    {
      type: 'Object',
      object: { describedObject: ingress, metric: { name: 'requests-per-second' }, target: { type: 'AverageValue', averageValue: '100' } },
    },
    { type: 'Object', object: { describedObject: ingress, metric: { name: 'requests-per-second' }, current: { averageValue: '150' } } },
    1.5,
    'requests-per-second on Ingress/main-route 150 / 100 (avg)',
  ],
  [
    'External AverageValue',
    { type: 'External', external: { metric: queue, target: { type: 'AverageValue', averageValue: '30' } } },
    { type: 'External', external: { metric: queue, current: { averageValue: '45' } } },
    1.5,
    'queue_messages_ready{queue=worker_tasks} 45 / 30 (avg)',
  ],
  [
    'External Value, milli quantities',
    { type: 'External', external: { metric: queue, target: { type: 'Value', value: '1500m' } } },
    { type: 'External', external: { metric: queue, current: { value: '3' } } },
    2,
    'queue_messages_ready{queue=worker_tasks} 3 / 1500m',
  ],
  [
    'a failed metric (the controller leaves an empty entry)',
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    { type: '' },
    null,
    'cpu <unknown> / 70%',
  ],
  [
    'a zero target has no ratio',
    { type: 'Pods', pods: { metric: { name: 'jobs' }, target: { type: 'AverageValue', averageValue: '0' } } },
    { type: 'Pods', pods: { metric: { name: 'jobs' }, current: { averageValue: '4' } } },
    null,
    'jobs 4 / 0',
  ],
  [
    'an unparsable quantity has no ratio',
    { type: 'Pods', pods: { metric: { name: 'jobs' }, target: { type: 'AverageValue', averageValue: '10 jobs' } } },
    { type: 'Pods', pods: { metric: { name: 'jobs' }, current: { averageValue: '4' } } },
    null,
    'jobs 4 / 10 jobs',
  ],
  [
    'a target whose type names a missing field',
    { type: 'Object', object: { describedObject: ingress, metric: { name: 'rps' }, target: { type: 'Value', averageValue: '5' } } },
    null,
    null,
    'rps on Ingress/main-route <unknown> / <no usable target>',
  ],
];

describe('toMetricPairs', () => {
  it.each(cases)('%s', (_name, spec, status, ratio, summary) => {
    const [pair] = toMetricPairs([spec], status ? [status] : []);
    expect(pair?.ratio).toBe(ratio);
    expect(pair?.summary).toBe(summary);
  });

  it('pairs by identity, not by position (Headlamp #7736): a reordered status still lands on its spec', () => {
    const h = hpa(EU, 'shop', 'checkout');
    const reversed = [...(h.status?.currentMetrics ?? [])].reverse();
    expect(toMetricPairs(h.spec.metrics, reversed).map((p) => [p.key, p.summary])).toEqual([
      ['Resource/cpu', 'cpu 92% / 60%'],
      ['Resource/memory', 'memory 734003200 / 900Mi'],
    ]);
  });

  it('keeps identity fields and quantities as strings, and shows status entries that have no spec', () => {
    const pairs = toMetricPairs(
      [{ type: 'External', external: { metric: queue, target: { type: 'AverageValue', averageValue: 30 } } }],
      [
        { type: 'External', external: { metric: queue, current: { averageValue: '45' } } },
        { type: 'Resource', resource: { name: 'memory', current: { averageValue: '1Gi' } } },
      ],
    );
    expect(pairs).toEqual([
      {
        key: 'External/queue_messages_ready{queue=worker_tasks}',
        type: 'External',
        name: 'queue_messages_ready',
        selector: 'queue=worker_tasks',
        target: { type: 'AverageValue', averageValue: '30' },
        current: { averageValue: '45' },
        ratio: 1.5,
        summary: 'queue_messages_ready{queue=worker_tasks} 45 / 30 (avg)',
      },
      {
        key: 'Resource/memory',
        type: 'Resource',
        name: 'memory',
        target: null,
        current: { averageValue: '1Gi' },
        ratio: null,
        summary: 'memory 1Gi (not in spec)',
      },
    ]);
  });
});
