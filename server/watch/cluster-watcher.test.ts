import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterStatus } from '@/lib/api';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-eu-west-1.hpa.json';
import { FleetIndex } from '../fleet/fleet-index';
import { HistoryStore } from '../history/history-store';
import { FakeCluster, settle } from './__fixtures__/fake-cluster';
import { ClusterWatcher } from './cluster-watcher';

/**
 * One cluster's watcher wired to a real fleet index and history store, as the runtime wires them, on a
 * scripted API and a fake clock: the routine faults of a fleet must not rewrite history.
 */
const hpaPath = '/apis/autoscaling/v2/horizontalpodautoscalers';
const real = (fixture as { items: HorizontalPodAutoscaler[] }).items;
const open: { stop(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.stop();
});

function rig() {
  let now = Date.parse('2026-11-23T10:00:00.000Z');
  const clock = (): number => now;
  const cluster = new FakeCluster();
  for (const o of real) cluster.put(hpaPath, o);
  const history = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'watcher-')), retentionDays: 30 });
  const states: ClusterStatus[] = [];
  const sources: { watcher?: ClusterWatcher } = {};
  const index = new FleetIndex(
    history,
    () => sources.watcher,
    () => undefined,
    () => new Date(now),
  );
  const watcher = new ClusterWatcher(
    { name: 'prod', client: cluster.client, parent: null },
    {
      onObject: (c, resource, change, object) => index.apply(c, resource, change, object),
      onResourceSynced: (c, resource, objects) => index.resync(c, resource, objects),
      onState: (status) => {
        states.push(status);
        index.setStale(status.name, status.state === 'unreachable');
        history.recordClusterState(
          status.name,
          status.state,
          status.state === 'unreachable' && status.since ? status.since : new Date(now).toISOString(),
          status.error,
        );
      },
    },
    { informer: { watch: cluster.watch, delay: () => 0 }, clock, tickMs: 3_600_000 },
  );
  sources.watcher = watcher;
  const w = watcher;
  open.push({ stop: () => (w.stop(), void history.close()) });
  const ids = (): string[] => [...index.entries.keys()].sort();
  const snapshot = async () => ({
    ids: ids(),
    since: Object.fromEntries(ids().map((id) => [id, history.conditionSince(id)])),
    firstSeen: Object.fromEntries(ids().map((id) => [id, history.firstSeen(id)])),
    transitions: Object.fromEntries(await Promise.all(ids().map(async (id) => [id, await history.countTransitions(id)] as const))),
  });
  const advance = async (ms: number): Promise<void> => {
    now += ms;
    w.evaluate();
    await settle();
    w.evaluate();
  };
  return { cluster, history, index, watcher: w, states, snapshot, advance, stateNames: () => states.map((s) => s.state) };
}

async function synced() {
  const r = rig();
  r.watcher.start();
  await settle(40);
  expect(r.watcher.status().state).toBe('synced');
  expect(r.index.entries.size).toBe(real.length);
  return r;
}

