import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { NextRequest } from 'next/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HistoryResponseSchema, ReadyResponseSchema, TransitionsResponseSchema } from '@/lib/api';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import * as historyRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/history/route';
import * as transitionsRoute from '@/app/api/v1/transitions/route';
import * as readyRoute from '@/app/api/readyz/route';
import { loadConnections } from '@/server/clusters/connections';
import { Autoscope, installAutoscope } from '@/server/runtime';
import { startPostgres, type TestPostgres } from '@/test/support/postgres';
import { captureConsole, demoFleetSynced } from './harness';
import { until } from './until';

/**
 * The backend on PostgreSQL (AUTOSCOPE_DATABASE_URL) against the simulator: it takes a lease per cluster before
 * watching it, records the demo fleet's history in the database, serves it through the real routes, and a
 * restart on the same database records nothing twice. Two processes on one database split the clusters between
 * them, each cluster watched by exactly one, and when one stops the other takes its clusters over.
 */
let world: World;
let server: TestPostgres;
const logLines: string[] = [];
const running: Autoscope[] = [];
const topLevel = 4; // the demo's kubeconfig contexts; Karmada's three members follow karmada-global's lease

function backend(databaseUrl: string, replicaName: string): Autoscope {
  const app = new Autoscope(
    {
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'pg-bff-')),
      retentionDays: 30,
      databaseUrl,
      replicaName,
      leaseMs: 6_000,
      renewMs: 1_000,
    },
    loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }),
  );
  running.push(app);
  return app;
}

async function get(handler: (req: NextRequest, c: never) => Promise<Response>, url: string, params: Record<string, string> = {}) {
  const res = await handler(new NextRequest(`http://autoscope.test${url}`), { params: Promise.resolve(params) } as never);
  return { status: res.status, json: (await res.json()) as unknown };
}

beforeAll(async () => {
  captureConsole(logLines);
  server = await startPostgres();
  world = await startSimulator({ scenario: 'demo', speed: 20, dataDir: mkdtempSync(path.join(os.tmpdir(), 'pg-sim-')) });
}, 120_000);

afterAll(async () => {
  for (const app of running) await app.stop();
  installAutoscope(undefined);
  await world.stop();
  server.stop();
  vi.restoreAllMocks();
});

