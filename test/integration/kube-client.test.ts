import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnections } from '@/server/clusters/connections';
import { KubeApiError, type KubeClient } from '@/server/clusters/kube-client';
import { isRefusal } from '@/server/watch/informer';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';

let world: World;
const hpas = '/apis/autoscaling/v2/horizontalpodautoscalers';

beforeAll(async () => {
  world = await startSimulator({
    generate: { clusters: 2, hpasPerCluster: 5 },
    speed: 1,
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'kube-client-sim-')),
    log: () => undefined,
  });
});

afterAll(async () => {
  await world.stop();
});

/** A client of one simulated cluster, read from the simulator's kubeconfig as the BFF reads it. */
function client(name: string): KubeClient {
  const connection = loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }).connections.find((c) => c.name === name);
  if (!connection) throw new Error(`no context ${name}`);
  return connection.client;
}

describe('KubeClient against the simulator', () => {
  /**
   * Requests one after another, as a list's pages are. undici may open a second connection when the next request is
   * dispatched in the same tick the previous response ended, before that socket went back to the pool; so "a few
   * kept connections", where a new Agent per request (client-node's own way) makes one per request.
   */
  async function pages(c: KubeClient, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const page = await c.get<{ items: unknown[] }>(hpas, { query: { limit: 2 } });
      expect(page.items.length).toBeGreaterThan(0);
    }
  }

  it('keeps its connections: ten list pages, at most two TLS handshakes', async () => {
    const name = world.options.scenario.clusters[0]!.name;
    const sim = world.fleet.cluster(name);
    const before = sim.handshakes;
    await pages(client(name), 10);
    expect(sim.handshakes - before).toBeGreaterThanOrEqual(1);
    expect(sim.handshakes - before).toBeLessThanOrEqual(2);
  });

  it('keeps an idle connection past undici’s 4 s: the API server names no keep-alive limit, the client keeps its own', async () => {
    const name = world.options.scenario.clusters[0]!.name;
    const sim = world.fleet.cluster(name);
    const c = client(name);
    await c.get('/version');
    const before = sim.handshakes;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await c.get('/version');
    expect(sim.handshakes - before).toBe(0);
  });

  it('a cluster that goes down is refused, not "other side closed", though the client had a kept connection; back, it answers', async () => {
    const name = world.options.scenario.clusters[1]!.name;
    const c = client(name);
    await c.get(hpas, { query: { limit: 1 } }); // a kept connection now exists
    await world.fleet.setFaults(name, { down: true });
    const err = await c.get(hpas, { query: { limit: 1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    const e = err as KubeApiError;
    expect(e.statusCode).toBe(0);
    expect(isRefusal(e, e.statusCode, e.message), `${e.reason}: ${e.message}`).toBe(true);
    await world.fleet.setFaults(name, { down: false });
    const page = await c.get<{ items: unknown[] }>(hpas, { query: { limit: 1 } });
    expect(page.items).toHaveLength(1);
  });

  it('new TLS material (a rotated CA bundle) gets a new pool; the same material keeps the old one', async () => {
    const name = world.options.scenario.clusters[0]!.name;
    const sim = world.fleet.cluster(name);
    const c = client(name);
    await pages(c, 10);
    const before = sim.handshakes;
    await pages(c, 10);
    expect(sim.handshakes - before).toBe(0);
    const cluster = c.kubeConfig.getCurrentCluster()!;
    const pem = Buffer.from(cluster.caData ?? '', 'base64').toString('utf8');
    c.kubeConfig.clusters = c.kubeConfig.clusters.map((x) => ({ ...x, caData: Buffer.from(`${pem}\n`).toString('base64') }));
    await pages(c, 10);
    expect(sim.handshakes - before).toBeGreaterThanOrEqual(1);
    expect(sim.handshakes - before).toBeLessThanOrEqual(2);
  });
});
