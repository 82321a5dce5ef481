import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { FRESH, hpa, NOW, US } from './__fixtures__/fleet';
import { groupProblems } from './group-problems';
import { toHpaAutoscaler } from './to-hpa-autoscaler';

/**
 * billing/exporter with a second metric whose read fails while the first still decides: upstream keeps
 * ScalingActive=True/ValidMetricFound and writes an empty currentMetrics entry for the failed one
 * (horizontal.go computeReplicasForMetrics: a partial failure that scales up is still a valid decision).
 */
function partlyUnread(name: string, failing: 'cpu' | 'rps'): HorizontalPodAutoscaler {
  const base = hpa(US, 'billing', 'exporter');
  const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } };
  const rps = {
    type: 'Pods',
    pods: { metric: { name: 'http_requests_per_second' }, target: { type: 'AverageValue', averageValue: '100' } },
  };
  const cpuStatus = { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55, averageValue: '137m' } } };
  const rpsStatus = { type: 'Pods', pods: { metric: { name: 'http_requests_per_second' }, current: { averageValue: '120' } } };
  return {
    ...base,
    metadata: { ...base.metadata, name, uid: `uid-${name}` },
    spec: { ...base.spec, metrics: [cpu, rps] },
    status: { ...base.status, currentMetrics: failing === 'cpu' ? [{ type: '' }, rpsStatus] : [cpuStatus, { type: '' }] },
  };
}

describe('a metric the controller could not read while another still decided', () => {
  it('is a degraded FailedGet*Metric problem, not ok', () => {
    const a = toHpaAutoscaler(US, partlyUnread('exporter', 'rps'), FRESH, NOW);
    expect(a.conditions.find((c) => c.type === 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
    expect(a.health).toBe('degraded');
    const unread = a.problems.filter((p) => p.code.startsWith('FailedGet'));
    expect(unread.map((p) => [p.code, p.severity])).toEqual([['FailedGetPodsMetric', 'warning']]);
    expect(unread[0]?.message).toMatch(/http_requests_per_second Pods metric could not be read/);
  });

  it('counts toward the metrics-outage rule: every Resource-metric HPA of the cluster failing to read cpu is one outage', () => {
    const autoscalers = ['a', 'b', 'c'].map((n) => toHpaAutoscaler(US, partlyUnread(n, 'cpu'), FRESH, NOW));
    const group = groupProblems(autoscalers, NOW).find((g) => g.reason === 'FailedGetResourceMetric');
    expect(group?.count).toBe(3);
    expect(group?.likelyCause).toMatch(/^metrics API unavailable in cluster arn:aws:eks:us-east-1:123456789012:cluster\/prod-us/);
  });

  it('is not reported while ScalingActive is False: that condition already says it', () => {
    const h = partlyUnread('exporter', 'cpu');
    const conditions = (h.status?.conditions ?? []).map((c) =>
      c.type === 'ScalingActive'
        ? {
            ...c,
            status: 'False',
            reason: 'FailedGetResourceMetric',
            message: 'the HPA was unable to compute the replica count: unable to get metrics for resource cpu',
          }
        : c,
    );
    const a = toHpaAutoscaler(US, { ...h, status: { ...h.status, conditions } }, FRESH, NOW);
    const unread = a.problems.filter((p) => p.code.startsWith('FailedGet'));
    expect(unread.map((p) => [p.code, p.severity])).toEqual([['FailedGetResourceMetric', 'error']]);
  });
});
