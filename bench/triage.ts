/**
 * `npm run bench:triage`: `groupProblems` over 100,000 autoscalers (goal: median under 100 ms), the mappers
 * that build them, and, when bench/machine.ts exists, its `runMachineBench()`. Prints medians; never asserts.
 *
 * The fleet is the lib/triage fixtures (HPAs from three clusters, FederatedHPAs, MachineAutoscalers) copied
 * across 250 clusters and renamed, so problem messages, metrics and the outage rule are the real ones.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { toAutoscalerId } from '@/lib/api/autoscaler';
import type { Autoscaler } from '@/lib/api/autoscaler';
import { EU, fleet, FRESH, hpas, NOW, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { groupProblems } from '@/lib/triage/group-problems';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

const FLEET_SIZE = 100_000;
const CLUSTERS = 250;
const WARMUP = 5;
const RUNS = 30;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(runs: number, run: () => unknown): number[] {
  for (let i = 0; i < WARMUP; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** 100,000 DTOs: the fixture fleet's autoscalers, each copy in its own cluster and namespace. */
function generateFleet(): Autoscaler[] {
  const base = fleet();
  const out: Autoscaler[] = [];
  for (let i = 0; out.length < FLEET_SIZE; i++) {
    const template = base[i % base.length] as Autoscaler;
    const copy = Math.floor(i / base.length);
    // Copies of the staging cluster keep their outage; the others spread over the remaining clusters.
    const cluster = template.cluster === STAGING ? `staging-${copy % 20}` : `${template.cluster.slice(0, 24)}-${copy % CLUSTERS}`;
    const namespace = `${template.namespace}-${copy % 400}`;
    const name = `${template.name}-${copy}`;
    out.push({ ...template, cluster, namespace, name, id: toAutoscalerId(cluster, template.kind, namespace, name) });
  }
  return out;
}

async function main(): Promise<void> {
  const autoscalers = generateFleet();
  const problems = autoscalers.reduce((n, a) => n + a.problems.length, 0);
  const groups = groupProblems(autoscalers, NOW);
  console.log(
    `triage: ${autoscalers.length} autoscalers, ${problems} problems, ${groups.length} groups, ${groups.filter((g) => g.likelyCause).length} with a likely cause`,
  );
  const grouping = median(time(RUNS, () => groupProblems(autoscalers, NOW)));
  console.log(`  groupProblems (100,000 autoscalers):   median ${grouping.toFixed(1)} ms (goal < 100 ms, ${RUNS} runs)`);

  const objects = [EU, US, STAGING].flatMap((cluster) => hpas(cluster).map((h) => ({ cluster, h })));
  const mapping = median(time(RUNS, () => objects.map(({ cluster, h }) => toHpaAutoscaler(cluster, h, FRESH, NOW))));
  const perHpaUs = (mapping * 1000) / objects.length;
  console.log(
    `  toHpaAutoscaler:                       median ${perHpaUs.toFixed(1)} µs per HPA (${objects.length} fixture HPAs, managedFields and all)`,
  );

  const here = path.dirname(fileURLToPath(import.meta.url));
  if (existsSync(path.join(here, 'machine.ts'))) {
    const machine = (await import('./machine')) as { runMachineBench?: () => Promise<{ medianMs: number; p99Ms: number }> };
    if (machine.runMachineBench) {
      const { medianMs, p99Ms } = await machine.runMachineBench();
      console.log(`machine: assessMachineAutoscalers (bench/machine.ts): median ${medianMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
