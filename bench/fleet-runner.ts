/**
 * What the benchmarks that need a running fleet share: the simulator as a child process on a generated fleet,
 * a production build of the dashboard in its own dist dir (`.next-bench`, so the checkout's `.next` is left
 * alone), the BFF (`scripts/serve.mjs`) on that fleet, and waiting until its index holds every autoscaler.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { imageAllocator } from '../test/support/image';

export const root = path.resolve(__dirname, '..');
const children: ChildProcess[] = [];

/**
 * Has `child` (started with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>`) write a heap snapshot, and waits
 * until the file has stopped growing (V8 writes it in pieces); resolves with its path.
 */
export async function heapSnapshotWritten(child: ChildProcess, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  child.kill('SIGUSR2');
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const size = statSync(path.join(dir, file)).size;
    if (size > 0 && size === last) return path.join(dir, file);
    last = size;
  }
}

export function stopAll(): void {
  for (const c of children) c.kill('SIGTERM');
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/** SIGTERM to every child started here, then wait (≤ 15 s each) until they have exited. */
export async function stopAllAndWait(): Promise<void> {
  await Promise.all(children.map((c) => stopped(c)));
}

/** SIGTERM to `child` unless it has exited; resolves once it has (or after 15 s). */
export function stopped(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(resolve, 15_000).unref();
  });
}

/**
 * A bench's working files — the simulator's state and the BFF's history, 0.3–1 GB a run at 100,000 HPAs — removed once
 * its processes have exited (call after `stopAllAndWait`), except what `keep` names; a run on a developer's machine no
 * longer leaves them in the temporary directory (a hundred runs had filled a disk). BENCH_KEEP_DATA=1 keeps them all,
 * to look at.
 */
export function removeBenchData(dir: string, keep: readonly string[] = []): void {
  if (process.env.BENCH_KEEP_DATA === '1') {
    console.info(`bench data kept in ${dir} (BENCH_KEEP_DATA=1)`);
    return;
  }
  const kept = new Set(keep.map((f) => path.resolve(f)));
  if (kept.size === 0) return rmSync(dir, { recursive: true, force: true });
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!kept.has(path.resolve(file))) rmSync(file, { recursive: true, force: true });
  }
}

export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}`)), timeoutMs);
    // The wait alone does not keep the bench running.
    timer.unref();
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const m = pattern.exec(buffered);
      if (m) {
        clearTimeout(timer);
        // Found: stop keeping the child's output for it (the stream keeps flowing, so the child never blocks on it).
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`process exited (${code}) before ${pattern}`)));
  });
}

export async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** The BFF's metrics port (its default: the benches leave AUTOSCOPE_METRICS_PORT unset). */
const METRICS_PORT = 9464;

/**
 * Fails unless the BFF's ports are free. A BFF left from an earlier run (a bench:heap still writing its snapshot)
 * holding the metrics port made the next bench's BFF run without its metrics endpoint, and the bench read the other
 * process's figures or none, and ran beside its CPU: a run to throw away, found only afterwards.
 */
export async function assertPortsFree(bffPort: number): Promise<void> {
  for (const port of [bffPort, METRICS_PORT]) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (!free) throw new Error(`port ${port} is in use (a BFF of an earlier run still running?): stop it and run the bench again`);
  }
}

/** The BFF's Prometheus metrics as text (its metrics endpoint, :9464); empty when it does not answer. */
export function bffMetrics(): Promise<string> {
  return fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
}

export interface SimulatorHandle {
  kubeconfig: string;
  adminUrl: string;
}

/**
 * The simulator's environment: tsx runs the script in a child process, so its heap limit goes through NODE_OPTIONS
 * (a `--max-old-space-size` before tsx's path only limits tsx's own process; at 250,000 HPAs the simulator ran out of
 * its default ~4 GiB heap).
 */
export function simulatorEnv(): NodeJS.ProcessEnv {
  // BENCH_SIM_NODE_ARGS: more Node/V8 flags for the simulator only (e.g. `--max-semi-space-size=32`), to try a setting.
  const extra = process.env.BENCH_SIM_NODE_ARGS ?? '';
  return { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=16384 ${extra}`.trim() };
}

