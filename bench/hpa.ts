import { performance } from 'node:perf_hooks';
import type { HpaSyncInput } from '../lib/hpa';
import type { Pod, PodMetrics } from '../lib/k8s/types';
import { simulateHpaSync } from '../lib/hpa';

/**
 * One `simulateHpaSync` with 500 pods and three metrics (Resource cpu Utilization, Pods AverageValue,
 * External Value), timed over many iterations. Prints the median and p99; asserts nothing.
 */

const PODS = 500;
const WARMUP = 200;
const ITERATIONS = 2_000;
const NOW = '2025-06-01T12:00:00Z';
const STARTED = '2025-06-01T11:00:00Z';

function buildInput(): HpaSyncInput {
  const pods: Pod[] = [];
  const resource: PodMetrics[] = [];
  const rps = [];
  for (let i = 0; i < PODS; i++) {
    const name = `web-7c9d8f6b5-${i.toString(36).padStart(5, '0')}`;
    pods.push({
      metadata: { name, namespace: 'shop', labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7c9d8f6b5' } },
      spec: {
        containers: [
          { name: 'app', resources: { requests: { cpu: '500m', memory: '512Mi' } } },
          { name: 'envoy', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
        ],
        initContainers: [{ name: 'log-shipper', restartPolicy: 'Always', resources: { requests: { cpu: '50m', memory: '64Mi' } } }],
      },
      status: { phase: 'Running', startTime: STARTED, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: STARTED }] },
    });
    resource.push({
      metadata: { name, namespace: 'shop', labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7c9d8f6b5' } },
      timestamp: '2025-06-01T11:59:45Z',
      window: '15s',
      containers: [
        { name: 'app', usage: { cpu: `${300 + (i % 200)}m`, memory: '300Mi' } },
        { name: 'envoy', usage: { cpu: `${40 + (i % 30)}m`, memory: '60Mi' } },
        { name: 'log-shipper', usage: { cpu: '10m', memory: '20Mi' } },
      ],
    });
    rps.push({ pod: name, value: `${90_000 + (i % 50) * 1000}m`, timestamp: '2025-06-01T11:59:50Z' });
  }
  return {
    hpa: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 10,
        maxReplicas: 1000,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'Pods', pods: { metric: { name: 'http_requests_per_second' }, target: { type: 'AverageValue', averageValue: '100' } } },
          {
            type: 'External',
            external: {
              metric: { name: 'queue_depth', selector: { matchLabels: { queue: 'orders' } } },
              target: { type: 'Value', value: '30k' },
            },
          },
        ],
      },
      status: { currentReplicas: PODS, desiredReplicas: PODS },
    },
    scale: { specReplicas: PODS, statusReplicas: PODS, selector: 'app=web,tier=frontend' },
    pods,
    metrics: { resource, pods: { http_requests_per_second: rps }, external: { queue_depth: ['12000', '9500', '7300'] } },
    controllerState: { recommendations: [{ replicas: PODS, timestamp: '2025-06-01T11:58:00Z' }], scaleUpEvents: [], scaleDownEvents: [] },
    now: NOW,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const input = buildInput();
let sink = 0;
for (let i = 0; i < WARMUP; i++) sink += simulateHpaSync(input).desiredReplicas;
const samples: number[] = [];
for (let i = 0; i < ITERATIONS; i++) {
  const start = performance.now();
  sink += simulateHpaSync(input).desiredReplicas;
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const result = simulateHpaSync(input);
console.log(`simulateHpaSync: ${PODS} pods, 3 metrics, ${ITERATIONS} iterations (desired ${result.desiredReplicas}, checksum ${sink})`);
console.log(
  `median ${percentile(samples, 50).toFixed(3)} ms   p99 ${percentile(samples, 99).toFixed(3)} ms   min ${(samples[0] ?? 0).toFixed(3)} ms`,
);
