import { describe, expect, it } from 'vitest';
import type { Health } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { EU, FRESH, hpa, hpas, NOW, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { SCALE_DOWN_STABILIZED_LONG_SECONDS } from '@/lib/triage/condition-meaning';
import { REPLICAS_MISMATCH_SECONDS } from '@/lib/triage/health-rules';
import type { MapperContext } from '@/lib/triage/mapper-context';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import type { HpaShapeMemo } from '@/lib/triage/to-hpa-autoscaler';

const NOW_MS = Date.parse(NOW);
const ago = (seconds: number): string => new Date(NOW_MS - seconds * 1000).toISOString();

function map(cluster: string, h: HorizontalPodAutoscaler, context: MapperContext = FRESH): ReturnType<typeof toHpaAutoscaler> {
  return toHpaAutoscaler(cluster, h, context, NOW);
}

function codes(cluster: string, h: HorizontalPodAutoscaler, context?: MapperContext): string[] {
  return map(cluster, h, context).problems.map((p) => p.code);
}

function edit(h: HorizontalPodAutoscaler, type: string, patch: Record<string, string>): HorizontalPodAutoscaler {
  const c = h.status?.conditions?.find((x) => x.type === type);
  if (!c) throw new Error(`${h.metadata.name} has no ${type}`);
  Object.assign(c, patch);
  return h;
}

describe('toHpaAutoscaler on every fixture HPA (health and problems)', () => {
  const table: [string, string, string, Health, string[]][] = [
    [EU, 'shop', 'web', 'ok', []],
    [EU, 'shop', 'checkout', 'degraded', ['TooManyReplicas']],
    [EU, 'shop', 'frontend', 'failing', ['FailedGetResourceMetric']],
    [EU, 'shop', 'images', 'failing', ['FailedGetResourceMetric']],
    [EU, 'payments', 'api', 'degraded', ['ScaleUpLimit']],
    [EU, 'payments', 'worker', 'degraded', ['ScaleDownLimit']],
    [EU, 'search', 'indexer', 'ok', []],
    [EU, 'search', 'query', 'ok', []],
    [EU, 'shop', 'legacy-batch', 'ok', ['ScalingDisabled']],
    [EU, 'shop', 'recommender', 'failing', ['FailedGetExternalMetric']],
    [EU, 'payments', 'ledger', 'failing', ['FailedUpdateScale']],
    [EU, 'search', 'suggest', 'failing', ['FailedGetPodsMetric']],
    [EU, 'search', 'crawler', 'failing', ['FailedGetObjectMetric']],
    [US, 'default', 'api', 'failing', ['FailedGetScale']],
    [US, 'default', 'gateway', 'failing', ['InvalidSelector']],
    [US, 'default', 'gateway-canary', 'failing', ['AmbiguousSelector']],
    [US, 'billing', 'invoicer', 'failing', ['FailedGetContainerResourceMetric']],
    [US, 'billing', 'reports', 'failing', ['InvalidMetricSourceType']],
    [US, 'billing', 'exporter', 'degraded', ['ReplicasMismatch']],
    [US, 'billing', 'pdf', 'ok', []],
    [US, 'default', 'legacy', 'ok', ['BackoffBoth']],
    [US, 'default', 'new-hpa', 'unknown', ['ConditionsAbsent']],
    [US, 'billing', 'ledger-sync', 'failing', ['FailedGetResourceMetric']],
    [US, 'billing', 'queue-worker', 'degraded', ['TooManyReplicas']],
    [US, 'billing', 'cron-helper', 'ok', []],
    [US, 'default', 'drain', 'ok', []],
    [US, 'default', 'drain-fast', 'ok', []],
    [STAGING, 'web', 'frontend', 'failing', ['FailedGetResourceMetric']],
    [STAGING, 'jobs', 'worker', 'failing', ['FailedGetContainerResourceMetric']],
    [STAGING, 'jobs', 'queue-consumer', 'degraded', ['TooManyReplicas']],
  ];

  it.each(table)('%s %s/%s → %s %j', (cluster, namespace, name, health, expected) => {
    const a = map(cluster, hpa(cluster, namespace, name));
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(expected);
  });

  it('covers every HPA in the fixtures', () => {
    const listed = new Set(table.map(([c, ns, n]) => `${c}/${ns}/${n}`));
    const all = [EU, US, STAGING].flatMap((c) => hpas(c).map((h) => `${c}/${h.metadata.namespace}/${h.metadata.name}`));
    const missing = all.filter((k) => !listed.has(k));
    // web/api (staging) and default/gateway-stable (prod-us) repeat a row above with another object.
    expect(missing).toEqual([`${US}/default/gateway-stable`, `${STAGING}/web/api`]);
  });
});

describe('the DTO fields', () => {
  it('maps prod-eu-west-1 shop/checkout', () => {
    const a = map(EU, hpa(EU, 'shop', 'checkout'));
    expect(a).toMatchObject({
      id: 'prod-eu-west-1/HorizontalPodAutoscaler/shop/checkout',
      cluster: EU,
      kind: 'HorizontalPodAutoscaler',
      namespace: 'shop',
      name: 'checkout',
      uid: 'aacc5da3-9459-5914-a310-3f1c4ab66937',
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout', namespace: 'shop' },
      minReplicas: 2,
      maxReplicas: 10,
      currentReplicas: 10,
      desiredReplicas: 10,
      stale: false,
      createdAt: '2026-10-11T12:00:00Z',
      lastScaleTime: '2026-11-20T11:13:00Z',
    });
    expect(a.conditions.map((c) => [c.type, c.status, c.reason, c.meaning])).toEqual([
      ['AbleToScale', 'True', 'ReadyForNewScale', 'ok'],
      ['ScalingActive', 'True', 'ValidMetricFound', 'ok'],
      ['ScalingLimited', 'True', 'TooManyReplicas', 'degraded'],
    ]);
    expect(a.metrics.map((m) => [m.key, m.summary, m.ratio])).toEqual([
      ['Resource/cpu', 'cpu 92% / 60%', 1.53],
      ['Resource/memory', 'memory 734003200 / 900Mi', 0.78],
    ]);
    expect(a.problems[0]).toEqual({
      code: 'TooManyReplicas',
      severity: 'warning',
      title: 'At maxReplicas',
      message: 'the desired replica count is more than the maximum replica count',
      since: '2026-11-20T11:13:00Z',
      hint: 'checkout wants more than maxReplicas (10): raise spec.maxReplicas if the cluster has room, or lower the load per pod',
    });
  });

  it('reads an absent currentReplicas (omitempty) as 0 once the controller has synced, and as null before', () => {
    expect(map(EU, hpa(EU, 'shop', 'legacy-batch'))).toMatchObject({ currentReplicas: 0, desiredReplicas: 0 });
    expect(map(US, hpa(US, 'default', 'new-hpa'))).toMatchObject({ currentReplicas: null, desiredReplicas: null, conditions: [] });
  });

  it('defaults minReplicas to 1 as API defaulting does', () => {
    const h = hpa(EU, 'shop', 'web');
    delete h.spec.minReplicas;
    expect(map(EU, h).minReplicas).toBe(1);
  });

  it('passes stale through and prefers Autoscope’s own since over lastTransitionTime', () => {
    const a = map(EU, hpa(EU, 'shop', 'checkout'), { stale: true, conditionSince: { ScalingLimited: '2026-11-20T11:30:00Z' } });
    expect(a.stale).toBe(true);
    expect(a.problems[0]?.since).toBe('2026-11-20T11:30:00Z');
    expect(a.conditions.find((c) => c.type === 'ScalingLimited')?.lastTransitionTime).toBe('2026-11-20T11:13:00Z');
  });

  it('orders conditions AbleToScale, ScalingActive, ScalingLimited, then the rest', () => {
    const h = hpa(US, 'default', 'drain');
    h.status?.conditions?.reverse();
    expect(map(US, h).conditions.map((c) => c.type)).toEqual(['AbleToScale', 'ScalingActive', 'ScalingLimited', 'ScaledToZero']);
  });
});

describe('health rules at both sides of their boundaries', () => {
  it.each([
    ['14m59s (replicasMismatchSince)', { replicasMismatchSince: ago(REPLICAS_MISMATCH_SECONDS - 1) }, 'ok', []],
    ['15m (replicasMismatchSince)', { replicasMismatchSince: ago(REPLICAS_MISMATCH_SECONDS) }, 'degraded', ['ReplicasMismatch']],
    ['20m from status.lastScaleTime when Autoscope has no history', {}, 'degraded', ['ReplicasMismatch']],
    ['null history also falls back to lastScaleTime', { replicasMismatchSince: null }, 'degraded', ['ReplicasMismatch']],
  ] as const)('replicas mismatch held %s', (_name, extra, health, expected) => {
    const a = map(US, hpa(US, 'billing', 'exporter'), { stale: false, ...extra });
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(expected);
  });

  it('replicas mismatch from lastScaleTime 14m59s ago is not yet a problem', () => {
    const h = hpa(US, 'billing', 'exporter');
    if (h.status) h.status.lastScaleTime = ago(REPLICAS_MISMATCH_SECONDS - 1);
    expect(codes(US, h)).toEqual([]);
  });

  it('replicas mismatch needs desired ≠ current', () => {
    const h = hpa(US, 'billing', 'exporter');
    if (h.status) h.status.desiredReplicas = 3;
    expect(codes(US, h, { stale: false, replicasMismatchSince: ago(3600) })).toEqual([]);
  });

  it('the mismatch problem names both counts and its start', () => {
    const p = map(US, hpa(US, 'billing', 'exporter')).problems[0];
    expect(p).toMatchObject({
      severity: 'warning',
      since: '2026-11-20T11:40:00Z',
      message: 'desiredReplicas 6 ≠ currentReplicas 3 since 2026-11-20T11:40:00Z',
    });
    expect(p?.hint).toContain('Deployment exporter has had 3 replicas while exporter wants 6');
  });

  it.each([
    ['59m59s', SCALE_DOWN_STABILIZED_LONG_SECONDS - 1, 'ok', []],
    ['60m', SCALE_DOWN_STABILIZED_LONG_SECONDS, 'degraded', ['ScaleDownStabilized']],
  ] as const)('ScaleDownStabilized held %s', (_name, seconds, health, expected) => {
    const a = map(EU, hpa(EU, 'search', 'indexer'), { stale: false, conditionSince: { AbleToScale: ago(seconds) } });
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(expected);
    expect(a.conditions[0]?.meaning).toBe(health);
  });

  it('ScaleDownStabilized is not judged from lastTransitionTime, which dates the status, not the reason', () => {
    // indexer's AbleToScale has been True for 14 days; that says nothing about how long the reason held.
    expect(map(EU, hpa(EU, 'search', 'indexer')).health).toBe('ok');
  });

  it.each([
    ['target at 0: ok, with an info note', undefined, 'ok', 'info'],
    ['target not at 0: failing', 2, 'failing', 'error'],
  ] as const)('ScalingDisabled, %s', (_name, currentReplicas, health, severity) => {
    const h = hpa(EU, 'shop', 'legacy-batch');
    if (h.status && currentReplicas !== undefined) Object.assign(h.status, { currentReplicas, desiredReplicas: currentReplicas });
    const a = map(EU, h);
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => [p.code, p.severity])).toEqual([['ScalingDisabled', severity]]);
  });

  it.each([
    ['ScalingLimited=True TooManyReplicas', { status: 'True', reason: 'TooManyReplicas' }, 'degraded'],
    [
      'ScalingLimited=False DesiredWithinRange',
      { status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
      'ok',
    ],
    ['ScalingLimited=True TooFewReplicas', { status: 'True', reason: 'TooFewReplicas' }, 'ok'],
  ])('%s', (_name, patch, health) => {
    expect(map(EU, edit(hpa(EU, 'shop', 'checkout'), 'ScalingLimited', patch)).health).toBe(health);
  });

  it.each([
    ['AbleToScale=False', { status: 'False', reason: 'FailedGetScale', message: 'x' }, 'failing'],
    ['AbleToScale=True', { status: 'True', reason: 'ReadyForNewScale' }, 'ok'],
  ])('%s', (_name, patch, health) => {
    expect(map(EU, edit(hpa(EU, 'shop', 'web'), 'AbleToScale', patch)).health).toBe(health);
  });

  it.each([
    ['no conditions at all: unknown', [], 'unknown', ['ConditionsAbsent']],
    // Issue 17: only AbleToScale means no replica count was computed; web is far older than a few syncs.
    ['AbleToScale without ScalingActive: not evaluated, and long enough to fail', ['AbleToScale'], 'failing', ['ScalingNotEvaluated']],
    ['AbleToScale and ScalingActive, no ScalingLimited: judged on them', ['AbleToScale', 'ScalingActive'], 'ok', []],
  ] as const)('%s', (_name, keep, health, expected) => {
    const h = hpa(EU, 'shop', 'web');
    if (h.status) h.status.conditions = (h.status.conditions ?? []).filter((c) => (keep as readonly string[]).includes(c.type));
    const a = map(EU, h);
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(expected);
  });

  it('a condition with status Unknown makes the HPA unknown', () => {
    const a = map(
      EU,
      edit(hpa(EU, 'shop', 'web'), 'ScalingActive', { status: 'Unknown', reason: 'Initializing', message: 'waiting for the first sync' }),
    );
    expect(a.health).toBe('unknown');
    expect(a.problems.map((p) => [p.code, p.severity, p.message])).toEqual([
      ['ConditionUnknown', 'unknown', 'ScalingActive is Unknown: waiting for the first sync'],
    ]);
  });
});

