import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterStatus } from '@/lib/api';
import type { KubeObject } from '@/lib/k8s/types';
import { loadConnections } from '@/server/clusters/connections';
import type { ClusterWatcherOptions } from '@/server/watch/cluster-watcher';
import { ClusterWatcher } from '@/server/watch/cluster-watcher';
import { Fleet } from '@/sim/fleet/fleet';
import { until } from './until';

/**
 * One cluster's watcher against a simulated cluster (the real API, TLS and client-node), on short limits: a quiet
 * cluster's watches stay open on bookmarks, and a cluster cut off without a reset is noticed by the liveness probe.
 */
const hpaStorage = 'autoscaling/horizontalpodautoscalers';
const open: { stop(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.stop();
});

function hpa(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace: 'shop' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 1, maxReplicas: 9 },
    status: { currentReplicas: replicas, desiredReplicas: replicas },
  };
}

async function rig(fleetOptions: { bookmarkMs?: number }, options: ClusterWatcherOptions) {
  const fleet = new Fleet({
    clusters: [{ name: 'quiet', profile: 'kubernetes' }],
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'liveness-sim-')),
    ...fleetOptions,
  });
  await fleet.start();
  open.push(fleet);
  const sim = fleet.cluster('quiet');
  for (let i = 0; i < 3; i++) sim.store.create(hpaStorage, hpa(`web-${i}`, 1));
  const connection = loadConnections({ KUBECONFIG: fleet.kubeconfigPath }).connections.find((c) => c.name === 'quiet');
  if (!connection) throw new Error('no context quiet');
  const states: { state: ClusterStatus['state']; at: number; since: string | null }[] = [];
  const replicas = new Map<string, number>();
  const watcher = new ClusterWatcher(
    connection,
    {
      onObject: (_c, resource, change, o) => {
        if (resource === 'hpas' && change !== 'delete')
          replicas.set(o.metadata.name, (o.status as { currentReplicas?: number } | undefined)?.currentReplicas ?? 0);
      },
      onResourceSynced: () => undefined,
      onState: (s) => states.push({ state: s.state, at: Date.now(), since: s.since }),
    },
    { tickMs: 100, ...options },
  );
  watcher.start();
  open.push({ stop: () => watcher.stop() });
  await until(
    () => watcher.status().state,
    (s) => s === 'synced',
    15_000,
  );
  // Watch requests are logged when they end: an ended watch is a reconnect.
  const ended = (): number => fleet.requestLog.filter((e) => e.cluster === 'quiet' && e.verb === 'watch').length;
  return { fleet, sim, watcher, states, replicas, ended };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('watches of a quiet cluster', () => {
  it('stay open on bookmarks: no watch ends and no TLS connection is made while the cluster is quiet', async () => {
    const r = await rig({ bookmarkMs: 200 }, { informer: { watchIdleMs: 1_000 }, probe: { quietMs: 60_000, timeoutMs: 5_000 } });
    expect(r.watcher.informers.size).toBeGreaterThan(0);
    const endedBefore = r.ended();
    const handshakesBefore = r.sim.handshakes;
    await sleep(3_500);
    expect(r.ended() - endedBefore).toBe(0);
    expect(r.sim.handshakes - handshakesBefore).toBe(0);
    expect(r.watcher.probes).toBe(0);
  });

  it('without bookmarks within the idle limit, each quiet watch is ended at the limit and resumed (the limit holds)', async () => {
    const r = await rig({ bookmarkMs: 60_000 }, { informer: { watchIdleMs: 1_000 }, probe: { quietMs: 60_000, timeoutMs: 5_000 } });
    const watches = r.watcher.informers.size;
    const endedBefore = r.ended();
    await sleep(3_500);
    // Every watch ends about once a second: at least twice in 3.5 s, each one resumed (no relist, nothing lost).
    expect(r.ended() - endedBefore).toBeGreaterThanOrEqual(2 * watches);
    r.sim.store.mutate(hpaStorage, 'shop', 'web-1', (o) => ({ ...o, status: { currentReplicas: 4, desiredReplicas: 4 } }));
    await until(
      () => r.replicas.get('web-1'),
      (v) => v === 4,
      5_000,
    );
    expect(r.watcher.status().state).toBe('synced');
  });
});

