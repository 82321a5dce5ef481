/**
 * `npm run bench:federation`: medians for Karmada's Webster divider and the scheduler's replica assignment at
 * fleet scale. Prints numbers; never asserts them (bench/README.md). Target: each median under 5 ms.
 */
import { performance } from 'node:perf_hooks';

import type { AssignReplicasInput, WebsterSeatsInput } from '@/lib/api/federation';
import { allocateWebsterSeats, assignReplicas, previewInitialAssignment } from '@/lib/federation';

const WARMUP_RUNS = 20;
const MEASURED_RUNS = 200;

/** A deterministic pseudo-random sequence (mulberry32), so every run benchmarks the same inputs. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function measure(name: string, run: () => unknown): void {
  for (let i = 0; i < WARMUP_RUNS; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
  console.log(
    `${name.padEnd(58)} median ${fmt(percentile(samples, 0.5))}  p90 ${fmt(percentile(samples, 0.9))}  max ${fmt(samples[samples.length - 1] ?? Number.NaN)}  (n=${MEASURED_RUNS})`,
  );
}

const random = sequence(42);
const clusterNames = Array.from({ length: 1000 }, (_, i) => `member-${String(i).padStart(4, '0')}`);

const websterInput: WebsterSeatsInput = {
  newSeats: 10_000,
  votes: Object.fromEntries(clusterNames.map((name) => [name, 1 + Math.floor(random() * 500)])),
  uid: 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c',
};
const websterWithInitial: WebsterSeatsInput = {
  ...websterInput,
  initial: Object.fromEntries(clusterNames.slice(0, 500).map((name) => [name, Math.floor(random() * 20)])),
};

const candidates = clusterNames.map((name) => ({
  name,
  staticWeight: 1 + Math.floor(random() * 10),
  allocatableReplicas: 5 + Math.floor(random() * 50),
}));
const previous = clusterNames.slice(0, 600).map((name) => ({ name, replicas: 1 + Math.floor(random() * 5) }));
const assignBase = { candidates, previousClusters: previous, uid: '4858ca61-3ff8-4095-8267-f3d059d8074c' };
const assignCases: [string, AssignReplicasInput][] = [
  ['assignReplicas StaticWeight, 1,000 candidates, 10,000 replicas', { ...assignBase, strategy: 'StaticWeight', replicas: 10_000 }],
  ['assignReplicas DynamicWeight scale-up, 1,000 candidates', { ...assignBase, strategy: 'DynamicWeight', replicas: 10_000 }],
  ['assignReplicas DynamicWeight scale-down, 1,000 candidates', { ...assignBase, strategy: 'DynamicWeight', replicas: 900 }],
  ['assignReplicas Aggregated scale-up, 1,000 candidates', { ...assignBase, strategy: 'Aggregated', replicas: 10_000 }],
  [
    'assignReplicas StaticWeight legacy (v1.8), 1,000 candidates',
    { ...assignBase, strategy: 'StaticWeight', replicas: 10_000, divider: 'legacy' },
  ],
];

console.log(`Node ${process.version}, ${MEASURED_RUNS} measured runs after ${WARMUP_RUNS} warm-up runs each.`);
measure('allocateWebsterSeats 1,000 clusters × 10,000 seats', () => allocateWebsterSeats(websterInput));
measure('allocateWebsterSeats 1,000 clusters × 10,000 seats, initial', () => allocateWebsterSeats(websterWithInitial));
for (const [name, input] of assignCases) measure(name, () => assignReplicas(input));
measure('previewInitialAssignment StaticWeighted, 1,000 clusters', () =>
  previewInitialAssignment({
    policy: 'StaticWeighted',
    federatedMinReplicas: 1_000,
    federatedMaxReplicas: 10_000,
    scaleToZero: true,
    clusters: candidates.map(({ name, staticWeight }) => ({ name, staticWeight })),
    previousBinding: previous,
  }),
);
