#!/usr/bin/env node
// `npm start`: build when needed, start the built-in simulator when no cluster is configured,
// then serve the dashboard on 127.0.0.1 (HOST/PORT change it). `--dev` runs `next dev` instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  },
});
const host = values.host ?? process.env.HOST ?? '127.0.0.1';
const port = values.port ?? process.env.PORT ?? '3000';
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

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
if (!clusterConfigured()) {
  log('no kubeconfig configured (KUBECONFIG unset, no ~/.kube/config): the dashboard shows that no cluster is configured.');
}

// node_modules/.bin/next itself becomes next-server; it stays in our process group, so whoever stops
// this script's group (Ctrl-C, Playwright's webServer) stops the server too (STACK.md, trap 8).
const server = spawn(nextBin, [values.dev ? 'dev' : 'start', '-H', host, '-p', port], { cwd: root, env, stdio: 'inherit' });
children.add(server);
log(`dashboard on http://${host}:${port}`);
server.on('exit', (code, signal) => {
  children.delete(server);
  stopAll(code ?? (signal ? 1 : 0));
});