describe('conditions left over from an earlier sync are not judged', () => {
  it('ScalingActive after AbleToScale=False FailedGetScale (horizontal.go returns before the metrics)', () => {
    const a = map(US, hpa(US, 'default', 'api'));
    expect(a.problems.map((p) => p.code)).toEqual(['FailedGetScale']);
    expect(a.conditions.find((c) => c.type === 'ScalingActive')?.meaning).toBe('failing');
  });

  it('ScalingLimited while ScalingActive=False (normalization did not run)', () => {
    const a = map(EU, hpa(EU, 'shop', 'legacy-batch'));
    expect(a.problems.map((p) => p.code)).toEqual(['ScalingDisabled']);
    expect(a.conditions.find((c) => c.type === 'ScalingLimited')?.meaning).toBe('degraded');
  });

  it('but FailedUpdateScale comes after the metrics, so ScalingActive still counts', () => {
    const h = edit(hpa(EU, 'payments', 'ledger'), 'ScalingActive', {
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message:
        'the HPA was unable to compute the replica count: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
    });
    expect(codes(EU, h)).toEqual(['FailedUpdateScale', 'FailedGetResourceMetric']);
  });
});

describe('problem text for the fixtures (hints from the upstream message)', () => {
  it.each([
    [US, 'billing', 'ledger-sync', 'Container without a resource request', 'set resources.requests.memory on container sync'],
    [US, 'default', 'api', 'Scale target not found', 'Deployment api-v2 does not exist in namespace default'],
    [
      US,
      'default',
      'gateway-canary',
      'Pods controlled by several HPAs',
      'the HPAs default/gateway-canary default/gateway-stable select the same pods',
    ],
    [US, 'billing', 'invoicer', 'Metric container not in the pods', 'container app does not exist in Pod invoicer-6c9f7b5d84-qk2vz'],
    [
      STAGING,
      'web',
      'frontend',
      'Cannot read a resource metric',
      'the resource metrics API is down: check kubectl --context gke_acme-staging_europe-west1_staging get apiservice v1beta1.metrics.k8s.io',
    ],
    [EU, 'shop', 'frontend', 'Cannot read a resource metric', 'no ready pod of Deployment frontend has a metric sample'],
    [EU, 'payments', 'ledger', 'Cannot update the target’s scale', 'admission webhook validation.gatekeeper.sh denies the scale update'],
    [EU, 'search', 'suggest', 'Metric not served by the adapter', 'does not expose http_requests_per_second for pods'],
    [EU, 'search', 'crawler', 'Cannot read an object metric', 'the custom metrics API is down'],
    [EU, 'shop', 'recommender', 'Cannot read an external metric', 'get apiservice v1beta1.external.metrics.k8s.io'],
    [US, 'billing', 'reports', 'Unknown metric source type', 'must be one of Resource, ContainerResource, Pods, Object, External'],
  ])('%s %s/%s: %s', (cluster, namespace, name, title, hint) => {
    const p = map(cluster, hpa(cluster, namespace, name)).problems[0];
    expect(p?.title).toBe(title);
    expect(p?.hint).toContain(hint);
  });

  it('quotes a cluster name kubectl would split', () => {
    const p = toHpaAutoscaler('team a prod', hpa(STAGING, 'web', 'frontend'), FRESH, NOW).problems[0];
    expect(p?.hint).toContain(`kubectl --context 'team a prod' get apiservice`);
  });
});

