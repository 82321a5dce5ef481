import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteFile } from '@/server/store/sqlite';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import type { Comparison, RecordedRow } from './compare';
import { inFlightSecond, judgeHistory, resourceVersions, timeRequestLog } from './judge';

/**
 * The reliability run: the demo fleet under routine faults (every cluster answering a share of requests
 * with a 5xx and cutting its watches), one cluster down and back, one cluster answering only 5xx for a
 * while, and the BFF killed with SIGKILL and restarted on the same data dir. At the end, what Autoscope
 * recorded is compared with the simulator's ground truth (`transitions.jsonl`, every condition change it
 * made). `npm test` runs a short form (reliability.test.ts), `npm run soak` a long one (soak.ts).
 */
export interface RunOptions {
  durationMs: number;
  errorRate: number;
  watchCutSeconds: number;
  /** A cluster refusing connections for a while. */
  down: { cluster: string; atMs: number; forMs: number };
  /** A cluster answering every request with a 5xx for a while (then back to `errorRate`). */
  failing: { cluster: string; atMs: number; forMs: number } | null;
  killAtMs: number;
  speed: number;
  port: number;
  log?: (line: string) => void;
}

export interface Figures {
  groundTruth: number;
  recorded: number;
  /** Not recorded, and proven unobservable from what the API served. */
  unobservable: number;
  /** Not recorded: sent to the BFF in the second before its SIGKILL and shown by no later answer (lost with it). */
  lostInFlight: number;
  /** Not recorded although observable: the goal is none. */
  missing: Comparison['missing'];
  /** For each missing transition (the first ten), the answers that served its state. */
  missingServedBy: string[];
  /** Rows recording a state the object did not have at the version they were seen in: the goal is none. */
  inconsistent: Comparison['inconsistent'];
  duplicateSegments: number;
  phantomDeletions: number;
  autoscope5xx: number;
  /** 503 not_ready while the restarted backend had finished no first sync (by design, retried by clients). */
  notReady503: number;
  autoscopeRequests: number;
  /** Polls that found a flaky-but-serving cluster unreachable (would have raised the banner). */
  flakyUnreachablePolls: number;
  /** Gaps (unreachable periods) recorded for clusters that were only flaky. */
  flakyGaps: number;
  /** Gaps recorded for the cluster that went down. */
  downGaps: number;
  degradedClusters: string[];
  downToUnreachableMs: number | null;
  returnToSyncedMs: number | null;
  failingToUnreachableMs: number | null;
  restartToSyncedMs: number | null;
  transitionsStored: number;
  bytesPerTransition: number;
  hpas: number;
  /** Stored transitions per autoscaler per story day (the simulator's clock runs `speed` times faster). */
  transitionsPerHpaPerDay: number;
  runMs: number;
  killAt: string;
  /** At the end, how long since the least recently served cluster resource was last served (a watch in backoff). */
  servedLagMs: number;
  /** The cluster resources more than 5 s behind at the end. */
  lagged: string[];
}

interface ClusterRow {
  name: string;
  state: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
// npm scripts and Vitest run at the repository's root (the soak runs as CommonJS under tsx: no import.meta).
const root = process.cwd();

export function startBff(env: Record<string, string>, log: (line: string) => void): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', path.join(root, 'test/reliability/bff-process.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d: Buffer) => log(`[bff] ${d.toString().trim()}`));
  child.stderr.on('data', (d: Buffer) => log(`[bff:err] ${d.toString().trim()}`));
  return child;
}