describe('the backend on PostgreSQL', () => {
  const url = (): string => server.createDatabase('bff');
  let databaseUrl = '';
  const stable = [
    'ocp-prod-east/MachineAutoscaler/openshift-machine-api/worker-us-east-1e',
    'prod-eu-west-1/HorizontalPodAutoscaler/search/indexer',
  ];

  it('takes every lease, records the fleet, serves its history, and is ready', async () => {
    databaseUrl = url();
    const app = backend(databaseUrl, 'replica-a');
    installAutoscope(app);
    await demoFleetSynced(app);
    expect(app.shared?.ownership.ownedClusters().size).toBe(topLevel);
    const ready = await get(readyRoute.GET, '/api/readyz');
    expect(ready.status).toBe(200);
    expect(ReadyResponseSchema.parse(ready.json).ready).toBe(true);

    app.index.runPending();
    await until(
      () => Promise.all(stable.map((id) => app.history.countTransitions(id))),
      (counts) => counts.every((n) => n > 0),
    );
    const [cluster, kind, namespace, name] = stable[1]!.split('/') as [string, string, string, string];
    const history = await get(historyRoute.GET, `/api/v1/autoscalers/${cluster}/${kind}/${namespace}/${name}/history`, {
      cluster,
      kind,
      namespace,
      name,
    });
    expect(history.status).toBe(200);
    const h = HistoryResponseSchema.parse(history.json);
    // A segment open for every condition the object has now, as the index sees it.
    const now = app.index.entries.get(stable[1]!)?.dto.conditions ?? [];
    expect(now.length).toBeGreaterThan(0);
    expect(h.conditions.map((c) => c.type).sort()).toEqual(now.map((c) => c.type).sort());
    for (const c of now) {
      const open = h.conditions.find((x) => x.type === c.type)?.segments.at(-1);
      expect([open?.status, open?.reason, open?.end]).toEqual([c.status, c.reason, null]);
    }
    expect(h.replicas.length).toBeGreaterThan(0);
    const feed = TransitionsResponseSchema.parse((await get(transitionsRoute.GET, '/api/v1/transitions?limit=20')).json);
    expect(feed.transitions.length).toBe(20);

    // What the rows say in the database: written under the current lease of their cluster.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM condition_transitions t WHERE NOT EXISTS (
         SELECT 1 FROM cluster_leases l WHERE l.fence = t.fence AND l.owner IS NOT NULL)`,
    );
    await pool.end();
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('a restart on the same database records nothing twice', async () => {
    const before = running[0]!;
    before.index.runPending();
    const counts = await Promise.all(stable.map((id) => before.history.countTransitions(id)));
    await before.stop();
    const after = backend(databaseUrl, 'replica-a');
    installAutoscope(after);
    await demoFleetSynced(after);
    after.index.runPending();
    await after.history.flush();
    expect(await Promise.all(stable.map((id) => after.history.countTransitions(id)))).toEqual(counts);
  });

  it('two processes split the clusters, each watched by exactly one; when one stops the other takes its clusters', async () => {
    const a = running[running.length - 1]!;
    const b = backend(databaseUrl, 'replica-b');
    // B joins: the shared assignment moves some clusters to it, A hands them back, B takes them.
    await until(
      () => [a.shared?.ownership.ownedClusters().size ?? 0, b.shared?.ownership.ownedClusters().size ?? 0],
      ([na, nb]) => na! > 0 && nb! > 0 && na! + nb! === topLevel,
      30_000,
    );
    const ownedA = [...(a.shared?.ownership.ownedClusters().keys() ?? [])];
    const ownedB = [...(b.shared?.ownership.ownedClusters().keys() ?? [])];
    expect(ownedA.filter((c) => ownedB.includes(c))).toEqual([]);
    // Each watches what it owns (and the members of a Karmada control plane it owns), nothing else.
    const watched = (app: Autoscope): string[] => [...app.watchers.keys()].map((n) => n.split('/')[0]!);
    await until(
      () => [watched(a), watched(b)],
      ([wa, wb]) => new Set(wa).size === ownedA.length && new Set(wb).size === ownedB.length,
      30_000,
    );
    expect(new Set(watched(a))).toEqual(new Set(ownedA));
    expect(new Set(watched(b))).toEqual(new Set(ownedB));

    // Each serves the whole fleet: what the other owns comes through the change stream.
    const names = (app: Autoscope): string[] => app.clusterStatuses().map((c) => c.name);
    await until(
      () => [names(a).length, names(b).length, a.index.entries.size, b.index.entries.size],
      ([na, nb, ea, eb]) => na === 7 && nb === 7 && ea === eb && ea! >= 80,
      30_000,
    );
    expect(names(a)).toEqual(names(b));
    // The same autoscalers with the same state on both (the stable ones: the demo keeps the rest moving).
    const same = (id: string): boolean => isDeepStrictEqual(a.index.entries.get(id)?.dto, b.index.entries.get(id)?.dto);
    await until(
      () => stable.map(same),
      (v) => v.every(Boolean),
      30_000,
    );
    installAutoscope(b);
    const feed = TransitionsResponseSchema.parse((await get(transitionsRoute.GET, '/api/v1/transitions?limit=50')).json);
    expect(new Set(feed.transitions.map((t) => t.cluster.split('/')[0])).size).toBeGreaterThan(1);

    // A stops cleanly: it hands its leases back, and B takes every cluster within a few renewals.
    const started = Date.now();
    await a.stop();
    await until(
      () => b.shared?.ownership.ownedClusters().size ?? 0,
      (n) => n === topLevel,
      30_000,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    await until(
      () => b.clusterStatuses(),
      (s) => s.length === 7 && s.every((c) => c.state === 'synced') && [...b.watchers.keys()].length === 7,
      60_000,
    );
  });
});
