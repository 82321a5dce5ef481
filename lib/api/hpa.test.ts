import { describe, expect, it } from 'vitest';
import type { HpaSyncInput } from '@/lib/hpa';
import { simulateHpaSync } from '@/lib/hpa';
import { HPA_PREVIEW_MAX_PODS, HpaSyncInputSchema, HpaSyncResultSchema } from '@/lib/api/hpa';
import { buildSyncInput } from '@/lib/hpa/__fixtures__/upstream-harness';

const scenario = {
  minReplicas: 1,
  maxReplicas: 6,
  specReplicas: 3,
  statusReplicas: 3,
  CPUTarget: 60,
  reportedLevels: [900, 900, 900],
  reportedCPURequests: ['1.0', '1.0', '1.0'],
};

describe('HpaSyncInputSchema / HpaSyncResultSchema', () => {
  it('accepts a real preview body and the parsed body drives simulateHpaSync; the result matches its schema', () => {
    const body = JSON.parse(JSON.stringify(buildSyncInput(scenario))) as unknown;
    const parsed = HpaSyncInputSchema.parse(body);
    const input: HpaSyncInput = parsed;
    const result = simulateHpaSync(input);
    expect(result.desiredReplicas).toBe(5);
    expect(HpaSyncResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(JSON.parse(JSON.stringify(result)));
  });

  it.each([
    [
      'an invalid quantity in a container request',
      (b: HpaSyncInput) => ((b.pods[0] as HpaSyncInput['pods'][number]).spec!.containers[0]!.resources = { requests: { cpu: '1 core' } }),
      ['pods', 0, 'spec', 'containers', 0, 'resources', 'requests', 'cpu'],
    ],
    ['a number where a quantity string belongs', (b: HpaSyncInput) => (b.metrics.object = { qps: 5 }), ['metrics', 'object', 'qps']],
    ['a time that is not RFC 3339', (b: HpaSyncInput) => (b.now = 'yesterday'), ['now']],
    [
      'a stabilization window above 3600s',
      (b: HpaSyncInput) => (b.hpa.spec.behavior = { scaleDown: { stabilizationWindowSeconds: 7200 } }),
      ['hpa', 'spec', 'behavior', 'scaleDown', 'stabilizationWindowSeconds'],
    ],
    [
      'an unknown selectPolicy',
      (b: HpaSyncInput) => (b.hpa.spec.behavior = { scaleUp: { selectPolicy: 'Sometimes' } }),
      ['hpa', 'spec', 'behavior', 'scaleUp', 'selectPolicy'],
    ],
  ])('rejects %s at the failing field', (_name, mutate, path) => {
    const body = buildSyncInput(scenario);
    mutate(body);
    const parsed = HpaSyncInputSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(path);
  });

  it(`bounds the pod list at ${HPA_PREVIEW_MAX_PODS}`, () => {
    const body = buildSyncInput(scenario);
    const pod = body.pods[0] as HpaSyncInput['pods'][number];
    body.pods = Array.from({ length: HPA_PREVIEW_MAX_PODS + 1 }, (_, i) => ({ ...pod, metadata: { ...pod.metadata, name: `p-${i}` } }));
    expect(HpaSyncInputSchema.safeParse(body).error?.issues[0]?.path).toEqual(['pods']);
  });
});
