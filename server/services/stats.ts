import 'server-only';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { StatsResponse } from '@/lib/api';
import { canSeeAutoscaler, canSeeCluster } from '@/lib/access';
import type { Viewer } from '../access/access';
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

/** Process figures for the benchmark and operators: index size (what the viewer may see of it), subscribers, memory, uptime. */
export function stats(app: Autoscope, viewer: Viewer): StatsResponse {
  collectGarbage();
  const memory = process.memoryUsage();
  const { scope } = viewer;
  let autoscalers = app.index.entries.size;
  const names = app.clusterStatuses().map((c) => c.name);
  let clusters = names.length;
  if (!scope.all) {
    autoscalers = 0;
    for (const { dto } of app.index.entries.values()) if (canSeeAutoscaler(scope, dto)) autoscalers += 1;
    clusters = names.filter((name) => canSeeCluster(scope, name)).length;
  }
  return {
    autoscalers,
    clusters,
    streamSubscribers: app.bus.subscriberCount,
    heapUsedBytes: memory.heapUsed,
    rssBytes: memory.rss,
    uptimeSeconds: Math.round(process.uptime()),
    startedAt: app.startedAt,
  };
}
