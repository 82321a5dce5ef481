import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import packageJson from '@/package.json';

/**
 * Autoscope's Prometheus registry (docs/operations.md lists every metric). Next bundles this module
 * separately into each route and into instrumentation.ts, so the registry and its metrics live on
 * `globalThis`: every copy records into the one registry the metrics endpoint serves. Only the two
 * latencies — API requests and history writes — the history's WAL checkpoints and V8's compaction windows are
 * observed where they happen; everything else is read from the running instance when Prometheus scrapes (./collectors.ts).
 */
export interface AutoscopeMetrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  historyWriteDuration: Histogram;
  historyWalCheckpoints: Counter;
  v8CompactionWindows: Counter<'outcome'>;
}

const globalKey = Symbol.for('autoscope.metrics');
type Holder = { [globalKey]?: AutoscopeMetrics };

export function getMetrics(): AutoscopeMetrics {
  const holder = globalThis as Holder;
  holder[globalKey] ??= createMetrics();
  return holder[globalKey];
}

/** Records one history write (a transaction of queued changes) that took `seconds`. */
export function observeHistoryWrite(seconds: number): void {
  getMetrics().historyWriteDuration.observe(seconds);
}

/** Counts one checkpoint of the SQLite history's write-ahead log, run by its thread. */
export function observeWalCheckpoint(): void {
  getMetrics().historyWalCheckpoints.inc();
}

/** Counts one of V8's old-space compaction windows as it closes: the space compact, or the minute run out. */
export function observeCompactionWindow(compact: boolean): void {
  getMetrics().v8CompactionWindows.inc({ outcome: compact ? 'compact' : 'timeout' });
}

/** A registry with the process metrics, build info and the two latency histograms. */
export function createMetrics(): AutoscopeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: 'autoscope_build_info',
    help: 'Always 1; the labels say which Autoscope and Node.js run.',
    labelNames: ['version', 'node_version'],
    registers: [registry],
    collect() {
      this.set({ version: packageJson.version, node_version: process.versions.node }, 1);
    },
  });

  const historyWriteDuration = new Histogram({
    name: 'autoscope_history_write_duration_seconds',
    help: 'Time to write one batch of history (one transaction of queued transitions, samples and events).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });

  const httpRequestDuration = new Histogram({
    name: 'autoscope_http_request_duration_seconds',
    help: "API requests by route pattern, method and status: time until the response's headers (for /api/v1/stream, until the stream opens).",
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const historyWalCheckpoints = new Counter({
    name: 'autoscope_history_wal_checkpoints_total',
    help: "Checkpoints of the SQLite history's write-ahead log, run by its own thread (none on PostgreSQL).",
    registers: [registry],
  });

  const v8CompactionWindows = new Counter({
    name: 'autoscope_v8_compaction_windows_total',
    help: "Windows of V8's --optimize-for-size that compacted the old space (server/v8-favor.ts), by how they closed: compact, or timeout after a minute.",
    labelNames: ['outcome'],
    registers: [registry],
  });

  return { registry, httpRequestDuration, historyWriteDuration, historyWalCheckpoints, v8CompactionWindows };
}