describe('ClusterWatcher with the fleet index and history', () => {
  it('awaits its first sync until it has one, and never again; its status dates the last answer as it moves', async () => {
    const r = rig();
    expect(r.watcher.awaitingFirstSync()).toBe(true);
    r.watcher.start();
    await settle(40);
    expect(r.watcher.awaitingFirstSync()).toBe(false);
    const first = r.watcher.status().lastAnsweredAt;
    expect(first).toBe('2026-11-23T10:00:00.000Z');
    r.cluster.listFailures = [500];
    r.cluster.cut();
    await r.advance(1_000);
    // Degraded, later answered again: still not awaiting a first sync; the last answer's time has moved with it.
    expect(r.watcher.awaitingFirstSync()).toBe(false);
    expect(r.watcher.status().lastAnsweredAt).toBe('2026-11-23T10:00:01.000Z');
  });

  it('a watch cut: nothing deleted, nothing recorded twice, every since kept, the state stays synced', async () => {
    const r = await synced();
    const before = await r.snapshot();
    for (let i = 0; i < 5; i++) {
      r.cluster.cut();
      await r.advance(30_000);
    }
    expect(await r.snapshot()).toEqual(before);
    expect(r.stateNames()).toEqual(['synced']);
  });

  it('a 410 Gone relist: nothing deleted, nothing recorded twice, every since kept', async () => {
    const r = await synced();
    const before = await r.snapshot();
    r.cluster.cut();
    r.cluster.put(hpaPath, real[0] as unknown as KubeObject);
    r.cluster.compact(hpaPath);
    await r.advance(1_000);
    expect(r.cluster.requests.filter((q) => q === `list ${hpaPath}`)).toHaveLength(2);
    expect(await r.snapshot()).toEqual(before);
    expect(r.stateNames()).toEqual(['synced']);
  });

  it('a 5xx on the relist: degraded, not unreachable; nothing deleted; every since kept', async () => {
    const r = await synced();
    const before = await r.snapshot();
    r.cluster.cut();
    r.cluster.put(hpaPath, real[0] as unknown as KubeObject);
    r.cluster.compact(hpaPath);
    r.cluster.listFailures = [500];
    await r.advance(1_000);
    expect(await r.snapshot()).toEqual(before);
    expect(r.stateNames()).toEqual(['synced', 'degraded']);
    expect(r.watcher.status()).toMatchObject({
      state: 'degraded',
      errorRate: expect.any(Number),
      error: expect.stringMatching(/simulated 500/),
    });
    expect(r.watcher.status().errorRate).toBeGreaterThan(0);
    expect(r.index.entries.get([...r.index.entries.keys()][0] ?? '')?.dto.stale).toBe(false);
    // A minute without errors: synced again.
    await r.advance(61_000);
    expect(r.watcher.status().state).toBe('synced');
  });

  it('every request failing with a 5xx for 30 s is unreachable, dated from the last good answer', async () => {
    const r = await synced();
    r.cluster.failEvery = 503;
    const lastGood = new Date(Date.parse('2026-11-23T10:00:00.000Z')).toISOString();
    r.cluster.cut();
    await settle();
    await r.advance(10_000);
    expect(r.watcher.status().state).toBe('degraded');
    await r.advance(21_000);
    expect(r.watcher.status().state).toBe('unreachable');
    expect(r.watcher.status().since).toBe(lastGood);
    r.cluster.failEvery = null;
    await r.advance(1_000);
    expect(r.watcher.status().state).toBe('synced');
  });

  it('a cluster down for 5 minutes and back: unreachable at once, one gap from its last answer, no deleted rows, no duplicate segment, every since kept', async () => {
    const r = await synced();
    const before = await r.snapshot();
    const id = before.ids[0] ?? '';
    await r.advance(5_000);
    r.cluster.down = true;
    r.cluster.cut();
    await settle();
    expect(r.watcher.status().state).toBe('unreachable');
    await r.advance(1_000);
    expect(r.watcher.status().state).toBe('unreachable');
    expect(r.index.entries.get(id)?.dto.stale).toBe(true);
    for (let i = 0; i < 10; i++) await r.advance(30_000);
    r.cluster.down = false;
    await r.advance(1_000);
    await r.advance(1_000);
    expect(r.watcher.status().state).toBe('synced');
    expect(await r.snapshot()).toEqual(before);
    expect(r.index.entries.get(id)?.dto.stale).toBe(false);
    const history = await r.history.history(id, 'HorizontalPodAutoscaler', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    expect(history.gaps).toHaveLength(1);
    expect(history.gaps[0]?.start).toBe('2026-11-23T10:00:05.000Z');
    expect(history.gaps[0]?.end).toBe('2026-11-23T10:05:07.000Z');
    for (const c of history.conditions) {
      for (let i = 1; i < c.segments.length; i++) {
        const [a, b] = [c.segments[i - 1], c.segments[i]];
        expect(a?.status === b?.status && a?.reason === b?.reason, `${c.type} repeats ${b?.status}/${b?.reason}`).toBe(false);
      }
    }
  });
});
