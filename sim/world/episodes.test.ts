import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessMachineAutoscalers } from '@/lib/machine';
import type { CoreEvent } from '@/lib/k8s/types';
import { startSimulator } from '../index';
import { machineStorage } from './machine-world';
import type { World } from './world';

/** At speed 240 the demo's 30-minute story plays in 7.5 seconds. */
const speed = 240;
let world: World;

beforeAll(async () => {
  world = await startSimulator({ scenario: 'demo', speed, dataDir: mkdtempSync(path.join(os.tmpdir(), 'sim-episodes-')) });
});

afterAll(async () => {
  await world.stop();
});

const seen = (filter: Partial<Record<'cluster' | 'kind' | 'namespace' | 'name' | 'type' | 'status' | 'reason', string>>): boolean =>
  world.truth.recent.some((t) => Object.entries(filter).every(([k, v]) => t[k as keyof typeof t] === v));

function verdicts(): ReturnType<typeof assessMachineAutoscalers> {
  const store = world.fleet.cluster('ocp-prod-east').store;
  return assessMachineAutoscalers({
    machineAutoscalers: store.list(machineStorage.ma),
    machineSets: { machineAPI: store.list(machineStorage.mapi), clusterAPI: store.list(machineStorage.capi) },
    clusterAutoscalers: store.list(machineStorage.ca),
    events: store.list('/events'),
    context: {
      operatorNamespace: 'openshift-machine-api',
      machineAPINamespace: 'openshift-machine-api',
      clusterAPINamespace: 'openshift-cluster-api',
      operatorSupportsClusterAPITargets: true,
    },
  });
}

const codesOf = (name: string): string[] =>
  verdicts()
    .find((v) => v.machineAutoscaler === name)
    ?.findings.map((f) => f.code) ?? [];

describe('the demo scenario plays its episodes (speed 240)', () => {
  it('metrics API outage in prod-us-east-1: Resource-metric HPAs go ScalingActive=False/FailedGetResourceMetric, then recover', async () => {
    await expect
      .poll(
        () =>
          seen({
            cluster: 'prod-us-east-1',
            name: 'storefront',
            type: 'ScalingActive',
            status: 'False',
            reason: 'FailedGetResourceMetric',
          }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    await expect
      .poll(
        () => seen({ cluster: 'prod-us-east-1', name: 'storefront', type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound' }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
  });

  it('external metrics API outage in prod-eu-west-1: External-only HPAs go ScalingActive=False/FailedGetExternalMetric, then recover', async () => {
    await expect
      .poll(
        () =>
          seen({
            cluster: 'prod-eu-west-1',
            name: 'ledger-writer',
            type: 'ScalingActive',
            status: 'False',
            reason: 'FailedGetExternalMetric',
          }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    const failed = world.truth.recent.find(
      (t) => t.cluster === 'prod-eu-west-1' && t.name === 'ledger-writer' && t.reason === 'FailedGetExternalMetric',
    );
    expect(failed?.message).toMatch(
      /unable to fetch metrics from external metrics API: the server is currently unable to handle the request/,
    );
    await expect
      .poll(
        () => seen({ cluster: 'prod-eu-west-1', name: 'ledger-writer', type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound' }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
  });

  it('a workload without CPU requests fails with the upstream message', () => {
    const indexer = world.fleet.cluster('prod-eu-west-1').store.get('autoscaling/horizontalpodautoscalers', 'search', 'indexer');
    const active = (
      indexer?.status as { conditions?: { type: string; status: string; reason: string; message: string }[] } | undefined
    )?.conditions?.find((c) => c.type === 'ScalingActive');
    expect(active).toMatchObject({ status: 'False', reason: 'FailedGetResourceMetric' });
    expect(active?.message).toMatch(/missing request for cpu in container app of Pod indexer-/);
  });

  it('an HPA pinned at max: ScalingLimited=True/TooManyReplicas', async () => {
    await expect
      .poll(
        () =>
          seen({
            cluster: 'prod-eu-west-1',
            namespace: 'shop',
            name: 'checkout',
            type: 'ScalingLimited',
            status: 'True',
            reason: 'TooManyReplicas',
          }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
  });

  it('scale-down stabilization when load drops: AbleToScale=True/ScaleDownStabilized', async () => {
    await expect
      .poll(() => seen({ type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized' }), { timeout: 20_000, interval: 200 })
      .toBe(true);
  });

  it('a Karmada member cluster goes Ready=False/ClusterNotReachable, then back', async () => {
    await expect
      .poll(
        () =>
          seen({
            cluster: 'karmada-global',
            kind: 'Cluster',
            name: 'member-ap',
            type: 'Ready',
            status: 'False',
            reason: 'ClusterNotReachable',
          }),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    await expect
      .poll(() => seen({ cluster: 'karmada-global', kind: 'Cluster', name: 'member-ap', type: 'Ready', status: 'True' }), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(true);
  });

  it('MachineAutoscalers: duplicate, left on the non-authoritative copy after a migration, target missing', async () => {
    expect(codesOf('openshift-machine-api/worker-us-east-1e')).toContain('MachineAutoscalerTargetNotFound');
    expect(codesOf('openshift-machine-api/worker-us-east-1b-extra')).toContain('MachineAutoscalerDuplicateTargetScaleRef');
    await expect
      .poll(() => codesOf('openshift-machine-api/worker-us-east-1c'), { timeout: 20_000, interval: 200 })
      .toContain('MachineAutoscalerNonAuthoritativeTargetScaleRef');
    await expect
      .poll(() => codesOf('openshift-machine-api/worker-us-east-1a-2'), { timeout: 20_000, interval: 200 })
      .toContain('MachineAutoscalerDuplicateTargetScaleRef');
    await expect
      .poll(() => codesOf('openshift-machine-api/batch-us-east-1b'), { timeout: 20_000, interval: 200 })
      .toContain('MachineAutoscalerTargetNotFound');
    const events = world.fleet.cluster('ocp-prod-east').store.list('/events') as CoreEvent[];
    expect(events.find((e) => e.involvedObject.name === 'worker-us-east-1b-extra' && e.reason === 'FailedSetOwner')?.message).toBe(
      'Error setting target owner: already owned by another MachineAutoscaler',
    );
  });

  it('records every transition it makes as JSON lines', async () => {
    const { readFileSync } = await import('node:fs');
    world.truth.flush();
    const lines = readFileSync(world.truth.file, 'utf8').trim().split('\n');
    expect(lines.length).toBe(world.truth.recent.length);
    expect(JSON.parse(lines[0] ?? '{}')).toEqual(
      expect.objectContaining({
        cluster: expect.any(String),
        kind: expect.any(String),
        type: expect.any(String),
        status: expect.any(String),
        at: expect.stringMatching(/Z$/),
      }),
    );
  });
});
