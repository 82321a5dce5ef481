import { describe, expect, it } from 'vitest';
import type { HpaSyncInput } from '@/lib/hpa/types';
import type { Pod, PodMetrics } from '@/lib/k8s/types';
import { playLoadCurve, scaleLoad, withLoad } from './load';
import { simulateHpaSync } from './sync';

const now = '2026-11-22T12:00:00Z';
const started = '2026-11-22T10:00:00Z';

function pod(i: number): Pod {
  return {
    metadata: { name: `web-${i}`, namespace: 'shop', labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', resources: { requests: { cpu: '500m' } } }] },
    status: { phase: 'Running', startTime: started, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: started }] },
  };
}

function usage(i: number, cpu: string): PodMetrics {
  return {
    metadata: { name: `web-${i}`, namespace: 'shop' },
    timestamp: '2026-11-22T11:59:30Z',
    window: '30s',
    containers: [{ name: 'app', usage: { cpu } }],
  };
}

/** 4 ready pods at 300m of a 500m request (60%) against a 60% target: in balance. */
const base: HpaSyncInput = {
  hpa: {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    },
    status: { currentReplicas: 4, desiredReplicas: 4, conditions: [] },
  },
  scale: { specReplicas: 4, statusReplicas: 4, selector: 'app=web' },
  pods: [0, 1, 2, 3].map(pod),
  metrics: { resource: [0, 1, 2, 3].map((i) => usage(i, '300m')) },
  controllerState: { recommendations: [{ replicas: 4, timestamp: '2026-11-22T11:50:00Z' }], scaleUpEvents: [], scaleDownEvents: [] },
  now,
};

describe('what-if load for previews', () => {
  it("withLoad at factor 1 over the same replicas reproduces today's decision", () => {
    expect(simulateHpaSync(withLoad(base, 1, 4)).desiredReplicas).toBe(simulateHpaSync(base).desiredReplicas);
    expect(simulateHpaSync(base).desiredReplicas).toBe(4);
  });

  it('doubling the load doubles the replicas the controller asks for (60% → 120% of request)', () => {
    expect(simulateHpaSync(scaleLoad(base, 2)).desiredReplicas).toBe(8);
    expect(simulateHpaSync(withLoad(base, 2, 4)).desiredReplicas).toBe(8);
  });

  it('spreads the same total over more pods: 4 pods at 60% are 8 pods at 30%', () => {
    const result = simulateHpaSync(withLoad(base, 1, 8));
    const cpu = result.currentMetrics[0]?.resource?.current.averageUtilization;
    expect(cpu).toBe(30);
  });

  it('plays a load curve: replicas climb with the load, cap at maxReplicas, and the 5-minute window holds them after', () => {
    const steps = playLoadCurve(base, [1, 2, 3, 3, 1, 1], 15);
    expect(steps.map((s) => s.replicas)).toEqual([4, 8, 10, 10, 10, 10]);
    expect(steps[2]?.limited).toBe('TooManyReplicas');
    expect(steps[5]?.result.conditions.find((c) => c.type === 'AbleToScale')?.reason).toBe('ScaleDownStabilized');
    expect(steps.map((s) => s.t)).toEqual([0, 15, 30, 45, 60, 75]);
  });
});