export async function runReliability(options: RunOptions): Promise<Figures> {
  const log = options.log ?? ((): void => undefined);
  const simDir = mkdtempSync(path.join(os.tmpdir(), 'rel-sim-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rel-data-'));
  const world: World = await startSimulator({ scenario: 'demo', speed: options.speed, dataDir: simDir, log: () => undefined });
  const endedAt = timeRequestLog(world);
  const memberParent = new Map<string, string>();
  for (const c of world.options.scenario.clusters) for (const m of c.members) memberParent.set(m, c.name);
  const directClusters = world.options.scenario.clusters.filter((c) => !memberParent.has(c.name)).map((c) => c.name);
  const base = `http://127.0.0.1:${options.port}`;
  const env = { KUBECONFIG: world.fleet.kubeconfigPath, AUTOSCOPE_DATA_DIR: dataDir, PORT: String(options.port) };
  let bff = startBff(env, log);
  const figures = { autoscope5xx: 0, notReady: 0, autoscopeRequests: 0, flakyUnreachablePolls: 0 };
  const degraded = new Set<string>();
  let latest: ClusterRow[] = [];
  const run = { polling: true };

  const get = async (url: string): Promise<unknown> => {
    try {
      const res = await fetch(`${base}${url}`, { signal: AbortSignal.timeout(10_000) });
      figures.autoscopeRequests += 1;
      if (res.status >= 500) {
        const text = await res.text();
        // A backend that has not finished any first sync answers 503 not_ready by design (docs/architecture.md, "Partial failure is data": clients
        // retry), e.g. in the seconds after the restart: counted apart from failures.
        if (res.status === 503 && text.includes('"not_ready"')) figures.notReady += 1;
        else {
          figures.autoscope5xx += 1;
          log(`5xx from ${url}: ${res.status} ${text.slice(0, 200)}`);
        }
        return null;
      }
      return res.ok ? await res.json() : null;
    } catch {
      return null; // the BFF is restarting: no answer is not a 5xx
    }
  };
  // The injected outages, and the scenario's own (the demo stages a Karmada member that its control plane
  // cannot reach for a while): those clusters are unreachable by design, not flaky.
  const staged = world.options.scenario.episodes.filter((e) => e.kind === 'memberNotReady').map((e) => `${e.cluster}/${e.target ?? ''}`);
  const special = new Set([options.down.cluster, options.failing?.cluster, ...staged].filter((c): c is string => !!c));
  const poller = (async (): Promise<void> => {
    let n = 0;
    while (run.polling) {
      const body = (await get('/api/v1/clusters')) as { clusters?: ClusterRow[] } | null;
      if (body?.clusters) {
        latest = body.clusters;
        for (const c of body.clusters) {
          if (c.state === 'degraded') degraded.add(c.name);
          if (!special.has(c.name) && c.state === 'unreachable') {
            figures.flakyUnreachablePolls += 1;
            log(`flaky cluster ${c.name} shown unreachable`);
          }
        }
      }
      if (n % 4 === 0) await get('/api/v1/autoscalers?limit=100');
      n += 1;
      await sleep(500);
    }
  })();
  const stateOf = (name: string): string | undefined => latest.find((c) => c.name === name)?.state;
  const waitFor = async (ok: () => boolean, timeoutMs: number): Promise<number | null> => {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (ok()) return Date.now() - started;
      await sleep(100);
    }
    return null;
  };

  const allClusters = [...directClusters, ...memberParent.keys()];
  let rvAtKill = new Map<string, number>();
  let rvBeforeKill = new Map<string, number>();
  const bffStarted = Date.now();
  await waitFor(() => latest.length > 0 && latest.every((c) => c.state === 'synced'), 60_000);
  const t0 = Date.now();
  log(`ready in ${t0 - bffStarted} ms`);
  for (const c of allClusters) await world.fleet.setFaults(c, { errorRate: options.errorRate, watchCutSeconds: options.watchCutSeconds });

  const at = (ms: number): Promise<void> => sleep(Math.max(0, t0 + ms - Date.now()));
  const result = {
    downToUnreachableMs: null as number | null,
    returnToSyncedMs: null as number | null,
    failingToUnreachableMs: null as number | null,
    restartToSyncedMs: null as number | null,
  };
  const events: { at: number; run: () => Promise<void> }[] = [
    {
      at: options.down.atMs,
      run: async () => {
        await world.fleet.setFaults(options.down.cluster, { down: true });
        void waitFor(() => stateOf(options.down.cluster) === 'unreachable', options.down.forMs).then(
          (ms) => (result.downToUnreachableMs = ms),
        );
      },
    },
    {
      at: options.down.atMs + options.down.forMs,
      run: async () => {
        await world.fleet.setFaults(options.down.cluster, { down: false });
        void waitFor(() => stateOf(options.down.cluster) === 'synced' || stateOf(options.down.cluster) === 'degraded', 60_000).then(
          (ms) => (result.returnToSyncedMs = ms),
        );
      },
    },
    {
      at: options.killAtMs - inFlightSecond,
      run: () => {
        rvBeforeKill = resourceVersions(world, allClusters);
        return Promise.resolve();
      },
    },
    {
      at: options.killAtMs,
      run: async () => {
        log('SIGKILL the BFF');
        // What each cluster had written when the process died: nothing written after can have been read by it.
        rvAtKill = resourceVersions(world, allClusters);
        bff.kill('SIGKILL');
        await new Promise((r) => bff.once('exit', r));
        latest = [];
        const restarted = Date.now();
        bff = startBff(env, log);
        void waitFor(() => latest.length > 0 && latest.every((c) => c.state !== 'syncing'), 60_000).then(
          (ms) => (result.restartToSyncedMs = ms === null ? null : Date.now() - restarted),
        );
      },
    },
  ];
  const failing = options.failing;
  if (failing) {
    events.push(
      {
        at: failing.atMs,
        run: async () => {
          await world.fleet.setFaults(failing.cluster, { errorRate: 1 });
          // An API server that starts failing resets its streams too; otherwise they serve on until their next cut.
          world.fleet.cluster(failing.cluster).api.cutWatches(true);
          void waitFor(() => stateOf(failing.cluster) === 'unreachable', failing.forMs).then((ms) => (result.failingToUnreachableMs = ms));
        },
      },
      {
        at: failing.atMs + failing.forMs,
        run: async () => void (await world.fleet.setFaults(failing.cluster, { errorRate: options.errorRate })),
      },
    );
  }
  events.sort((a, b) => a.at - b.at);
  for (const e of events) {
    await at(e.at);
    await e.run();
  }
  await at(options.durationMs);
  for (const c of allClusters) await world.fleet.clearFaults(c);
  // Every cluster answering again (degraded until its errors leave the one-minute window).
  await waitFor(() => latest.length === allClusters.length && latest.every((c) => c.state === 'synced' || c.state === 'degraded'), 60_000);
  await sleep(3_000);
  run.polling = false;
  await poller;
  const finalList = (await get('/api/v1/autoscalers?limit=500')) as { items: { id: string; uid: string }[]; total: number } | null;
  const stoppedAt = Date.now();
  bff.kill('SIGTERM');
  await new Promise((r) => bff.once('exit', r));
  // The streams the BFF held are logged when the simulator sees them close.
  await sleep(500);
  world.truth.flush();
  await world.stop();

  // --- compare with the ground truth ---
  const db = new SqliteFile(path.join(dataDir, 'history.db'), { readonly: true });
  const rows = db
    .statement('SELECT seq, id, uid, type, status, reason, at, resource_version FROM condition_transitions ORDER BY seq')
    .all() as RecordedRow[];
  const states = db.statement('SELECT cluster, state, at FROM cluster_states ORDER BY rowid').all() as {
    cluster: string;
    state: string;
    at: string;
  }[];
  const killAt = t0 + options.killAtMs;
  const {
    total,
    recorded,
    unobservable,
    lostInFlight,
    missing,
    missingServedBy,
    inconsistent,
    duplicateSegments: duplicates,
    servedLagMs,
    lagged,
  } = judgeHistory({
    world,
    endedAt,
    rows,
    stoppedAt,
    // One process watched every cluster: every stream open at the kill was its.
    kills: [{ at: killAt, clusters: () => true, rvAt: rvAtKill, rvBefore: rvBeforeKill }],
  });
  const present = new Map((finalList?.items ?? []).map((a) => [a.id, a.uid]));
  const phantomDeletions = rows.filter((r) => r.reason === 'Deleted' && present.get(r.id) === r.uid).length;
  const gapsOf = (cluster: string): number =>
    states.filter(
      (s, i) =>
        s.cluster === cluster &&
        s.state === 'unreachable' &&
        states
          .slice(0, i)
          .filter((p) => p.cluster === cluster)
          .at(-1)?.state !== 'unreachable',
    ).length;
  const flakyGaps = [...new Set(states.map((s) => s.cluster))].filter((c) => !special.has(c)).reduce((n, c) => n + gapsOf(c), 0);
  let bytes = 0;
  try {
    bytes = (db.statement("SELECT SUM(pgsize) AS b FROM dbstat WHERE name LIKE 'condition_transitions%'").get() as { b: number }).b;
  } catch {
    bytes = statSync(path.join(dataDir, 'history.db')).size;
  }
  db.close();
  const runMs = stoppedAt - t0;
  const hpas = finalList?.total ?? 0;
  const storyDays = ((stoppedAt - bffStarted) * options.speed) / 86_400_000;
  return {
    groundTruth: total,
    recorded,
    unobservable,
    lostInFlight,
    missing,
    missingServedBy,
    inconsistent,
    duplicateSegments: duplicates,
    phantomDeletions,
    autoscope5xx: figures.autoscope5xx,
    notReady503: figures.notReady,
    autoscopeRequests: figures.autoscopeRequests,
    flakyUnreachablePolls: figures.flakyUnreachablePolls,
    flakyGaps,
    downGaps: gapsOf(options.down.cluster),
    degradedClusters: [...degraded].sort(),
    ...result,
    transitionsStored: rows.length,
    bytesPerTransition: rows.length ? Math.round(bytes / rows.length) : 0,
    hpas,
    transitionsPerHpaPerDay: hpas && storyDays ? rows.length / hpas / storyDays : 0,
    runMs,
    killAt: new Date(killAt).toISOString(),
    servedLagMs,
    lagged,
  };
}

