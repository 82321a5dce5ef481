import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as clustersRoute from '@/app/api/v1/clusters/route';
import * as triageRoute from '@/app/api/v1/triage/route';
import * as detailRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/route';
import { loadConnections } from '@/server/clusters/connections';
import { registerCollectors } from '@/server/metrics/collectors';
import { startMetricsServer } from '@/server/metrics/metrics-server';
import { getMetrics } from '@/server/metrics/registry';
import { Autoscope, installAutoscope } from '@/server/runtime';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import { freePort } from '../support/free-port';
import { until } from './until';

/**
 * The metrics endpoint against the simulated fleet, checked by the real Prometheus tools: `promtool check
 * metrics` lints the exposition, and a `prometheus` server scrapes the endpoint and answers a query.
 * Debian's `prometheus` package provides both (`.ci/run` installs it where missing).
 */
let world: World;
let app: Autoscope;
let metricsServer: http.Server;
let metricsUrl: string;
const scratch: string[] = [];
const children: ChildProcess[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

async function scrape(): Promise<string> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, e.g. `autoscope_cluster_state{cluster="a",state="synced"}`; labels in the exposition's order. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function samplesOf(text: string, name: string): { labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => {
      const at = l.lastIndexOf(' ');
      return { labels: l.slice(name.length, at), value: Number(l.slice(at + 1)) };
    });
}

/** Autoscope's alerting rules and their promtool unit tests (deploy/monitoring). */
const rulesFile = path.resolve('deploy/monitoring/autoscope.rules.yaml');
const rulesTests = path.resolve('deploy/monitoring/autoscope.rules.test.yaml');
/** How many alerts the rule file defines: promtool and Prometheus must each find them all. */
const alertCount = (readFileSync(rulesFile, 'utf8').match(/^\s+- alert: /gm) ?? []).length;

function requireTool(name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (found.status !== 0)
    throw new Error(`${name} is not installed: apt-get install -y --no-install-recommends prometheus (.ci/run does it)`);
  return found.stdout.trim();
}

