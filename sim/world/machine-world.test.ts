import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '@/lib/k8s/types';
import { SimCluster } from '../fleet/sim-cluster';
import { machineStorage, MachineWorld } from './machine-world';
import { loadScenario } from './scenario';

/** The demo's OpenShift cluster, seeded but not listening: the operator stand-in is driven with explicit times. */
function openshiftWorld(speed: number): MachineWorld {
  const spec = loadScenario('demo').clusters.find((c) => c.profile === 'openshift');
  if (!spec) throw new Error('the demo scenario has no OpenShift cluster');
  const cluster = new SimCluster({
    name: spec.name,
    profile: 'openshift',
    log: () => undefined,
    tls: () => {
      throw new Error('not listening');
    },
  });
  const world = new MachineWorld(cluster, spec, speed);
  return world;
}

function warningCount(world: MachineWorld, machineAutoscaler: string, reason: string): number {
  return world.cluster.store
    .list('/events')
    .map((e) => e as CoreEvent)
    .filter((e) => e.involvedObject.name === machineAutoscaler && e.reason === reason)
    .reduce((n, e) => n + Number(e.count ?? 1), 0);
}

describe('the cluster-autoscaler-operator stand-in retries a failed reconcile with controller-runtime backoff', () => {
  const start = Date.parse('2026-11-22T08:00:00Z');

  it('a duplicate MachineAutoscaler warns often at first, then about every 1000 s, not once a pass', () => {
    const world = openshiftWorld(1);
    world.seed(start);
    world.syncMirrors();
    // One operator pass every 10 story seconds for an hour, as the world runs it at speed 1.
    for (let t = 0; t <= 3600_000; t += 10_000) world.reconcileOperator(start + t);
    const count = warningCount(world, 'worker-us-east-1b-extra', 'FailedSetOwner');
    // 5 ms doubling: every pass until the backoff passes 10 s (12 failures), then 20, 40, … 640 s, then 1000 s.
    expect(count).toBeGreaterThanOrEqual(15);
    expect(count).toBeLessThanOrEqual(25);
    // The next hour adds about one every 1000 s.
    for (let t = 3610_000; t <= 7200_000; t += 10_000) world.reconcileOperator(start + t);
    const more = warningCount(world, 'worker-us-east-1b-extra', 'FailedSetOwner') - count;
    expect(more).toBeGreaterThanOrEqual(3);
    expect(more).toBeLessThanOrEqual(4);
  });

  it('a change to the MachineAutoscaler is reconciled at once, whatever the backoff', () => {
    const world = openshiftWorld(1);
    world.seed(start);
    world.syncMirrors();
    for (let t = 0; t <= 3600_000; t += 10_000) world.reconcileOperator(start + t);
    const before = warningCount(world, 'worker-us-east-1b-extra', 'FailedSetOwner');
    world.cluster.store.mutate(machineStorage.ma, 'openshift-machine-api', 'worker-us-east-1b-extra', (o) => ({
      ...o,
      spec: { ...(o.spec as object), maxReplicas: 9 },
    }));
    world.reconcileOperator(start + 3610_000);
    expect(warningCount(world, 'worker-us-east-1b-extra', 'FailedSetOwner')).toBe(before + 1);
  });

  it('the backoff runs on story time: at speed 10 an hour of story takes six wall minutes and warns as often', () => {
    const world = openshiftWorld(10);
    world.seed(start);
    world.syncMirrors();
    for (let t = 0; t <= 360_000; t += 1_000) world.reconcileOperator(start + t);
    const count = warningCount(world, 'worker-us-east-1b-extra', 'FailedSetOwner');
    expect(count).toBeGreaterThanOrEqual(15);
    expect(count).toBeLessThanOrEqual(25);
  });
});