/** The figures as the soak prints them and docs/reliability.md quotes them. */
export function formatFigures(f: Figures): string {
  const pct = f.groundTruth ? ((100 * (f.recorded + f.unobservable + f.lostInFlight)) / f.groundTruth).toFixed(2) : '100.00';
  const perDay100k = f.transitionsPerHpaPerDay * 100_000 * f.bytesPerTransition;
  return [
    `ground-truth transitions recorded: ${f.recorded} / ${f.groundTruth} (+ ${f.unobservable} proven unobservable, + ${f.lostInFlight} lost in flight at the SIGKILL) = ${pct}%`,
    `missing (observable, not recorded): ${f.missing.length}`,
    `inconsistent rows (a state the object did not have at that version): ${f.inconsistent.length}`,
    `duplicate segments: ${f.duplicateSegments}`,
    `phantom deletions: ${f.phantomDeletions}`,
    `Autoscope 5xx: ${f.autoscope5xx} of ${f.autoscopeRequests} requests (and ${f.notReady503} × 503 not_ready while the restarted BFF had no first sync)`,
    `flaky clusters shown unreachable: ${f.flakyUnreachablePolls} polls; gaps recorded for them: ${f.flakyGaps}; degraded seen: ${f.degradedClusters.join(', ') || 'none'}`,
    `down cluster: unreachable ${f.downToUnreachableMs ?? '—'} ms after going down; synced ${f.returnToSyncedMs ?? '—'} ms after its return; gaps recorded: ${f.downGaps}`,
    `only-5xx cluster: unreachable ${f.failingToUnreachableMs ?? '—'} ms after it started failing`,
    `BFF restart (SIGKILL) to every cluster past syncing: ${f.restartToSyncedMs ?? '—'} ms`,
    `at the end, the least recently served watch was ${f.servedLagMs} ms behind${f.lagged.length ? ` (${f.lagged.join(', ')})` : ''}`,
    ...f.missing.slice(0, 10).map((m) => `  missing: ${m.id} ${m.type}=${m.status}/${m.reason} at ${m.at} (rv ${m.rv ?? '?'})`),
    ...f.inconsistent.slice(0, 10).map((m) => `  inconsistent: ${JSON.stringify(m)}`),
    `stored: ${f.transitionsStored} transitions, ${f.bytesPerTransition} bytes each; ${f.transitionsPerHpaPerDay.toFixed(1)} per autoscaler per story day → ${(perDay100k / 1e6).toFixed(0)} MB/day at 100,000 HPAs`,
  ].join('\n');
}
