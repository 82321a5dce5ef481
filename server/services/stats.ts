import 'server-only';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { StatsResponse } from '@/lib/api';
import type { Autoscope } from '../runtime';

let fullGc: (() => void) | null | undefined;

/**
 * With AUTOSCOPE_STATS_GC=1 (the fleet benchmark sets it) a full collection runs before memory is read, so
 * heapUsed counts live objects, not whatever garbage the last requests left. Never on by default.
 */
function collectGarbage(): void {
  if (process.env.AUTOSCOPE_STATS_GC !== '1') return;
  if (fullGc === undefined) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
  }
  fullGc?.();
}

/** Process figures for the benchmark and operators: index size, subscribers, memory, uptime. */
export function stats(app: Autoscope): StatsResponse {
  collectGarbage();
  const memory = process.memoryUsage();
  return {
    autoscalers: app.index.entries.size,
    clusters: app.watchers.size,
    streamSubscribers: app.bus.subscriberCount,
    heapUsedBytes: memory.heapUsed,
    rssBytes: memory.rss,
    uptimeSeconds: Math.round(process.uptime()),
    startedAt: app.startedAt,
  };
}