/** The simulator on a generated fleet of `clusters` × `hpas` (sim/world/scenario.ts, `generateScenario`). */
export async function startGeneratedFleet(options: {
  clusters: number;
  hpas: number;
  speed: number;
  dataDir: string;
}): Promise<SimulatorHandle> {
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const args = [tsx, path.join(root, 'sim', 'cli.ts')];
  args.push('--clusters', String(options.clusters), '--hpas-per-cluster', String(options.hpas), '--speed', String(options.speed));
  args.push('--data-dir', options.dataDir);
  const sim = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: simulatorEnv() });
  children.push(sim);
  const kubeconfig = (await waitForLine(sim, /^\[sim\] kubeconfig: (.+)$/m, 900_000))[1]?.trim() ?? '';
  const admin = JSON.parse(readFileSync(path.join(path.dirname(kubeconfig), 'admin.json'), 'utf8')) as { adminUrl: string };
  return { kubeconfig, adminUrl: admin.adminUrl };
}

/** `next build` into `.next-bench`; `next build` adds a dist dir to tsconfig.json's include list, which is put back. */
export function buildForBench(): void {
  // Set by `npm run bench` when it runs the triage page after its own build of the same checkout.
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(path.join(root, '.next-bench', 'BUILD_ID'))) return;
  const tsconfig = path.join(root, 'tsconfig.json');
  const tsconfigText = readFileSync(tsconfig, 'utf8');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NEXT_DIST_DIR: '.next-bench', NEXT_TELEMETRY_DISABLED: '1' },
  });
  writeFileSync(tsconfig, tsconfigText);
  if (build.status !== 0) throw new Error('next build failed (run `NEXT_DIST_DIR=.next-bench npx next build` to see why)');
}

/**
 * The allocator the BFF runs with: the image's (Dockerfile: jemalloc preloaded, `MALLOC_CONF`), from this machine's
 * Debian package, so that the memory figures are the image's; glibc's malloc with `BENCH_ALLOCATOR=glibc` (to compare),
 * or when the package is missing (said in `label`).
 */
export function benchAllocator(): { env: Record<string, string>; label: string } {
  if (process.env.BENCH_ALLOCATOR === 'glibc') return { env: {}, label: "glibc's malloc (BENCH_ALLOCATOR=glibc)" };
  const { env, missing } = imageAllocator();
  if (missing) return { env: {}, label: `glibc's malloc, not the image's jemalloc: ${missing}` };
  return { env, label: `jemalloc, as the image runs it (MALLOC_CONF=${env.MALLOC_CONF ?? ''})` };
}

/**
 * The BFF on the simulator's kubeconfig; resolves once scripts/serve.mjs is ready (not yet synced). `env` adds to its
 * environment (a PostgreSQL store's URL); `onOutput` is given its stdout from the start, before it is serving.
 */
export async function startBff(options: {
  port: number;
  kubeconfig: string;
  dataDir: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
  onOutput?: (chunk: Buffer) => void;
}): Promise<ChildProcess> {
  await assertPortsFree(options.port);
  const serve = path.join(root, 'scripts', 'serve.mjs');
  const args = ['--max-old-space-size=8192', ...(options.nodeArgs ?? []), serve, '--hostname', '127.0.0.1', '--port', String(options.port)];
  const bff = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    // AUTOSCOPE_STATS_GC: /api/v1/stats?gc=1 collects garbage first, so a heap figure is live objects only.
    env: {
      ...process.env,
      ...benchAllocator().env,
      KUBECONFIG: options.kubeconfig,
      AUTOSCOPE_DATA_DIR: options.dataDir,
      NEXT_DIST_DIR: '.next-bench',
      NEXT_TELEMETRY_DISABLED: '1',
      AUTOSCOPE_STATS_GC: '1',
      ...options.env,
    },
  });
  children.push(bff);
  if (options.onOutput) bff.stdout.on('data', options.onOutput);
  await waitForLine(bff, /"msg":"serving"/, 300_000);
  return bff;
}

/** Polls readiness and /api/v1/stats until the index holds `expected` autoscalers; resolves with how long it took. */
export async function waitForIndex(base: string, expected: number, timeoutMs = 600_000): Promise<number> {
  const started = performance.now();
  let lastReport = started;
  let synced = 0;
  for (;;) {
    try {
      const ready = await getJson<{ ready: boolean }>(`${base}/api/readyz`).catch(() => ({ ready: false }));
      synced = (await getJson<{ autoscalers: number }>(`${base}/api/v1/stats`)).autoscalers;
      if (ready.ready && synced >= expected) return performance.now() - started;
    } catch {
      // not answering yet
    }
    if (performance.now() - lastReport > 10_000) {
      console.info(`  … ${synced} autoscalers indexed after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      lastReport = performance.now();
    }
    if (performance.now() - started > timeoutMs) throw new Error(`index not synced after ${timeoutMs / 1000} s (${synced} autoscalers)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
