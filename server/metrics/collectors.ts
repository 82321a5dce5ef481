import 'server-only';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Registry } from 'prom-client';
import { Counter, Gauge } from 'prom-client';
import { AutoscalerKindSchema, ClusterStateSchema, HealthSchema } from '@/lib/api';
import { sharedAnswersOf } from '../http/shared-answers';
import { threadBusySeconds } from '../store/sqlite-thread';
import type { Autoscope } from '../runtime';
import type { ResourceInformer } from '../watch/informer';

/**
 * The metrics read from the running Autoscope when Prometheus scrapes (prom-client's `collect()`), so
 * no other module counts anything. Labels stay bounded: `cluster`, `kind`, `health`, `state`,
 * `resource`, `thread` — never an autoscaler's name. `instance` gives the running Autoscope (none before it starts).
 * Registers once per registry.
 */
export function registerCollectors(registry: Registry, instance: () => Autoscope | undefined): void {
  if (registry.getSingleMetric('autoscope_cluster_state')) return;
  new Gauge({
    name: 'autoscope_cluster_state',
    help: "1 for the cluster's current connection state, 0 for the others.",
    labelNames: ['cluster', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const status of instance()?.clusterStatuses() ?? []) {
        for (const state of ClusterStateSchema.options) this.set({ cluster: status.name, state }, status.state === state ? 1 : 0);
      }
    },
  });

  new Gauge({
    name: 'autoscope_cluster_last_sync_age_seconds',
    help: 'Seconds since every watched resource of the cluster last completed a list (absent before the first sync).',
    labelNames: ['cluster'],
    registers: [registry],
    collect() {
      this.reset();
      const now = Date.now();
      for (const status of instance()?.clusterStatuses() ?? []) {
        if (status.lastSyncAt) this.set({ cluster: status.name }, Math.max(0, (now - Date.parse(status.lastSyncAt)) / 1000));
      }
    },
  });

  /** A counter per cluster, summed over the cluster's informers at scrape time. */
  const perCluster = (name: string, help: string, count: (informer: ResourceInformer) => number): void => {
    new Counter({
      name,
      help,
      labelNames: ['cluster'],
      registers: [registry],
      collect() {
        this.reset();
        for (const watcher of instance()?.watchers.values() ?? []) {
          let sum = 0;
          for (const informer of watcher.informers.values()) sum += count(informer);
          this.inc({ cluster: watcher.name }, sum);
        }
      },
    });
  };
  perCluster('autoscope_watch_restarts_total', 'Informer restarts after a failed list or a broken watch, per cluster.', (i) => i.restarts);
  perCluster(
    'autoscope_watch_relists_total',
    "Full lists after a resource's first one (after a restart or a 410 Gone), per cluster.",
    (i) => Math.max(0, i.lists - 1),
  );
  perCluster(
    'autoscope_watch_streams_total',
    'Watch requests made (the first of each resource, then every resumption after a cut, an idle limit or a server timeout), per cluster.',
    (i) => i.watches,
  );
  perCluster(
    'autoscope_watch_events_total',
    'Watch events received (bookmarks included), per cluster: how fast each cluster churns, and what the BFF applies.',
    (i) => i.events,
  );

  new Counter({
    name: 'autoscope_cluster_probes_total',
    help: 'Liveness probes (GET /version) sent to a cluster that had been quiet for 10 s, per cluster.',
    labelNames: ['cluster'],
    registers: [registry],
    collect() {
      this.reset();
      for (const watcher of instance()?.watchers.values() ?? []) this.inc({ cluster: watcher.name }, watcher.probes);
    },
  });

  new Gauge({
    name: 'autoscope_watched_objects',
    help: 'Objects each informer knows its cluster holds, per cluster and watched resource: those in its cache, or for HPA and FederatedHPA Events (not cached) those its last list and watch since reported.',
    labelNames: ['cluster', 'resource'],
    registers: [registry],
    collect() {
      this.reset();
      for (const watcher of instance()?.watchers.values() ?? []) {
        for (const [key, informer] of watcher.informers) this.set({ cluster: watcher.name, resource: key }, informer.size);
      }
    },
  });

  new Gauge({
    name: 'autoscope_autoscalers',
    help: 'Autoscalers in the index, per cluster, kind and health.',
    labelNames: ['cluster', 'kind', 'health'],
    registers: [registry],
    collect() {
      this.reset();
      const app = instance();
      if (!app) return;
      // Every (kind, health) of every cluster, zeros included, so a series does not vanish when it empties. Counted by
      // the index as it changes: a walk of its entries here held the event loop ~40 ms a scrape at 100,000.
      for (const status of app.clusterStatuses()) {
        for (const kind of AutoscalerKindSchema.options) {
          for (const health of HealthSchema.options)
            this.set({ cluster: status.name, kind, health }, app.index.countOf(status.name, kind, health));
        }
      }
    },
  });

  new Gauge({
    name: 'autoscope_index_entries',
    help: 'Autoscalers in the in-memory index, all clusters together.',
    registers: [registry],
    collect() {
      this.set(instance()?.index.entries.size ?? 0);
    },
  });

  new Gauge({
    name: 'autoscope_index_held_waiting',
    help: 'HPA versions handed to the compressor thread and not yet deflated (held as their plain JSON bytes meanwhile): a number that stays high says the thread falls behind the watch events.',
    registers: [registry],
    collect() {
      this.set(instance()?.index.heldWaiting ?? 0);
    },
  });

  new Gauge({
    name: 'autoscope_index_held_bytes',
    help: "Bytes of the HPAs' objects the index holds outside V8's heap: deflated against a dictionary of the first few HPAs (form=deflated), and those few as JSON until their next version (form=json).",
    labelNames: ['form'],
    registers: [registry],
    collect() {
      const held = instance()?.index.heldBytes ?? { json: 0, deflated: 0 };
      this.set({ form: 'json' }, held.json);
      this.set({ form: 'deflated' }, held.deflated);
    },
  });

  new Gauge({
    name: 'autoscope_index_held_slab_bytes',
    help: 'Bytes of the slabs the deflated HPAs are packed into: at least autoscope_index_held_bytes{form="deflated"}; the rest is replaced versions\' bytes, until less than half of their slab is alive and it is emptied.',
    registers: [registry],
    collect() {
      this.set(instance()?.index.heldSlabBytes ?? 0);
    },
  });

  new Counter({
    name: 'autoscope_http_shared_answers_total',
    help: "Answers of list pages and triage reads: made for a request (outcome=made), or shared with an identical request (same query and scope) before the stream's next message (outcome=shared).",
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      const app = instance();
      const counts = app ? sharedAnswersOf(app).counts : { made: 0, shared: 0 };
      this.inc({ outcome: 'made' }, counts.made);
      this.inc({ outcome: 'shared' }, counts.shared);
    },
  });

  new Gauge({
    name: 'autoscope_sse_streams_open',
    help: 'Open Server-Sent Events streams (/api/v1/stream).',
    registers: [registry],
    collect() {
      this.set(instance()?.streams.size ?? 0);
    },
  });

  new Gauge({
    name: 'autoscope_history_database_size_bytes',
    help: "The history database's files on disk (SQLite database and write-ahead log).",
    registers: [registry],
    collect() {
      const app = instance();
      this.set(app ? databaseBytes(app.config.dataDir) : 0);
    },
  });

  new Counter({
    name: 'autoscope_thread_busy_seconds_total',
    help: "Seconds each of the BFF's worker threads has spent working (its event loop's active time: its CPU, plus any wait for a core meanwhile), by thread: history-writer, wal-checkpointer, held-compressor. One that gains about a second every second cannot keep up: history's writes, or the HPAs waiting to be deflated, pile up in memory.",
    labelNames: ['thread'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [thread, seconds] of threadBusySeconds()) this.inc({ thread }, seconds);
    },
  });

  new Gauge({
    name: 'autoscope_history_deferred_first_sights',
    help: "Autoscalers first seen in this process' cold start whose first rows (the object, its conditions, its replicas) history has yet to be handed: deferred until the index is whole, then written in slices. 0 once written.",
    registers: [registry],
    collect() {
      this.set(instance()?.history.deferredFirstSights ?? 0);
    },
  });

  new Gauge({
    name: 'autoscope_history_writer_thread',
    help: 'Whether the SQLite history is written by its own thread: 1, or 0 after it failed and writes went back to the event loop (and on PostgreSQL).',
    registers: [registry],
    collect() {
      // Read from the instance, not by class: each bundle has its own copy of HistoryStore.
      const history = instance()?.history as { writingOnThread?: boolean } | undefined;
      this.set(history?.writingOnThread ? 1 : 0);
    },
  });
}

function databaseBytes(dataDir: string): number {
  let bytes = 0;
  for (const file of ['history.db', 'history.db-wal']) {
    try {
      bytes += statSync(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dataDir, file)).size;
    } catch {
      // not written yet
    }
  }
  return bytes;
}