/** Short limits for a partition: quiet 0.5 s, a probe's 0.5 s, the 1 s silence rule; the watches' own limit 30 s. */
const partitionLimits: ClusterWatcherOptions = {
  informer: { watchIdleMs: 30_000 },
  probe: { quietMs: 500, timeoutMs: 500 },
  thresholds: { unreachableAfterMs: 1_000, failingAfterMs: 30_000, windowMs: 60_000 },
};

describe('a cluster cut off without a reset (a partition)', () => {
  it('is unreachable once the liveness probe goes unanswered, dated from its last answer; back, it is synced with what changed meanwhile', async () => {
    const r = await rig({ bookmarkMs: 60_000 }, partitionLimits);
    await sleep(1_000); // quiet: probes answered
    expect(r.watcher.probes).toBeGreaterThan(0);
    expect(r.watcher.status().state).toBe('synced');
    const cutAt = Date.now();
    await r.fleet.setFaults('quiet', { partitioned: true });
    r.sim.store.mutate(hpaStorage, 'shop', 'web-2', (o) => ({ ...o, status: { currentReplicas: 7, desiredReplicas: 7 } }));
    await until(
      () => r.watcher.status().state,
      (s) => s === 'unreachable',
      10_000,
    );
    const flagged = r.states.find((s) => s.state === 'unreachable');
    // Quiet 0.5 s, the probe's 0.5 s, the 1 s silence rule, a 0.1 s tick: about 2 s (the watches' limit is 30 s).
    expect((flagged?.at ?? 0) - cutAt).toBeLessThan(5_000);
    // Dated from the last answer before the partition: a probe at most quietMs + timeoutMs earlier.
    expect(Date.parse(flagged?.since ?? '')).toBeLessThanOrEqual(cutAt);
    expect(cutAt - Date.parse(flagged?.since ?? '')).toBeLessThan(1_500);
    expect(r.replicas.get('web-2')).toBe(1);

    await r.fleet.setFaults('quiet', { partitioned: false });
    await until(
      () => [r.watcher.status().state, r.replicas.get('web-2')],
      ([s, v]) => s === 'synced' && v === 7,
      10_000,
    );
  });

  it('when a partition that broke the connections ends, the watches resume at once instead of waiting out their limit', async () => {
    const r = await rig({ bookmarkMs: 60_000 }, partitionLimits);
    const lists = (): number => r.fleet.requestLog.filter((e) => e.cluster === 'quiet' && e.verb === 'list').length;
    const listsBefore = lists();
    await r.fleet.setFaults('quiet', { partitioned: true, partitionBreaks: true });
    await until(
      () => r.watcher.status().state,
      (s) => s === 'unreachable',
      10_000,
    );
    // The partition ends, and every connection it held is dead: nothing on them is answered, delivered or closed.
    await r.fleet.setFaults('quiet', { partitioned: false });
    await until(
      () => r.watcher.status().state,
      (s) => s === 'synced',
      10_000,
    );
    r.sim.store.mutate(hpaStorage, 'shop', 'web-0', (o) => ({ ...o, status: { currentReplicas: 5, desiredReplicas: 5 } }));
    // Within seconds, where the broken watch would have waited out its 30 s limit.
    await until(
      () => r.replicas.get('web-0'),
      (v) => v === 5,
      8_000,
    );
    expect([...r.watcher.informers.values()].every((i) => i.resumes >= 1)).toBe(true);
    // Resumed from their resourceVersion: nothing listed again.
    expect(lists()).toBe(listsBefore);
  });
});
