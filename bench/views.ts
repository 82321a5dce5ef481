/**
 * `npm run bench:views`: the list and triage views of `server/fleet/fleet-views.ts` over an in-process fleet
 * of 100,000 DTOs (50 clusters × 2,000, BENCH_CLUSTERS / BENCH_HPAS), one request at a time, with 0, 5 and
 * 50 changes to the fleet between two requests (the simulator's churn is ~650 status changes a second, a
 * few per request), and the same requests answered the way they were before (filter, sort and group the
 * whole fleet whenever it changed). No HTTP, no watch: what one request costs the event loop.
 * Prints p50/p99 of wall time and of the process's CPU time (steadier on a shared machine); never asserts. BENCH_BEFORE=0 leaves out the slow "before" lines.
 */
import { performance } from 'node:perf_hooks';
import type { Autoscaler, AutoscalerFilter, AutoscalerQuery, Health } from '@/lib/api';
import { toAutoscalerId } from '@/lib/api/autoscaler';
import { groupProblems } from '@/lib/triage';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import type { DtoChange } from '@/server/fleet/change-journal';
import { ChangeJournal } from '@/server/fleet/change-journal';
import type { ViewSource } from '@/server/fleet/fleet-views';
import { FleetViews } from '@/server/fleet/fleet-views';
import { decodeCursor, encodeCursor, indexAfter, matchesFilter, sortAutoscalers } from '@/server/fleet/query';
import type { AccessScope } from '@/lib/access';
import { canSeeAutoscaler, fullAccess, scopeFor } from '@/lib/access';

const clusters = Number(process.env.BENCH_CLUSTERS ?? 50);
const perCluster = Number(process.env.BENCH_HPAS ?? 2000);
const requests = Number(process.env.BENCH_REQUESTS ?? 400);

/** The DTOs and the journal, as FleetIndex keeps them. */
class MemoryFleet implements ViewSource {
  readonly dtos = new Map<string, Autoscaler>();
  private readonly journal = new ChangeJournal();
  private ids: string[] | null = null;
  private readonly byCluster = new Map<string, string[]>();
  private readonly clusters = new Set<string>();

  get version(): number {
    return this.journal.version;
  }

  get size(): number {
    return this.dtos.size;
  }

  set(a: Autoscaler): void {
    const old = this.dtos.get(a.id) ?? null;
    if (!old) {
      this.ids = null;
      this.clusters.add(a.cluster);
      this.byCluster.delete(a.cluster);
    }
    this.dtos.set(a.id, a);
    this.journal.record(a.cluster, old, a, this.dtos.size);
  }

  changesSince(revision: number): readonly DtoChange[] | null {
    return this.journal.changesSince(revision);
  }

  releaseChanges(revision: number): void {
    this.journal.release(revision);
  }

  dtosInIdOrder(): Autoscaler[] {
    this.ids ??= [...this.dtos.keys()].sort();
    return this.ids.map((id) => this.dtos.get(id) as Autoscaler);
  }

  dtosOfCluster(cluster: string): Autoscaler[] {
    let ids = this.byCluster.get(cluster);
    if (!ids) {
      ids = [...this.dtos.values()]
        .filter((a) => a.cluster === cluster)
        .map((a) => a.id)
        .sort();
      this.byCluster.set(cluster, ids);
    }
    return ids.map((id) => this.dtos.get(id) as Autoscaler);
  }

  clusterNames(): string[] {
    return [...this.clusters].sort();
  }

  clusterVersion(cluster: string): number {
    return this.journal.clusterVersion(cluster);
  }
}

/** The fixture fleet's autoscalers copied into `bench-NNN` clusters, named like the simulator's (`svc-0001`). */
function generate(): Autoscaler[] {
  const templates = fleet();
  const out: Autoscaler[] = [];
  for (let c = 0; c < clusters; c++) {
    const cluster = `bench-${String(c).padStart(3, '0')}`;
    for (let i = 0; i < perCluster; i++) {
      const t = templates[(c * perCluster + i) % templates.length] as Autoscaler;
      const namespace = `team-${String(i % 40).padStart(2, '0')}`;
      const name = `svc-${String(i).padStart(4, '0')}`;
      out.push({ ...t, cluster, namespace, name, id: toAutoscalerId(cluster, t.kind, namespace, name) });
    }
  }
  return out;
}

const healths: Health[] = ['failing', 'degraded', 'unknown', 'ok'];
let tick = 0;