describe('a memo shared by the two mappings of one version', () => {
  // The index maps a first sight with the context before history observed it, then with the one after, through one
  // memo: the second DTO must be the one a mapping without the memo makes.
  const later = (h: HorizontalPodAutoscaler): MapperContext => ({
    stale: false,
    conditionSince: Object.fromEntries((h.status?.conditions ?? []).map((c) => [c.type, ago(SCALE_DOWN_STABILIZED_LONG_SECONDS + 5)])),
    replicasMismatchSince: ago(REPLICAS_MISMATCH_SECONDS + 5),
    problemSince: { FailedGetResourceMetric: ago(90), FailedGetPodsMetric: ago(90), FailedGetExternalMetric: ago(90) },
  });
  const all = [EU, US, STAGING].flatMap((c) => hpas(c).map((h) => [c, h] as const));

  it.each(all.map(([c, h]) => [c, h.metadata.namespace ?? '', h.metadata.name, h] as const))('%s %s/%s', (cluster, _ns, _name, h) => {
    const memo: HpaShapeMemo = {};
    const first = toHpaAutoscaler(cluster, h, FRESH, NOW, memo);
    const second = toHpaAutoscaler(cluster, h, later(h), NOW, memo);
    expect(first).toEqual(toHpaAutoscaler(cluster, h, FRESH, NOW));
    expect(second).toEqual(toHpaAutoscaler(cluster, h, later(h), NOW));
    // What the context leaves as it was is the first DTO's own: its target, its metrics, each condition whose meaning
    // held (all of them, and the list itself, when mapped again with the same context).
    expect(second.target).toBe(first.target);
    expect(second.metrics).toBe(first.metrics);
    second.conditions.forEach((c, i) => {
      if (c.meaning === first.conditions[i]?.meaning) expect(c).toBe(first.conditions[i]);
      else expect(c).not.toBe(first.conditions[i]);
    });
    const again = toHpaAutoscaler(cluster, h, later(h), NOW, memo);
    expect(toHpaAutoscaler(cluster, h, later(h), NOW, memo).conditions).toBe(again.conditions);
  });

  it('moves what the context moves (the test above compares DTOs that differ, for most HPAs)', () => {
    const moved = all.filter(
      ([c, h]) => JSON.stringify(toHpaAutoscaler(c, h, FRESH, NOW)) !== JSON.stringify(toHpaAutoscaler(c, h, later(h), NOW)),
    );
    expect(moved.length).toBeGreaterThan(all.length / 2);
  });
});
