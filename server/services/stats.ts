import 'server-only';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { StatsQuery, StatsResponse } from '@/lib/api';
import { canSeeAutoscaler, canSeeCluster } from '@/lib/access';
import type { Viewer } from '../access/access';
import { AppError } from '../http/app-error';
import type { Autoscope } from '../runtime';

let fullGc: (() => void) | null | undefined;

/**
 * A full collection before memory is read, so heapUsed counts live objects, not whatever garbage the last requests
 * left: asked for with `gc=1`, and only allowed when AUTOSCOPE_STATS_GC=1 (the benchmarks). It used to run on every
 * read; the fleet benchmark polls stats four times a second while the index syncs, and those collections of a
 * growing heap (up to 0.7 s each at 100,000 autoscalers) were 25 of a 66-second sync.
 */
function collectGarbage(): void {
  if (process.env.AUTOSCOPE_STATS_GC !== '1')
    throw new AppError('bad_request', 'gc=1 is for benchmarks: the server must be started with AUTOSCOPE_STATS_GC=1', {
      issues: [{ path: 'gc', message: 'needs AUTOSCOPE_STATS_GC=1' }],
    });
  if (fullGc === undefined) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
  }
  fullGc?.();
}

/** Process figures for the benchmark and operators: index size (what the viewer may see of it), subscribers, memory, uptime. */
export function stats(app: Autoscope, viewer: Viewer, query: StatsQuery = {}): StatsResponse {
  if (query.gc) collectGarbage();
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