/** One status change: a random autoscaler gets a new DTO with other replicas, health and problem time. */
function churn(source: MemoryFleet, all: Autoscaler[], n: number): void {
  for (let i = 0; i < n; i++) {
    tick += 1;
    const a = all[Math.floor(Math.random() * all.length)] as Autoscaler;
    const now = source.dtos.get(a.id) ?? a;
    const since = new Date(Date.UTC(2026, 10, 20) + tick * 1000).toISOString();
    source.set({
      ...now,
      currentReplicas: (now.currentReplicas ?? 0) + 1,
      health: healths[tick % 4] as Health,
      problems: now.problems.map((p) => ({ ...p, since })),
    });
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function measure(label: string, source: MemoryFleet, all: Autoscaler[], changes: number, run: (i: number) => void, count = requests): void {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < count; i++) {
    churn(source, all, changes);
    const t = performance.now();
    const c = process.cpuUsage();
    run(i);
    const used = process.cpuUsage(c);
    times.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const ms = (v: number): string => v.toFixed(2).padStart(7);
  console.info(
    `  ${label.padEnd(44)} p50 ${ms(percentile(times, 50))} ms   p99 ${ms(percentile(times, 99))} ms   (CPU p50 ${ms(percentile(cpu, 50))} ms, p99 ${ms(percentile(cpu, 99))} ms)`,
  );
}

const queries: AutoscalerQuery[] = [
  { sort: 'health', limit: 100 },
  { health: ['failing'], sort: 'health', limit: 100 },
  { cluster: ['bench-007'], sort: 'name', limit: 100 },
  { q: 'svc-001', sort: 'health', limit: 100 },
  { sort: 'namespace', order: 'desc', limit: 100 },
];
const triages: AutoscalerFilter[] = [{}, { cluster: ['bench-002'] }];

/**
 * Two teams' scopes as a policy file grants them: a quarter of the namespaces in every cluster (`team-0*`), and every
 * namespace of a fifth of the clusters (`bench-00*`, with BENCH_CLUSTERS=50).
 */
const someone = { subject: 'someone', name: 'someone', email: null, groups: [] };
const scopes: AccessScope[] = [
  scopeFor({ defaultRole: 'none', rules: [{ users: ['someone'], groups: [], clusters: ['*'], namespaces: ['team-0*'] }] }, someone),
  scopeFor({ defaultRole: 'none', rules: [{ users: ['someone'], groups: [], clusters: ['bench-00*'], namespaces: ['*'] }] }, someone),
];

/** The first page and the page after it (through the first page's cursor), as the list service reads them. */
function twoPages(views: FleetViews, q: AutoscalerQuery, scope: AccessScope = fullAccess): void {
  const first = views.page(q, q.sort, q.order, q.limit, undefined, scope);
  const last = first.items[first.items.length - 1];
  if (!last || !first.more) return;
  const cursor = decodeCursor(encodeCursor(last, q.sort, q.order), q.sort, q.order);
  if (cursor.ok) views.page(q, q.sort, q.order, q.limit, cursor.after, scope);
}

/** The way a list request was answered before (and a scoped viewer's until 2026-11-28): filter the fleet in id order, sort it, find the cursor. */
function twoPagesBefore(source: MemoryFleet, q: AutoscalerQuery, scope: AccessScope = fullAccess): void {
  const view = sortAutoscalers(
    source.dtosInIdOrder().filter((a) => canSeeAutoscaler(scope, a) && matchesFilter(a, q)),
    q.sort,
    q.order,
  );
  const last = view.slice(0, q.limit).at(-1);
  if (!last) return;
  const cursor = decodeCursor(encodeCursor(last, q.sort, q.order), q.sort, q.order);
  if (cursor.ok) view.slice(indexAfter(view, cursor.after), q.limit);
}

function main(): void {
  const all = generate();
  const source = new MemoryFleet();
  for (const a of all) source.set(a);
  const views = new FleetViews(source);
  console.info(`views: ${source.size} autoscalers in ${clusters} clusters, ${requests} requests per line (two pages each for the list)\n`);
  const t = performance.now();
  for (const q of queries) twoPages(views, q);
  for (const f of triages) views.triage(f, Date.now());
  console.info(`  first requests (every order and tally built) ${(performance.now() - t).toFixed(0)} ms\n`);
  for (const changes of [0, 5, 50]) {
    console.info(`${changes} changes between two requests`);
    measure('list (5 filter/sort mixes, page 1 and 2)', source, all, changes, (i) =>
      twoPages(views, queries[i % queries.length] as AutoscalerQuery),
    );
    measure('triage (whole fleet, one cluster)', source, all, changes, (i) =>
      views.triage(triages[i % triages.length] as AutoscalerFilter, Date.now()),
    );
  }
  // A signed-in person with a policy's scope: the same mixes through a set kept for their scope (two scopes in turn).
  const firstScoped = performance.now();
  for (const scope of scopes) {
    for (const q of queries) twoPages(views, q, scope);
    for (const f of triages) views.triage(f, Date.now(), scope);
  }
  console.info(
    `\nscoped viewers (two teams' scopes in turn), 5 changes between two requests; first requests (each set and tally built) ${(performance.now() - firstScoped).toFixed(0)} ms`,
  );
  measure('list (5 mixes, page 1 and 2)', source, all, 5, (i) =>
    twoPages(views, queries[i % queries.length] as AutoscalerQuery, scopes[i % scopes.length]),
  );
  measure('triage (whole fleet, one cluster)', source, all, 5, (i) =>
    views.triage(triages[i % triages.length] as AutoscalerFilter, Date.now(), scopes[i % scopes.length]),
  );
  if (process.env.BENCH_BEFORE === '0') return;
  console.info('\nbefore (filter, sort and group the whole fleet), 5 changes between two requests');
  const before = Math.max(20, Math.floor(requests / 10));
  measure(
    `list, ${before} requests`,
    source,
    all,
    5,
    (i) => twoPagesBefore(source, queries[i % queries.length] as AutoscalerQuery),
    before,
  );
  measure(
    `list, scoped viewers, ${before} requests`,
    source,
    all,
    5,
    (i) => twoPagesBefore(source, queries[i % queries.length] as AutoscalerQuery, scopes[i % scopes.length]),
    before,
  );
  measure(
    `triage, ${before} requests`,
    source,
    all,
    5,
    (i) =>
      groupProblems(
        source.dtosInIdOrder().filter((a) => matchesFilter(a, triages[i % triages.length] as AutoscalerFilter)),
        Date.now(),
      ),
    before,
  );
  const memory = process.memoryUsage();
  console.info(
    `\nheap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB (the fleet, its journal, ${queries.length} orders and the filtered sets; not collected first)`,
  );
}

main();