beforeAll(async () => {
  world = await startSimulator({ scenario: 'demo', speed: 20, dataDir: tempDir('metrics-sim-') });
  app = new Autoscope(
    { dataDir: tempDir('metrics-data-'), retentionDays: 30 },
    loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }),
  );
  installAutoscope(app);
  const { registry } = getMetrics();
  registerCollectors(registry, () => app);
  metricsServer = await startMetricsServer(registry, '127.0.0.1', 0);
  metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
  await until(
    () => app.clusterStatuses(),
    (s) => s.length === 7 && s.every((c) => c.state === 'synced'),
    60_000,
  );
});

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
  await app.stop();
  installAutoscope(undefined);
  await world.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the metrics endpoint', () => {
  it('reports each cluster’s state, sync age and objects, and autoscalers by kind and health that add up to the index', async () => {
    const text = await scrape();
    expect(sample(text, 'autoscope_cluster_state{cluster="prod-eu-west-1",state="synced"}')).toBe(1);
    expect(sample(text, 'autoscope_cluster_state{cluster="prod-eu-west-1",state="unreachable"}')).toBe(0);
    expect(sample(text, 'autoscope_cluster_state{cluster="karmada-global/member-eu",state="synced"}')).toBe(1);
    const age = sample(text, 'autoscope_cluster_last_sync_age_seconds{cluster="ocp-prod-east"}');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
    expect(sample(text, 'autoscope_watched_objects{cluster="prod-eu-west-1",resource="hpas"}')).toBe(29);
    // HPA Events are filed as they come and not cached: counted from the list and the watch, as many as the cluster
    // holds (read from it at about the same moment: the simulator's controller keeps writing Events).
    const cluster = loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }).connections.find((c) => c.name === 'prod-eu-west-1');
    const served = async () =>
      (
        await cluster?.client.get<{ items: unknown[] }>('/api/v1/events', {
          query: { fieldSelector: 'involvedObject.kind=HorizontalPodAutoscaler' },
        })
      )?.items.length ?? -1;
    const counted = async () => sample(await scrape(), 'autoscope_watched_objects{cluster="prod-eu-west-1",resource="hpaEvents"}');
    await until(
      async () => [await counted(), await served(), await counted()],
      ([before, onCluster, after]) => (onCluster ?? 0) > 0 && before === onCluster && after === onCluster,
      30_000,
    );
    expect(sample(text, 'autoscope_autoscalers{cluster="ocp-prod-east",kind="MachineAutoscaler",health="ok"}')).toBeGreaterThan(0);
    const byKindHealth = samplesOf(text, 'autoscope_autoscalers');
    expect(byKindHealth.reduce((n, s) => n + s.value, 0)).toBe(sample(text, 'autoscope_index_entries'));
    expect(sample(text, 'autoscope_index_entries')).toBe(app.index.entries.size);
    // The HPAs' objects held outside the heap, as JSON or deflated: the demo fleet's HPAs are some.
    const held = samplesOf(text, 'autoscope_index_held_bytes');
    expect(held.map((h) => h.labels).sort()).toEqual(['{form="deflated"}', '{form="json"}']);
    expect(held.reduce((n, h) => n + h.value, 0)).toBeGreaterThan(0);
    // The worker threads' busy time, by thread: the history writer has written this fleet's first sights.
    expect(
      samplesOf(text, 'autoscope_thread_busy_seconds_total')
        .map((b) => b.labels)
        .sort(),
    ).toEqual(['{thread="held-compressor"}', '{thread="history-writer"}', '{thread="wal-checkpointer"}']);
    expect(sample(text, 'autoscope_thread_busy_seconds_total{thread="history-writer"}')).toBeGreaterThan(0);
    // The cold start's first sights, deferred until the index was whole: all written once it is (readiness).
    await until(
      async () => [app.isReady(), sample(await scrape(), 'autoscope_history_deferred_first_sights')] as const,
      ([ready, deferred]) => ready && deferred === 0,
      30_000,
    );
    const [someHpa] = app.index.entries.keys();
    expect(await app.history.countTransitions(someHpa ?? '')).toBeGreaterThan(0);
    // Versions waiting for the compressor thread: a count, there even when none wait.
    expect(sample(text, 'autoscope_index_held_waiting')).toBeGreaterThanOrEqual(0);
    // All but the dictionary's first few samples are deflated.
    expect(sample(text, 'autoscope_index_held_bytes{form="deflated"}')).toBeGreaterThan(0);
    // Packed into slabs: at least the deflated bytes, and whole slabs of them.
    const slabs = sample(text, 'autoscope_index_held_slab_bytes') ?? NaN;
    expect(slabs).toBeGreaterThanOrEqual(sample(text, 'autoscope_index_held_bytes{form="deflated"}') ?? Infinity);
    expect(slabs % 2 ** 20).toBe(0);
    expect(text).toMatch(
      new RegExp(
        `^autoscope_build_info\\{version="\\d+\\.\\d+\\.\\d+",node_version="${process.versions.node.replace(/\./g, '\\.')}"\\} 1$`,
        'm',
      ),
    );
    // The compaction windows' counter is exposed before any window (this fleet's heap is too small to open one).
    expect(text).toMatch(/^# TYPE autoscope_v8_compaction_windows_total counter$/m);
    // Bounded labels: no autoscaler's name in any series.
    expect(text).not.toMatch(/name="/);
    // Watch events, per cluster: the simulator's controller keeps writing statuses, so the fleet's sum grows.
    const events = (t: string) => samplesOf(t, 'autoscope_watch_events_total').reduce((n, e) => n + e.value, 0);
    expect(samplesOf(text, 'autoscope_watch_events_total')).toHaveLength(7);
    const first = events(text);
    await until(scrape, (t) => events(t) > first, 30_000);
  });

  it('counts answers made and answers shared by identical reads', async () => {
    const counts = (t: string) => ({
      made: sample(t, 'autoscope_http_shared_answers_total{outcome="made"}') ?? -1,
      shared: sample(t, 'autoscope_http_shared_answers_total{outcome="shared"}') ?? -1,
    });
    const before = counts(await scrape());
    expect(before.made).toBeGreaterThanOrEqual(0);
    // Five identical reads at once: the first makes the answer, the others share it (no stream message between them).
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        triageRoute.GET(new NextRequest('http://localhost/api/v1/triage?health=failing'), { params: Promise.resolve({}) }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    const after = counts(await scrape());
    expect(after.made).toBe(before.made + 1);
    expect(after.shared).toBe(before.shared + 4);
  });

  // A relist needs a 410 Gone (a resumed watch needs none); server/watch/informer.test.ts covers when it happens.
  it('counts watch restarts when a cluster goes down, and reports relists for every cluster', async () => {
    const before = await scrape();
    const restarts = sample(before, 'autoscope_watch_restarts_total{cluster="ocp-prod-east"}') ?? -1;
    const relists = sample(before, 'autoscope_watch_relists_total{cluster="ocp-prod-east"}') ?? -1;
    const streams = sample(before, 'autoscope_watch_streams_total{cluster="ocp-prod-east"}') ?? -1;
    expect(restarts).toBeGreaterThanOrEqual(0);
    // One watch per resource at least (an OpenShift cluster's: HPAs, MachineAutoscalers, MachineSets, events, …).
    expect(streams).toBeGreaterThanOrEqual(4);
    await world.fleet.setFaults('ocp-prod-east', { down: true });
    const down = await until(
      scrape,
      (t) => sample(t, 'autoscope_cluster_state{cluster="ocp-prod-east",state="unreachable"}') === 1,
      60_000,
    );
    expect(sample(down, 'autoscope_watch_restarts_total{cluster="ocp-prod-east"}')).toBeGreaterThan(restarts);
    await world.fleet.clearFaults('ocp-prod-east');
    const back = await until(scrape, (t) => sample(t, 'autoscope_cluster_state{cluster="ocp-prod-east",state="synced"}') === 1, 60_000);
    expect(sample(back, 'autoscope_watch_relists_total{cluster="ocp-prod-east"}')).toBeGreaterThanOrEqual(relists);
    // Back, every resource watches again.
    expect(sample(back, 'autoscope_watch_streams_total{cluster="ocp-prod-east"}')).toBeGreaterThanOrEqual(streams + 4);
    for (const c of app.clusterStatuses())
      expect(sample(back, `autoscope_cluster_probes_total{cluster="${c.name}"}`)).toBeGreaterThanOrEqual(0);
    expect(
      samplesOf(back, 'autoscope_watch_relists_total')
        .map((s) => s.labels)
        .sort(),
    ).toEqual(
      app
        .clusterStatuses()
        .map((c) => `{cluster="${c.name}"}`)
        .sort(),
    );
  }, 150_000);

  it('observes API requests by route pattern and status, and history writes', async () => {
    const res = await clustersRoute.GET(new NextRequest('http://autoscope.test/api/v1/clusters'), {});
    expect(res.status).toBe(200);
    const missing = await detailRoute.GET(
      new NextRequest('http://autoscope.test/api/v1/autoscalers/prod-eu-west-1/HorizontalPodAutoscaler/shop/no-such-hpa'),
      {
        params: Promise.resolve({ cluster: 'prod-eu-west-1', kind: 'HorizontalPodAutoscaler', namespace: 'shop', name: 'no-such-hpa' }),
      },
    );
    expect(missing.status).toBe(404);
    const text = await until(scrape, (t) => (sample(t, 'autoscope_history_write_duration_seconds_count') ?? 0) > 0);
    expect(
      sample(text, 'autoscope_http_request_duration_seconds_count{method="GET",route="/api/v1/clusters",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'autoscope_http_request_duration_seconds_count{method="GET",route="/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]",status="404"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('no-such-hpa');
    expect(sample(text, 'autoscope_history_database_size_bytes')).toBeGreaterThan(0);
  });

  it('passes promtool check metrics (save three of prom-client’s own Node.js gauges)', async () => {
    const promtool = requireTool('promtool');
    const text = await scrape();
    const result = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    const problems = `${result.stdout}${result.stderr}`.trim().split('\n').filter(Boolean);
    // prom-client 15's default metrics name three gauges `*_total`, which promtool's lint rejects; they are
    // its names, not ours, and dashboards use them as they are. Everything else must pass.
    const promClientGauges = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];
    expect(problems).toEqual(promClientGauges.map((name) => `${name} non-counter metrics should not have "_total" suffix`));
    // The same exposition without those three passes with exit 0.
    const ours = text
      .split('\n')
      .filter((l) => !promClientGauges.some((name) => l.includes(name)))
      .join('\n');
    const clean = spawnSync(promtool, ['check', 'metrics'], { input: ours, encoding: 'utf8' });
    expect(`${clean.stdout}${clean.stderr}`.trim()).toBe('');
    expect(clean.status).toBe(0);
  });

  it('ships alert rules promtool accepts, whose unit tests pass, and which name only metrics the BFF exposes', async () => {
    const promtool = requireTool('promtool');
    const check = spawnSync(promtool, ['check', 'rules', rulesFile], { encoding: 'utf8' });
    expect(alertCount).toBe(10);
    expect(`${check.stdout}${check.stderr}`).toMatch(new RegExp(`SUCCESS: ${alertCount} rules found`));
    expect(check.status).toBe(0);
    const unit = spawnSync(promtool, ['test', 'rules', path.basename(rulesTests)], { cwd: path.dirname(rulesTests), encoding: 'utf8' });
    expect(`${unit.stdout}${unit.stderr}`.trim()).toMatch(/SUCCESS$/);
    expect(unit.status).toBe(0);
    // A metric renamed in the code must not leave a rule watching nothing: each name a rule reads (a histogram's by its
    // `_bucket` series) is declared in the exposition, with or without samples yet.
    const exposed = new Set([...(await scrape()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    const named = [
      ...new Set((readFileSync(rulesFile, 'utf8').match(/autoscope_[a-z0-9_]+/g) ?? []).map((n) => n.replace(/_bucket$/, ''))),
    ];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('is scraped by a real Prometheus, which answers a query for an autoscope_* metric and evaluates the alerting rules', async () => {
    const prometheus = requireTool('prometheus');
    const dir = tempDir('metrics-prom-');
    const target = new URL(metricsUrl).host;
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        `  - ${rulesFile}`,
        'scrape_configs:',
        '  - job_name: autoscope',
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const output: string[] = [];
    const child = spawn(
      prometheus,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    const query = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
        const body = (await res.json()) as {
          status: string;
          data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.status === 'success' ? (body.data?.result ?? []) : [];
      } catch {
        if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${output.join('').slice(-2000)}`);
        return [];
      }
    };
    const synced = await until(
      () => query('autoscope_cluster_state{state="synced"} == 1'),
      (r) => r.length === 7,
      90_000,
    );
    expect(synced.map((r) => r.metric.cluster).sort()).toEqual([
      'karmada-global',
      'karmada-global/member-ap',
      'karmada-global/member-eu',
      'karmada-global/member-us',
      'ocp-prod-east',
      'prod-eu-west-1',
      'prod-us-east-1',
    ]);
    expect(synced.every((r) => r.metric.job === 'autoscope' && r.metric.instance === target)).toBe(true);
    const scraped = Date.now();
    const up = await query('up{job="autoscope"}');
    expect(up.map((r) => r.value[1])).toEqual(['1']);
    // The alerting rules loaded and evaluated against what the BFF exposes, each without an error (a label match
    // that Prometheus refuses, a function misapplied, shows here as health "err").
    type Rule = { name: string; health: string; lastError?: string; lastEvaluation: string };
    const rules = await until(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/rules`);
        const body = (await res.json()) as { data?: { groups: { rules: Rule[] }[] } };
        return body.data?.groups.flatMap((g) => g.rules) ?? [];
      },
      // Evaluated since the scrapes above brought data (a first evaluation over no series has nothing to fail on).
      (r) => r.length === alertCount && r.every((rule) => Date.parse(`${rule.lastEvaluation.slice(0, 23)}Z`) > scraped),
      30_000,
    );
    expect(rules.map((r) => [r.name, r.health, r.lastError ?? ''])).toEqual(rules.map((r) => [r.name, 'ok', '']));
  });
});
