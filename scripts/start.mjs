#!/usr/bin/env node
// `npm start`: build when needed, start the built-in simulator when no cluster is configured,
// then serve the dashboard on 127.0.0.1 (HOST/PORT change it). `--dev` runs `next dev` instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildNeeded } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    dev: { type: 'boolean', default: false },
    port: { type: 'string' },
    host: { type: 'string' },
    'reset-data': { type: 'boolean', default: false },
  },
});
const host = values.host ?? process.env.HOST ?? '127.0.0.1';
const port = values.port ?? process.env.PORT ?? '3000';

// Autoscope shows cluster state: off loopback it needs a sign-in mode, or an explicit choice to have none
// (server/access/config.ts says the same from inside the server; this line comes before any build).
const loopback = /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/i.test(host);
if (!loopback && !process.env.AUTOSCOPE_AUTH && process.env.AUTOSCOPE_DEMO_AUTH !== '1') {
  console.error(
    `[autoscope] HOST=${host} is not loopback: set AUTOSCOPE_AUTH=oidc (with AUTOSCOPE_OIDC_ISSUER, AUTOSCOPE_OIDC_CLIENT_ID, AUTOSCOPE_OIDC_REDIRECT_URL) or AUTOSCOPE_AUTH=proxy (with AUTOSCOPE_PROXY_ISSUER), or AUTOSCOPE_AUTH=none to serve every cluster to anyone who reaches the port`,
  );
  process.exit(1);
}
const nextBin = path.join(root, 'node_modules', '.bin', 'next');

function log(line) {
  console.info(`[autoscope] ${line}`);
}

/** kubectl's rule: KUBECONFIG, else ~/.kube/config; in a pod, the service account. AUTOSCOPE_DEMO=1 forces the demo. */
function clusterConfigured() {
  if (process.env.AUTOSCOPE_DEMO === '1') return false;
  if (process.env.KUBECONFIG) return true;
  if (process.env.KUBERNETES_SERVICE_HOST) return true;
  return existsSync(path.join(os.homedir(), '.kube', 'config'));
}

const children = new Set();
function stopAll(code) {
  for (const child of children) {
    child.kill('SIGTERM');
  }
  process.exit(code);
}
process.on('SIGINT', () => stopAll(130));
process.on('SIGTERM', () => stopAll(143));

