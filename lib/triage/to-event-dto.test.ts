import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { toEventFiling } from './to-event-dto';

describe('toEventFiling: a Kubernetes event as the API event, filed under what it regards', () => {
  it('maps a core/v1 event about an HPA', () => {
    const e: KubeObject = {
      metadata: { name: 'web.17f', namespace: 'shop', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' },
      involvedObject: { kind: 'HorizontalPodAutoscaler', name: 'web', namespace: 'shop' },
      type: 'Warning',
      reason: 'FailedGetResourceMetric',
      message: 'failed to get cpu utilization',
      count: 3,
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:05:00Z',
      source: { component: 'horizontal-pod-autoscaler' },
    };
    expect(toEventFiling('prod', e)).toEqual({
      event: {
        uid: 'u1',
        type: 'Warning',
        reason: 'FailedGetResourceMetric',
        message: 'failed to get cpu utilization',
        count: 3,
        firstSeen: '2026-01-01T00:00:00Z',
        lastSeen: '2026-01-01T00:05:00Z',
        source: 'horizontal-pod-autoscaler',
        regarding: 'HorizontalPodAutoscaler/web',
      },
      autoscalerId: 'prod/HorizontalPodAutoscaler/shop/web',
      machineSet: null,
    });
  });

  it('maps an events.k8s.io/v1 event (note, regarding, deprecatedCount, eventTime) and encodes the cluster in the id', () => {
    const e: KubeObject = {
      metadata: { name: 'x', namespace: 'openshift-machine-api' },
      regarding: { kind: 'MachineAutoscaler', name: 'worker' },
      note: 'set owner failed',
      reason: 'FailedSetOwner',
      deprecatedCount: 2,
      eventTime: '2026-01-01T00:00:00Z',
      reportingComponent: 'cluster-autoscaler-operator',
    };
    const filed = toEventFiling('karmada/member', e);
    expect(filed.autoscalerId).toBe('karmada%2Fmember/MachineAutoscaler/openshift-machine-api/worker');
    expect(filed.event).toMatchObject({
      uid: 'karmada/member/openshift-machine-api/x',
      type: 'Normal',
      message: 'set owner failed',
      count: 2,
      firstSeen: '2026-01-01T00:00:00Z',
      source: 'cluster-autoscaler-operator',
    });
  });

  it('files an event about a MachineSet by its name, and one about anything else nowhere', () => {
    const base = { metadata: { name: 'e', namespace: 'openshift-machine-api' }, reason: 'InvalidOrMissingGPUAcceleratorLabel' };
    expect(toEventFiling('ocp', { ...base, involvedObject: { kind: 'MachineSet', name: 'gpu-1b' } })).toMatchObject({
      autoscalerId: null,
      machineSet: 'gpu-1b',
    });
    expect(toEventFiling('ocp', { ...base, involvedObject: { kind: 'Pod', name: 'p' } })).toMatchObject({
      autoscalerId: null,
      machineSet: null,
    });
  });
});
