/**
 * `npm run bench:memory`: where the heap goes per autoscaler, in-process and without the simulator, so it is
 * fast and repeatable. Builds N HPAs (BENCH_CLUSTERS × BENCH_HPAS, default 50 × 2,000) the way the informers
 * hold them — each parsed from its own JSON text, as a watch event delivers it, slimmed by the informers' own
 * `slimObject` (managedFields and kubectl's last-applied-configuration dropped) — then
 * maps each to its DTO with `toHpaAutoscaler` and keeps what `FleetIndex` keeps per entry (the DTO and the object as
 * JSON bytes, `HeldJson`; before 2026-11-28 the parsed object itself, its strings shared). Reads the live heap after a full GC at
 * each step; prints KiB per autoscaler for the raw objects and the DTOs, and the goal (issue 18: ≤ 2 KiB heap).
 * Needs `--expose-gc` (the npm script passes it). A benchmark, not a test: it prints and asserts nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Autoscaler } from '@/lib/api';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import { HeldDictionary, HeldJson } from '@/server/fleet/held-object';
import { StringPool } from '@/server/fleet/string-pool';
import { slimObject } from '@/server/watch/informer';

const clusters = Number(process.env.BENCH_CLUSTERS ?? 50);
const perCluster = Number(process.env.BENCH_HPAS ?? 2000);
const n = clusters * perCluster;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:memory does)');

function liveHeap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const fixtures = ['prod-us', 'prod-eu-west-1', 'staging'].flatMap((f) => {
  const list = JSON.parse(readFileSync(path.join(__dirname, '..', 'lib', 'triage', '__fixtures__', `${f}.hpa.json`), 'utf8')) as {
    items: HorizontalPodAutoscaler[];
  };
  return list.items.map((item) => {
    // As the API serves them, managedFields included. The fixtures come from kubectl-applied HPAs (each has a
    // last-applied annotation); the simulator's carry an Argo CD tracking annotation instead. BENCH_ANNOTATIONS=1
    // keeps the fixtures' own.
    if (process.env.BENCH_ANNOTATIONS !== '1') {
      item.metadata.annotations = { 'argocd.argoproj.io/tracking-id': `${item.metadata.namespace}:autoscaling/HorizontalPodAutoscaler:x` };
    }
    // The metadata in the API server's order (ObjectMeta's fields; the fixtures' keys are sorted): where
    // managedFields sits decides what dropping it costs (informer.ts, slimObject).
    const { name, namespace, uid, resourceVersion, creationTimestamp, labels, annotations, managedFields, ...rest } = item.metadata;
    item.metadata = { name, namespace, uid, resourceVersion, creationTimestamp, labels, annotations, ...rest, managedFields };
    return JSON.stringify(item);
  });
});

const kib = (bytes: number): string => `${(bytes / 1024 / n).toFixed(2)} KiB`;
const now = '2026-11-24T12:00:00.000Z';

const base = liveHeap();
const clusterNames = Array.from({ length: clusters }, (_, c) => `cluster-${String(c).padStart(3, '0')}`);
const raws: { cluster: string; hpa: HorizontalPodAutoscaler }[] = [];
for (let c = 0; c < clusters; c++) {
  for (let i = 0; i < perCluster; i++) {
    const text = fixtures[i % fixtures.length] as string;
    // Each object its own annotation text, as each of the simulator's is.
    const parsed = JSON.parse(
      text.replace(':autoscaling/HorizontalPodAutoscaler:x', `:autoscaling/HorizontalPodAutoscaler:${c}-${i}`),
    ) as KubeObject;
    const hpa = slimObject(parsed) as HorizontalPodAutoscaler;
    hpa.metadata.name = `${hpa.metadata.name}-${i}`;
    hpa.metadata.namespace = `team-${i % 40}`;
    hpa.metadata.uid = `${c}-${i}-${hpa.metadata.uid ?? ''}`;
    raws.push({ cluster: clusterNames[c] as string, hpa });
  }
}
const afterRaw = liveHeap();

const dtos: Autoscaler[] = raws.map(({ cluster, hpa }) => toHpaAutoscaler(cluster, hpa, { stale: false }, now));
const afterDtos = liveHeap();

// What FleetIndex did with each object it was given before it kept HPAs as JSON (the mapper copies many strings
// of the raw object into the DTO, so the raw object went first): the raw objects' strings shared.
const pool = new StringPool();
const internStart = performance.now();
for (const { hpa } of raws) pool.internDeep(hpa);
const internRawMs = performance.now() - internStart;
const afterInternRaw = liveHeap();
for (const dto of dtos) pool.internDeep(dto);
const afterInternDtos = liveHeap();

// What it keeps now: each HPA as its JSON's bytes (`HeldJson`), deflated against a dictionary of the first few, the
// parsed object left to die; and, to compare, each as its plain JSON in an ArrayBuffer of its own (what HeldJson held
// before it deflated, and holds of the dictionary's samples).
const externalBefore = process.memoryUsage().external;
const plainStart = performance.now();
const plain = raws.map(({ hpa }) => {
  const json = Buffer.from(JSON.stringify(hpa), 'utf8');
  const own = new ArrayBuffer(json.length);
  new Uint8Array(own).set(json);
  return own;
});
const plainMs = performance.now() - plainStart;
liveHeap();
const plainExternal = process.memoryUsage().external - externalBefore;
plain.length = 0;
liveHeap();
const externalBeforeHeld = process.memoryUsage().external;
const heldStart = performance.now();
const dictionary = new HeldDictionary();
const held = raws.map(({ hpa }) => new HeldJson(hpa, dictionary));
const heldMs = performance.now() - heldStart;
const afterHeld = liveHeap();
const heldExternal = process.memoryUsage().external - externalBeforeHeld;
raws.length = 0;
const afterDropRaw = liveHeap();

const dtoJsonBytes = dtos.reduce((sum, d) => sum + Buffer.byteLength(JSON.stringify(d)), 0);
const rss = process.memoryUsage().rss;

console.info(`memory per autoscaler, ${n} HPAs in-process (${clusters} clusters × ${perCluster}), live heap after a full GC:`);
console.info(`  raw HPA objects (the informer cache; the index holds the same objects): ${kib(afterRaw - base)}`);
console.info(
  `  DTOs as mapped (toHpaAutoscaler):                                     ${kib(afterDtos - afterRaw)}  (their JSON: ${kib(dtoJsonBytes)})`,
);
console.info(
  `  saved by sharing the raw objects' equal strings (FleetIndex does):     ${kib(afterDtos - afterInternRaw)}  (${((internRawMs / n) * 1000).toFixed(1)} µs per object)`,
);
console.info(`  saved by sharing the DTOs' equal strings then (FleetIndex does):       ${kib(afterInternRaw - afterInternDtos)}`);
console.info(`  raw + shared DTOs (what the index held before 2026-11-28):             ${kib(afterInternDtos - base)}`);
console.info(
  `  HPAs as plain JSON bytes (as held before the dictionary): beside the heap ${kib(plainExternal)}  (${((plainMs / n) * 1000).toFixed(1)} µs per object)`,
);
console.info(
  `  HPAs deflated against a dictionary of the first few (HeldJson): heap ${kib(afterHeld - afterInternDtos)} + beside the heap ${kib(heldExternal)}  (${((heldMs / n) * 1000).toFixed(1)} µs per object)`,
);
console.info(
  `  total as the index holds it (deflated JSON bytes + shared DTOs): heap ${kib(afterDropRaw - base)} + beside ${kib(heldExternal)}  goal ≤ 2 KiB heap for the whole BFF`,
);
console.info(`  pooled strings: ${pool.size}; process RSS / n (runtime included): ${kib(rss)}  goal ≤ 6 KiB`);
// Keep everything reachable until the last reading.
if (held.length + dtos.length < 0) console.info('');
