import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoscalerListResponseSchema } from '@/lib/api';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import { buildNeeded } from '../../scripts/build-state.mjs';
import { freePort } from '../support/free-port';
import { buildStageFile, imageStage } from '../support/image';
import { until } from './until';

/**
 * What the image runs, without a container engine: the Dockerfile's final stage (its COPY, ENV and USER
 * lines, read from the file) replayed on a temporary directory that is then made read-only, and
 * `node serve.mjs` started there as the Dockerfile's numeric user (setpriv, when the test runs as root;
 * otherwise as the current, already unprivileged, user) with the data directory the only writable path.
 * It must serve the demo fleet (the simulator), write its history, expose metrics, log only JSON lines
 * with no credential, raise no EACCES/EROFS, and exit 0 on SIGTERM.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let world: World;
let scratch: string;
let appDir: string;
let dataDir: string;
let server: ChildProcess;
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> | null = null;
let port: number;
let metricsPort: number;
const output: string[] = [];

const stage = imageStage();

/** Where the replay puts a path of the image: under the app's directory (WORKDIR) if relative, under the scratch root if absolute. */
function imagePath(to: string): string {
  return path.isAbsolute(to) && !to.startsWith(`${stage.workdir}/`) && to !== stage.workdir
    ? path.join(scratch, to)
    : path.resolve(appDir, to);
}
const asRoot = process.getuid?.() === 0;

function tokens(): string[] {
  return [...world.fleet.clusters.values()].map((c) => c.token);
}

