import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import { startPostgres } from '@/test/support/postgres';
import { readEventStream } from '@/test/support/sse';
import type { Comparison, RecordedRow } from './compare';
import { startBff } from './harness';
import { inFlightSecond, judgeHistory, resourceVersions, timeRequestLog } from './judge';

export interface FailoverOptions {
  clusters: number;
  hpasPerCluster: number;
  replicas: number;
  /** How long after every replica is ready the victim is killed, and how long the run goes on after that. */
  killAfterMs: number;
  runAfterKillMs: number;
  leaseSeconds: number;
  speed: number;
  basePort: number;
  log?: (line: string) => void;
}

export interface FailoverFigures extends Comparison {
  duplicateSegments: number;
  duplicates: [RecordedRow, RecordedRow][];
  /** For each missing transition (the first ten), the answers that served its state. */
  missingServedBy: string[];
  killAt: string;
  /** Top-level clusters by owner just before the kill (the victim's name first). */
  ownersBefore: Record<string, string[]>;
  /** Leases handed over between live replicas after the last one started (its share, and any the first two still moved). */
  handoffs: number;
  /** Polls where a lease table row showed a cluster owned by more than one replica or by none (after the start). */
  doubleOwnedPolls: number;
  /** From the SIGKILL until every cluster the victim held was owned, and watched, by a survivor. */
  takeoverMs: number | null;
  /** Answers of the survivors to the cluster and autoscaler lists in the run, and how many lacked part of the fleet. */
  survivorAnswers: number;
  incompleteAnswers: number;
  /** Changes of the victim's autoscalers a survivor's event stream carried after the takeover. */
  streamedAfterTakeover: number;
  fleetSize: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The failover run: `replicas` BFF processes on one PostgreSQL, each watching the clusters whose lease it holds
 * and following the others through the change stream, against a generated simulator fleet. When all are ready,
 * one replica is killed with SIGKILL. Measured from outside: the lease table (every cluster owned by exactly one
 * live replica), how long until the victim's clusters are owned by survivors, every survivor's answers throughout
 * (the whole fleet each time), an event stream held open on a survivor, and at the end the history in PostgreSQL
 * judged against the simulator's ground truth — no transition lost or recorded twice across the handover.
 */
export async function runFailover(options: FailoverOptions): Promise<FailoverFigures> {
  const log = options.log ?? ((): void => undefined);
  const postgres = await startPostgres();
  const world: World = await startSimulator({
    generate: { clusters: options.clusters, hpasPerCluster: options.hpasPerCluster },
    speed: options.speed,
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'failover-sim-')),
    log: () => undefined,
  });
  const endedAt = timeRequestLog(world);
  const databaseUrl = postgres.createDatabase('failover');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const names = Array.from({ length: options.replicas }, (_, i) => `replica-${i + 1}`);
  const port = (i: number): number => options.basePort + i;
  let handoffs = 0;
  const start = (name: string, i: number): ChildProcess =>
    startBff(
      {
        KUBECONFIG: world.fleet.kubeconfigPath,
        AUTOSCOPE_DATABASE_URL: databaseUrl,
        AUTOSCOPE_REPLICA_ID: name,
        AUTOSCOPE_LEASE_SECONDS: String(options.leaseSeconds),
        AUTOSCOPE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `failover-${name}-`)),
        PORT: String(port(i)),
      },
      (line) => {
        if (line.includes('"cluster lease released"') && line.includes('"reason":"handoff"')) handoffs += 1;
        log(`[${name}] ${line}`);
      },
    );
  // The last replica joins once the others hold every cluster, so leases are handed over to it in the run (and the
  // history of the handed-over clusters is judged too); it is the one killed.
  const processes: (ChildProcess | null)[] = names.map((name, i) => (i < names.length - 1 ? start(name, i) : null));
  const fleetSize = options.clusters * options.hpasPerCluster;
  const get = async (i: number, url: string): Promise<unknown> => {
    try {
      const res = await fetch(`http://127.0.0.1:${port(i)}${url}`, { signal: AbortSignal.timeout(10_000) });
      return res.ok ? await res.json() : null;
    } catch {
      return null;
    }
  };
  const leases = async (): Promise<{ cluster: string; owner: string | null; live: boolean }[]> => {
    try {
      return (
        await pool.query<{ cluster: string; owner: string | null; live: boolean }>(
          `SELECT cluster, owner, (owner IS NOT NULL AND expires_at > clock_timestamp()) AS live FROM cluster_leases ORDER BY cluster`,
        )
      ).rows;
    } catch {
      return []; // the table is not there before the first replica migrated
    }
  };
  const replicaOf = (owner: string | null): string | null => names.find((n) => owner?.startsWith(`${n}-`)) ?? null;
  const whole = (i: number) => async (): Promise<boolean> => {
    const clusters = (await get(i, '/api/v1/clusters')) as { clusters?: unknown[] } | null;
    const list = (await get(i, '/api/v1/autoscalers?limit=1')) as { total?: number } | null;
    const ok = clusters?.clusters?.length === options.clusters && list?.total === fleetSize;
    if (!ok)
      lastIncomplete = `${names[i]}: ${clusters?.clusters?.length ?? 'no answer'} clusters, ${list?.total ?? 'no answer'} autoscalers`;
    return ok;
  };
  let lastIncomplete = '';
  const waitFor = async (ok: () => Promise<boolean>, timeoutMs: number): Promise<number | null> => {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (await ok()) return Date.now() - started;
      await sleep(250);
    }
    return null;
  };

  // Every replica up, every cluster owned by exactly one of them, every replica serving the whole fleet.
  const allOwned = async (): Promise<boolean> => {
    const rows = await leases();
    return rows.length === options.clusters && rows.every((r) => r.live && replicaOf(r.owner) !== null);
  };
  const ready = async (count: number): Promise<void> => {
    if ((await waitFor(allOwned, 90_000)) === null) throw new Error('the replicas did not take every lease in 90 s');
    for (let i = 0; i < count; i++)
      if ((await waitFor(whole(i), 90_000)) === null)
        throw new Error(`${names[i]} did not serve the whole fleet in 90 s (${lastIncomplete})`);
  };
  await ready(names.length - 1);
  const last = names.length - 1;
  handoffs = 0; // from here on, what the first replicas hand the last one
  processes[last] = start(names[last] ?? '', last);
  const share = Math.floor(options.clusters / names.length);
  const joined = async (): Promise<boolean> =>
    (await allOwned()) && (await leases()).filter((r) => replicaOf(r.owner) === names[last]).length >= share;
  if ((await waitFor(joined, 90_000)) === null) throw new Error(`${names[last]} was not handed its share in 90 s`);
  await ready(names.length);
  log(`every replica ready and serving the whole fleet; ${handoffs} leases handed over to ${names[last]}`);

  // Watch the lease table and the survivors' answers from now to the end.
  const figures = { doubleOwnedPolls: 0, survivorAnswers: 0, incompleteAnswers: 0 };
  const victim = names.length - 1;
  const watching = { on: true };
  const leaseWatch = (async (): Promise<void> => {
    while (watching.on) {
      const rows = await leases();
      const owners = new Map<string, Set<string>>();
      for (const r of rows) if (r.live && r.owner) owners.set(r.cluster, new Set([...(owners.get(r.cluster) ?? []), r.owner]));
      if ([...owners.values()].some((o) => o.size > 1)) figures.doubleOwnedPolls += 1;
      await sleep(250);
    }
  })();
  const survivors = names.map((_, i) => i).filter((i) => i !== victim);
  const answerWatch = (async (): Promise<void> => {
    while (watching.on) {
      for (const i of survivors) {
        figures.survivorAnswers += 1;
        if (!(await whole(i)())) figures.incompleteAnswers += 1;
      }
      await sleep(500);
    }
  })();

  // An event stream on a survivor, as a browser holds one.
  const streamed: { at: number; ids: string[] }[] = [];
  const streamAbort = new AbortController();
  const stream = readEventStream(
    `http://127.0.0.1:${port(survivors[0] ?? 0)}/api/v1/stream`,
    (event, data) => {
      if (event === 'changed') streamed.push({ at: Date.now(), ids: (data as { ids?: string[] }).ids ?? [] });
    },
    streamAbort.signal,
  ).catch(() => undefined);

  const clusterNames = world.options.scenario.clusters.map((c) => c.name);
  await sleep(options.killAfterMs - inFlightSecond);
  const rvBefore = resourceVersions(world, clusterNames);
  await sleep(inFlightSecond);
  const before = await leases();
  const ownersBefore: Record<string, string[]> = {};
  for (const r of before) {
    const name = replicaOf(r.owner) ?? 'nobody';
    ownersBefore[name] = [...(ownersBefore[name] ?? []), r.cluster];
  }
  const victimClusters = new Set(ownersBefore[names[victim] ?? ''] ?? []);
  const rvAt = resourceVersions(world, clusterNames);
  const killAt = Date.now();
  log(`SIGKILL ${names[victim]} holding ${[...victimClusters].join(', ')}`);
  processes[victim]?.kill('SIGKILL');
  await new Promise((r) => processes[victim]?.once('exit', r));
  processes[victim] = null;
  const takenOver = await waitFor(async () => {
    const rows = await leases();
    return [...victimClusters].every((c) => {
      const r = rows.find((x) => x.cluster === c);
      return r?.live === true && replicaOf(r.owner) !== null && replicaOf(r.owner) !== names[victim];
    });
  }, 60_000);
  const takeoverMs = takenOver === null ? null : Date.now() - killAt;
  log(`victim's clusters taken over after ${takeoverMs} ms`);
  const takeoverAt = Date.now();
  await sleep(options.runAfterKillMs);

  watching.on = false;
  await Promise.all([leaseWatch, answerWatch]);
  streamAbort.abort();
  await stream;
  const stoppedAt = Date.now();
  for (const child of processes) child?.kill('SIGTERM');
  await Promise.all(processes.map((child) => (child ? new Promise((r) => child.once('exit', r)) : Promise.resolve())));
  await sleep(500);
  world.truth.flush();
  await world.stop();

  const rows = (
    await pool.query<Omit<RecordedRow, 'at' | 'seq'> & { at: Date; seq: string }>(
      'SELECT t.seq::text AS seq, id, uid, type, status, reason, at, resource_version FROM condition_transitions t ORDER BY t.seq',
    )
  ).rows.map((r) => ({ ...r, seq: Number(r.seq), at: r.at.toISOString() }));
  await pool.end();
  postgres.stop();

  const victimIds = (id: string): boolean => victimClusters.has(decodeURIComponent(id.split('/')[0] ?? ''));
  const judged = judgeHistory({
    world,
    endedAt,
    rows,
    stoppedAt,
    kills: [{ at: killAt, clusters: (c) => victimClusters.has(c), rvAt, rvBefore }],
  });
  return {
    total: judged.total,
    recorded: judged.recorded,
    unobservable: judged.unobservable,
    lostInFlight: judged.lostInFlight,
    missing: judged.missing,
    missingServedBy: judged.missingServedBy,
    inconsistent: judged.inconsistent,
    duplicateSegments: judged.duplicateSegments,
    duplicates: judged.duplicates,
    killAt: new Date(killAt).toISOString(),
    ownersBefore,
    handoffs,
    doubleOwnedPolls: figures.doubleOwnedPolls,
    takeoverMs,
    survivorAnswers: figures.survivorAnswers,
    incompleteAnswers: figures.incompleteAnswers,
    streamedAfterTakeover: streamed.filter((s) => s.at >= takeoverAt).reduce((n, s) => n + s.ids.filter(victimIds).length, 0),
    fleetSize,
  };
}
