/**
 * `npm run bench:heap`: where the BFF's heap goes, per autoscaler, in the process production runs. The simulator on
 * BENCH_CLUSTERS × BENCH_HPAS (10 × 2,000: a 20,000-HPA snapshot is ~210 MiB, and this reader takes up to 512 MiB),
 * the BFF (`scripts/serve.mjs`) synced on it, 20 s of the simulator's churn and the fleet bench's request mix, a full
 * GC, then a heap snapshot (`--heapsnapshot-signal`). Prints the bytes each part of the index retains — the DTOs, the
 * objects held (an HPA's as JSON bytes outside the heap: `external` beside the heap figure), the index's own structures, the history recorder, the informer caches — per autoscaler, what the
 * largest are made of, and the snapshot's path (open it in Chrome DevTools' Memory tab). `npm run bench:memory` is
 * the in-process counterpart without the simulator. A benchmark, not a test: it prints and asserts nothing.
 */
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchAllocator,
  bffMetrics,
  buildForBench,
  getJson,
  heapSnapshotWritten,
  removeBenchData,
  startBff,
  startGeneratedFleet,
  stopAllAndWait,
  waitForIndex,
} from './fleet-runner';
import { HeapSnapshot } from './heap-snapshot';

const clusters = Number(process.env.BENCH_CLUSTERS ?? 10);
const hpas = Number(process.env.BENCH_HPAS ?? 2000);
const port = Number(process.env.BENCH_PORT ?? 3193);
const base = `http://127.0.0.1:${port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'autoscope-heap-'));
  console.info(`fleet: ${clusters} clusters × ${hpas} HPAs; files in ${dir}`);
  console.info(`allocator: ${benchAllocator().label}`);
  const sim = await startGeneratedFleet({ clusters, hpas, speed: 1, dataDir: path.join(dir, 'sim') });
  buildForBench();
  const bff = await startBff({
    port,
    kubeconfig: sim.kubeconfig,
    dataDir: path.join(dir, 'bff'),
    nodeArgs: ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`],
  });
  await waitForIndex(base, clusters * hpas);
  await sleep(20_000);
  for (const query of [
    'autoscalers?limit=100',
    'autoscalers?health=failing&limit=100',
    'autoscalers?cluster=bench-001&sort=name&limit=100',
    'autoscalers?q=svc-001&limit=100',
    'triage',
    'triage?cluster=bench-001',
  ])
    await getJson(`${base}/api/v1/${query}`);
  // gc=1 (allowed by AUTOSCOPE_STATS_GC, set by startBff): a full collection first, so the snapshot holds live objects only.
  const stats = await getJson<{ autoscalers: number; heapUsedBytes: number; rssBytes: number }>(`${base}/api/v1/stats?gc=1`);
  const n = stats.autoscalers;
  const kib = (bytes: number) => `${(bytes / n / 1024).toFixed(2)} KiB`;
  // The HPAs' JSON bytes (`HeldJson`) are outside V8's heap: prom-client's process metrics say how much is.
  const metrics = await bffMetrics();
  const external = Number(/^nodejs_external_memory_bytes (\S+)/m.exec(metrics)?.[1] ?? NaN);
  console.info(
    `BFF after a full GC: heap ${(stats.heapUsedBytes / 2 ** 20).toFixed(0)} MiB (${kib(stats.heapUsedBytes)} an autoscaler), external ${(external / 2 ** 20).toFixed(0)} MiB (${kib(external)}), RSS ${(stats.rssBytes / 2 ** 20).toFixed(0)} MiB`,
  );
  const file = await heapSnapshotWritten(bff, dir);
  await stopAllAndWait();
  // The snapshot stays, to open in DevTools; the simulator's and the BFF's files go.
  removeBenchData(dir, [file]);
  console.info(`heap snapshot: ${file} (${(statSync(file).size / 2 ** 20).toFixed(0)} MiB)`);

  const heap = HeapSnapshot.read(file);
  const total = heap.totalSize();
  const one = (names: string[]): number[] => heap.objectsWith(names).slice(0, 1);
  const entries = heap.objectsWith(['dto', 'held', 'related']);
  const index = one(['entries', 'byCluster', 'pendingClusterWork']);
  const indexField = (name: string): number[] => index.flatMap((v) => heap.properties(v).get(name) ?? []);
  const recorder = one(['known', 'times', 'clusterStates']);
  const informers = heap.objectsWith(['objects', 'indexCache', 'callbackCache']);
  const parts: [string, number[]][] = [
    ['DTOs (the index entries’ `dto`)', entries.flatMap((v) => heap.properties(v).get('dto') ?? [])],
    [
      'objects held (`held`: an HPA as JSON bytes, whose backing store is outside the heap; any other kind the informer cache’s object)',
      entries.flatMap((v) => heap.properties(v).get('held') ?? []),
    ],
    ['index entries themselves', entries],
    ['index: the entries Map', indexField('entries')],
    ['index: change journal (replaced DTOs)', indexField('journal')],
    ['index: string pool', indexField('strings')],
    ['history recorder', recorder],
    ['informer caches (ListWatch: Maps, Events)', informers],
  ];
  console.info(`\nsnapshot: ${(total / 2 ** 20).toFixed(1)} MiB in ${heap.count} nodes; ${entries.length} index entries`);
  console.info('retained, per autoscaler (what would be freed without it; strings two parts share count in neither):');
  const found = parts.filter(([, set]) => set.length > 0);
  for (const [name, set] of found) console.info(`  ${kib(heap.retained(set)).padStart(10)}  ${name}`);
  for (const [name] of parts.filter(([, set]) => set.length === 0)) console.info(`  (not found in this snapshot: ${name})`);
  const everything = heap.retained(found.flatMap(([, set]) => set));
  console.info(`  ${kib(everything).padStart(10)}  all of the above together`);
  console.info(
    `  ${kib(total - everything).padStart(10)}  the rest (code, Next.js, module sources, kept views: mostly fixed, ${((total - everything) / 2 ** 20).toFixed(0)} MiB)`,
  );
  for (const [name, set] of found.slice(0, 2)) {
    console.info(`\n${name}, by property path (bytes per autoscaler, objects per autoscaler):`);
    for (const row of heap.composition(set, 12))
      console.info(`  ${(row.bytes / n).toFixed(0).padStart(6)} B ${(row.count / n).toFixed(2).padStart(6)}  ${row.path}`);
  }
}

main()
  .then(() => process.exit(0))
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