beforeAll(async () => {
  // The standalone output comes from `next build` (npm test builds before it runs Vitest).
  const reason = buildNeeded(root);
  if (reason) {
    const build = spawnSync(path.join(root, 'node_modules', '.bin', 'next'), ['build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (build.status !== 0) throw new Error(`next build failed (${reason})`);
  }
  world = await startSimulator({ scenario: 'demo', speed: 20, dataDir: mkdtempSync(path.join(os.tmpdir(), 'image-sim-')) });

  scratch = mkdtempSync(path.join(os.tmpdir(), 'image-'));
  chmodSync(scratch, 0o755);
  appDir = path.join(scratch, 'app');
  dataDir = path.join(scratch, 'data');
  // COPY --from=build /src/<path> <dest>, relative to WORKDIR, from this checkout's build; a file the build stage took
  // from a Debian package (jemalloc), from this machine's same package, to its absolute path under the scratch root.
  for (const { from, to } of stage.copies) {
    const source = buildStageFile(from);
    if (!source) throw new Error(`${from}: the image copies it from its build stage's Debian package, which this machine lacks`);
    mkdirSync(path.dirname(imagePath(to)), { recursive: true });
    cpSync(source, imagePath(to), { recursive: true });
  }
  // The kubeconfig a Secret would mount, readable by the image's user only.
  const kubeconfig = path.join(scratch, 'kubeconfig');
  copyFileSync(world.fleet.kubeconfigPath, kubeconfig);
  mkdirSync(dataDir, { mode: 0o700 });
  if (asRoot) {
    chownSync(kubeconfig, stage.user.uid, stage.user.gid);
    chownSync(dataDir, stage.user.uid, stage.user.gid);
  }
  chmodSync(kubeconfig, 0o400);
  // The read-only root filesystem: nothing under the app's directory may be written, by anyone but root.
  spawnSync('chmod', ['-R', 'a-w', appDir, path.join(scratch, 'usr')]);

  port = await freePort();
  metricsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    PATH: '/usr/bin:/bin',
    HOME: '/nonexistent',
    ...stage.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    AUTOSCOPE_METRICS_HOST: '127.0.0.1',
    AUTOSCOPE_METRICS_PORT: String(metricsPort),
    AUTOSCOPE_DATA_DIR: dataDir,
    KUBECONFIG: kubeconfig,
  };
  // The allocator the image preloads (where the replay put it) is set for Node alone, by env(1) after setpriv: preloaded
  // into setpriv too, jemalloc's background thread deadlocks its change of user (glibc signals every thread to do it).
  const allocator = Object.entries({
    LD_PRELOAD: stage.env.LD_PRELOAD && imagePath(stage.env.LD_PRELOAD),
    MALLOC_CONF: stage.env.MALLOC_CONF,
  })
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`);
  delete env.LD_PRELOAD;
  delete env.MALLOC_CONF;
  const node = process.execPath;
  const argv = asRoot
    ? [
        'setpriv',
        `--reuid=${stage.user.uid}`,
        `--regid=${stage.user.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--',
        '/usr/bin/env',
        ...allocator,
        node,
        ...stage.cmd,
      ]
    : ['/usr/bin/env', ...allocator, node, ...stage.cmd];
  const started = Date.now();
  server = spawn(argv[0] ?? node, argv.slice(1), { cwd: path.resolve(appDir), env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  exit = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - started })));
  await until(
    async () => {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output.join('')}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/readyz`)).status;
      } catch {
        return 0;
      }
    },
    (status) => status === 200,
    90_000,
  );
}, 600_000);

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  await world.stop();
  spawnSync('chmod', ['-R', 'u+w', scratch]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('the image’s final stage', () => {
  it('is distroless-style: a numeric non-root user, the standalone server, no build tools or dev dependencies', () => {
    expect(stage.user.uid).toBeGreaterThan(0);
    expect(stage.base).toMatch(/distroless\/nodejs\d+/);
    expect(stage.cmd).toEqual(['serve.mjs']);
    expect(stage.copies.map((c) => c.from)).toEqual([
      '/src/.next/standalone',
      '/src/.next/static',
      '/src/public',
      '/src/scripts/serve.mjs',
      '/jemalloc/libjemalloc.so.2',
    ]);
    const modules = readdirSync(path.join(appDir, 'node_modules'));
    for (const dev of ['typescript', 'vitest', 'eslint', '@playwright', 'tsx', 'esbuild', 'fast-check'])
      expect(modules, dev).not.toContain(dev);
    expect(existsSync(path.join(appDir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    expect(existsSync(path.join(appDir, 'node_modules/prom-client'))).toBe(true);
    // Next traced only what the server needs: no sources, tests or simulator beside serve.mjs.
    for (const absent of ['e2e', 'sim', 'test', 'bench', 'app', 'server'])
      expect(existsSync(path.join(appDir, absent)), absent).toBe(false);
  });

  it('holds the server’s scripts one byte a character (scripts/one-byte-chunks.mjs ran after the compile)', () => {
    const scripts = readdirSync(path.join(appDir, '.next/server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(50);
    const wide = scripts.filter((f) => /[^\u0000-\u00ff]/u.test(readFileSync(path.join(appDir, '.next/server', f), 'utf8')));
    expect(wide).toEqual([]);
  });
});

describe('the standalone server on a read-only copy, as an unprivileged user', () => {
  it('runs as that user, and cannot write its own files', () => {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    expect(uid).toBe(asRoot ? stage.user.uid : process.getuid?.());
    expect(uid).not.toBe(0);
    expect(statSync(path.join(appDir, 'serve.mjs')).mode & 0o222).toBe(0);
  });

  it('allocates with the jemalloc the image preloads, set to hand freed pages back from a background thread', () => {
    expect(stage.env.LD_PRELOAD).toBe('/usr/lib/libjemalloc.so.2');
    expect(stage.env.MALLOC_CONF).toContain('background_thread:true');
    const maps = readFileSync(`/proc/${server.pid}/maps`, 'utf8');
    expect(maps).toContain(imagePath(stage.env.LD_PRELOAD ?? ''));
    // Its background purging thread runs beside Node's own.
    const threads = readdirSync(`/proc/${server.pid}/task`).map((t) => readFileSync(`/proc/${server.pid}/task/${t}/comm`, 'utf8').trim());
    expect(threads).toContain('jemalloc_bg_thd');
  });

  it('serves the demo fleet: the page, its static assets and the API', async () => {
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Autoscope');
    const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const script = await fetch(`http://127.0.0.1:${port}${asset ?? ''}`);
    expect(script.status).toBe(200);
    // Answered from memory by the fast path, which finds the build's static directory in the image's layout too
    // (Next's own answer carries a weak tag, `W/"…"`).
    expect(script.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const list = await until(
      async () => AutoscalerListResponseSchema.parse(await (await fetch(`http://127.0.0.1:${port}/api/v1/autoscalers?limit=500`)).json()),
      (l) => l.clusters.length === 7 && l.clusters.every((c) => c.state === 'synced'),
      60_000,
    );
    expect(list.total).toBeGreaterThanOrEqual(80);
  });

  it('writes its history into the data directory and serves metrics on its own port', async () => {
    await until(() => existsSync(path.join(dataDir, 'history.db')), Boolean);
    const text = await until(
      async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
      (t) => /^autoscope_history_write_duration_seconds_count [1-9]/m.test(t),
      30_000,
    );
    expect(text).toMatch(/^autoscope_cluster_state\{cluster="prod-eu-west-1",state="synced"\} 1$/m);
    // The history's write-ahead log is checkpointed by its own thread in the standalone build too (not the fallback).
    await until(
      async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
      (t) => /^autoscope_history_wal_checkpoints_total [1-9]/m.test(t),
      30_000,
    );
    expect(text).toMatch(
      /^autoscope_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/autoscalers",status="200"\} [1-9]/m,
    );
    // …and written by its own thread (the gauge is 0 once writes fell back to the event loop).
    expect(text).toMatch(/^autoscope_history_writer_thread 1$/m);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).not.toBe(200);
  });

  it('stops on SIGTERM with exit 0 within 10 s, having logged only JSON lines, no credential, no EACCES/EROFS', async () => {
    const stream = await fetch(`http://127.0.0.1:${port}/api/v1/stream`);
    const reader = stream.body?.getReader();
    await reader?.read();
    const signalled = Date.now();
    server.kill('SIGTERM');
    const result = await exit;
    expect(result?.code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // The open SSE stream was ended by the server, not left hanging.
    for (;;) {
      const chunk = await reader?.read().catch(() => ({ done: true }));
      if (!chunk || chunk.done) break;
    }
    const log = output.join('');
    expect(log).not.toMatch(/EACCES|EROFS|permission denied|read-only file system/i);
    for (const token of tokens()) expect(log.includes(token), 'a simulated cluster token reached the log').toBe(false);
    expect(log).not.toMatch(/client-key-data|BEGIN [A-Z ]*PRIVATE KEY/);
    const lines = log.split('\n').filter(Boolean);
    // Next's banner precedes Autoscope's first line; from there on every line is one JSON object.
    const first = lines.findIndex((l) => l.startsWith('{'));
    expect(first).toBeGreaterThanOrEqual(0);
    const ours = lines.slice(first).map((l) => JSON.parse(l) as { level: string; time: string; msg: string });
    expect(ours.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['watching clusters', 'metrics endpoint', 'cluster state', 'shutting down', 'stopped']),
    );
    expect(ours.every((l) => ['debug', 'info', 'warn', 'error'].includes(l.level) && !Number.isNaN(Date.parse(l.time)))).toBe(true);
    // The start says which allocator the process found itself on: the image's jemalloc.
    expect(ours.find((l) => l.msg === 'serving')).toMatchObject({ fastPath: true, allocator: 'jemalloc' });
  });
});
