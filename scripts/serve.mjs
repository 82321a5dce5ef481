#!/usr/bin/env node
// Autoscope's HTTP server, for a production build: Next.js' request handler behind a node:http server that first
// offers each request to Autoscope's fast path (server/http/fast-path.ts), which answers the hot JSON reads of the
// list and triage pages without Next's pipeline in front (docs/performance.md says why). Everything else is Next's.
//
// Run from the app's directory (the checkout after `next build`, or the image's /app beside Next's standalone
// output): `node scripts/serve.mjs --hostname 127.0.0.1 --port 3000` (else HOST and PORT, else 127.0.0.1:3000).
// `npm start`, the image, the e2e tests and the benches all run this file; `next dev` has no fast path.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

const started = performance.now();

/** One JSON log line, in the backend's format (server/log.ts): the image's log is JSON lines from Autoscope's first on. */
function logLine(level, msg, fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === 'error') console.error(line);
  else console.info(line);
}
/**
 * Which malloc the process runs on: `jemalloc` where it is preloaded (the image does: Dockerfile), else `system`
 * (glibc's on Debian); `unknown` where /proc cannot say. docs/performance.md measures the memory on both.
 */
function allocator() {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc') ? 'jemalloc' : 'system';
  } catch {
    return 'unknown';
  }
}

const { values } = parseArgs({
  options: { hostname: { type: 'string', short: 'H' }, port: { type: 'string', short: 'p' } },
});
const hostname = values.hostname ?? process.env.HOST ?? '127.0.0.1';
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  logLine('error', 'invalid port', { port: values.port ?? process.env.PORT });
  process.exit(1);
}

process.env.NODE_ENV = 'production';
// Autoscope's own SIGTERM/SIGINT handling (server/lifecycle.ts): streams closed, watches stopped, history written, exit 0.
process.env.NEXT_MANUAL_SIG_HANDLE ??= '1';
// The configuration the build recorded, as Next's own standalone server.js passes it: the image carries no next.config.js.
const dir = process.cwd();
const distDir = process.env.NEXT_DIST_DIR || '.next';
let serverFiles;
try {
  serverFiles = JSON.parse(readFileSync(path.join(dir, distDir, 'required-server-files.json'), 'utf8'));
} catch (err) {
  logLine('error', 'no production build here: run `next build` first', { dir: path.join(dir, distDir), error: err.message });
  process.exit(1);
}
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(serverFiles.config);

const { default: next } = await import('next');
const app = next({ dev: false, dir, hostname, port });
// prepare() loads the build; Next runs instrumentation.ts (the backend, which offers the fast path) on the first request.
await app.prepare();
const nextHandler = app.getRequestHandler();
const fastPathKey = Symbol.for('autoscope.fastPath');

const server = http.createServer((req, res) => {
  const fastPath = globalThis[fastPathKey];
  if (fastPath?.(req, res)) return;
  nextHandler(req, res).catch((err) => {
    logLine('error', 'Next.js failed to answer', { method: req.method, path: req.url?.split('?')[0], error: String(err?.message ?? err) });
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end('Internal Server Error');
    } else {
      res.destroy();
    }
  });
});
const keepAlive = Number.parseInt(process.env.KEEP_ALIVE_TIMEOUT ?? '', 10);
if (Number.isFinite(keepAlive) && keepAlive >= 0) server.keepAliveTimeout = keepAlive;
server.on('error', (err) => {
  logLine('error', 'the server failed', { error: err.message });
  process.exit(1);
});
server.listen(port, hostname, () => {
  const address = server.address();
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  // Next runs instrumentation.ts (the backend's start) on its first request: ask for one now, so the watches start
  // at once rather than when someone first opens a page, and the fast path is in place before that.
  const local =
    address.family === 'IPv6'
      ? address.address === '::'
        ? '[::1]'
        : `[${address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  const warm = http.get(`http://${local}:${address.port}/api/healthz`, (res) => {
    res.resume();
    res.on('end', () => {
      logLine('info', 'serving', {
        url: `http://${shown}:${address.port}`,
        startedMs: Math.round(performance.now() - started),
        // false only if the backend did not start (its own log line says why): Next then answers every request.
        fastPath: Boolean(globalThis[fastPathKey]),
        allocator: allocator(),
      });
    });
  });
  warm.on('error', (err) => logLine('error', 'the first request to the server failed', { error: err.message }));
});