if (!values.dev) {
  const reason = buildNeeded(root);
  if (reason) {
    log(`building (${reason})…`);
    const build = spawnSync(nextBin, ['build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (build.status !== 0) {
      console.error('[autoscope] next build failed; see the output above.');
      process.exit(build.status ?? 1);
    }
  }
}

// NEXT_MANUAL_SIG_HANDLE: Autoscope's own SIGTERM handler (server/lifecycle.ts) stops gracefully and exits 0.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_MANUAL_SIG_HANDLE: '1', PORT: port, HOST: host };
if (values['reset-data'] && process.env.AUTOSCOPE_DATA_DIR) {
  // Test runs start from an empty history and a new simulator (used by the e2e webServer).
  rmSync(path.resolve(process.env.AUTOSCOPE_DATA_DIR), { recursive: true, force: true });
}
if (!clusterConfigured()) {
  const dataDir = path.resolve(process.env.AUTOSCOPE_DATA_DIR ?? path.join(root, '.autoscope'));
  log('no kubeconfig configured (KUBECONFIG unset, no ~/.kube/config): starting the built-in demo fleet (sim/, scenario "demo").');
  env.KUBECONFIG = await startDemo(path.join(dataDir, 'sim'));
  env.AUTOSCOPE_DATA_DIR = path.join(dataDir, 'demo');
  env.AUTOSCOPE_DEMO_FLEET = '1';
}

if (process.env.AUTOSCOPE_DEMO_AUTH === '1') {
  // Sign-in with the demo identity provider (sim/identity): alice (team-web), bob (team-platform) and carol
  // (no rule), any password, under sim/identity/demo-policy.yaml.
  const dataDir = path.resolve(process.env.AUTOSCOPE_DATA_DIR ?? path.join(root, '.autoscope'));
  const providerPort = process.env.AUTOSCOPE_DEMO_AUTH_PORT ?? '5556';
  const appUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { issuer, clientId, clientSecret } = await startDemoProvider(providerPort, appUrl);
  mkdirSync(dataDir, { recursive: true });
  const secretFile = path.join(dataDir, 'demo-oidc-client-secret');
  writeFileSync(secretFile, `${clientSecret}\n`, { mode: 0o600 });
  Object.assign(env, {
    AUTOSCOPE_AUTH: 'oidc',
    AUTOSCOPE_OIDC_ISSUER: issuer,
    AUTOSCOPE_OIDC_CLIENT_ID: clientId,
    AUTOSCOPE_OIDC_CLIENT_SECRET_FILE: secretFile,
    AUTOSCOPE_OIDC_REDIRECT_URL: `${appUrl}/auth/callback`,
    AUTOSCOPE_POLICY_FILE: process.env.AUTOSCOPE_POLICY_FILE ?? path.join(root, 'sim', 'identity', 'demo-policy.yaml'),
  });
  log(`demo sign-in: ${issuer} — users alice (team-web), bob (team-platform), carol (no rule); any password`);
}

/** Starts the demo identity provider as a child; resolves with its issuer and client once it listens. */
function startDemoProvider(providerPort, appUrl) {
  const args = [
    path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    path.join(root, 'sim', 'identity', 'cli.ts'),
    '--port',
    providerPort,
    '--app',
    appUrl,
  ];
  const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString();
      const client = /^\[identity\] client: (\S+) (\S+)$/m.exec(buffered);
      const issuer = /^\[identity\] issuer: (\S+)$/m.exec(buffered);
      if (client && issuer) resolve({ issuer: issuer[1], clientId: client[1], clientSecret: client[2] });
    });
    child.on('exit', (code) => {
      children.delete(child);
      reject(new Error(`the demo identity provider exited (${code}) before it was ready`));
      stopAll(code ?? 1);
    });
  });
}

/** Starts the simulator as a child and resolves with the kubeconfig path it prints. */
function startDemo(simDataDir) {
  const args = [
    path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    path.join(root, 'sim', 'cli.ts'),
    '--scenario',
    process.env.AUTOSCOPE_DEMO_SCENARIO ?? 'demo',
    '--data-dir',
    simDataDir,
  ];
  if (process.env.AUTOSCOPE_DEMO_SPEED) args.push('--speed', process.env.AUTOSCOPE_DEMO_SPEED);
  const sim = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(sim);
  return new Promise((resolve, reject) => {
    let buffered = '';
    sim.stdout.on('data', (chunk) => {
      const text = chunk.toString();
      buffered += text;
      process.stdout.write(text);
      const match = /^\[sim\] kubeconfig: (.+)$/m.exec(buffered);
      if (match) resolve(match[1].trim());
    });
    sim.on('exit', (code) => {
      children.delete(sim);
      reject(new Error(`the demo simulator exited (${code}) before it was ready`));
      stopAll(code ?? 1);
    });
  });
}

// The server stays in our process group, so whoever stops
// this script's group (Ctrl-C, Playwright's webServer) stops the server too (docs/toolchain.md, trap 8).
// Production: scripts/serve.mjs (Next's handler behind Autoscope's fast path for the hot JSON reads); --dev: `next dev`.
const server = values.dev
  ? spawn(nextBin, ['dev', '-H', host, '-p', port], { cwd: root, env, stdio: 'inherit' })
  : spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '--hostname', host, '--port', port], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
children.add(server);
log(`dashboard on http://${host}:${port}`);
// scripts/serve.mjs starts the backend itself; `next dev` starts it on the first request, so ask for one.
if (values.dev) void warmUp();

/** Starts the backend (informers, history) as soon as the dev server answers, not on the first page view. */
async function warmUp() {
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/api/readyz`);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

server.on('exit', (code, signal) => {
  children.delete(server);
  stopAll(code ?? (signal ? 1 : 0));
});
