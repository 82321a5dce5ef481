import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api/autoscaler';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { EU, FRESH, fleet, hpas, NOW, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { groupProblems } from '@/lib/triage/group-problems';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

const METRICS_DOWN =
  'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

function mapAll(cluster: string, list: HorizontalPodAutoscaler[]): Autoscaler[] {
  return list.map((h) => toHpaAutoscaler(cluster, h, FRESH, NOW));
}

function heal(h: HorizontalPodAutoscaler): HorizontalPodAutoscaler {
  const active = h.status?.conditions?.find((c) => c.type === 'ScalingActive');
  if (active)
    Object.assign(active, {
      status: 'True',
      reason: 'ValidMetricFound',
      message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    });
  // A healed HPA also has a value for each of its metrics again (a failed read leaves an empty entry).
  if (h.status) {
    h.status.currentMetrics = (h.spec.metrics ?? []).map((m) =>
      m.type === 'Resource' && m.resource
        ? { type: 'Resource', resource: { name: m.resource.name, current: { averageUtilization: 40, averageValue: '100m' } } }
        : { type: m.type },
    );
  }
  return h;
}

/** The staging cluster's HPAs, optionally edited, under another cluster name. */
function stagingAs(cluster: string, edit?: (list: HorizontalPodAutoscaler[]) => HorizontalPodAutoscaler[]): Autoscaler[] {
  const list = hpas(STAGING);
  return mapAll(cluster, edit ? edit(list) : list);
}

describe('groupProblems over the whole fixture fleet', () => {
  const groups = groupProblems(fleet(), NOW);

  it('orders by worst severity, then count, then oldest since', () => {
    expect(groups.slice(0, 6).map((g) => [g.key, g.worstSeverity, g.count])).toEqual([
      ['HorizontalPodAutoscaler/FailedGetResourceMetric', 'error', 4],
      ['HorizontalPodAutoscaler/AmbiguousSelector', 'error', 2],
      // Two MachineAutoscaler groups of 2 with no since sort after dated ones, by key.
      ['MachineAutoscaler/MachineAutoscalerScaleFromZeroUnsupported', 'error', 2],
      ['MachineAutoscaler/MachineAutoscalerTargetAnnotationsMismatch', 'error', 2],
      ['MachineAutoscaler/MachineAutoscalerTargetAnnotationsMissing', 'error', 2],
      ['MachineAutoscaler/MachineAutoscalerTargetNotFound', 'error', 2],
    ]);
    const severities = groups.map((g) => g.worstSeverity);
    expect(severities.indexOf('unknown')).toBeGreaterThan(severities.lastIndexOf('error'));
    expect(severities.indexOf('warning')).toBeGreaterThan(severities.lastIndexOf('unknown'));
    expect(severities).not.toContain('info');
  });

  it('keeps one reason in three clusters as one group listing them', () => {
    expect(groups.find((g) => g.key === 'HorizontalPodAutoscaler/TooManyReplicas')).toEqual({
      key: 'HorizontalPodAutoscaler/TooManyReplicas',
      kind: 'HorizontalPodAutoscaler',
      reason: 'TooManyReplicas',
      title: 'At maxReplicas',
      count: 3,
      clusters: [US, STAGING, EU],
      namespaces: ['billing', 'jobs', 'shop'],
      oldestSince: '2026-11-20T07:00:00Z',
      worstSeverity: 'warning',
      hint: 'These autoscalers want more than their maxReplicas: raise it where the cluster has room.',
      sampleIds: [
        'gke_acme-staging_europe-west1_staging/HorizontalPodAutoscaler/jobs/queue-consumer',
        'arn%3Aaws%3Aeks%3Aus-east-1%3A123456789012%3Acluster%2Fprod-us/HorizontalPodAutoscaler/billing/queue-worker',
        'prod-eu-west-1/HorizontalPodAutoscaler/shop/checkout',
      ],
    });
  });

  it('says the metrics API is down in staging, where every Resource-metric HPA fails, but not in prod-eu-west-1', () => {
    const g = groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric');
    expect(g?.clusters).toEqual([STAGING, EU]);
    expect(g?.likelyCause).toBe(
      `metrics API unavailable in cluster ${STAGING}: every HPA with a resource metric there fails to read it (check the v1beta1.metrics.k8s.io APIService, served by metrics-server)`,
    );
    expect(g?.hint).toBe(
      `kubectl --context ${STAGING} get apiservice v1beta1.metrics.k8s.io; if it is not Available, check the metrics-server Deployment in kube-system (pods, logs, and the APIService's service endpoints)`,
    );
    // The ContainerResource HPA of the same cluster fails with its own reason and gets the same cause.
    expect(groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetContainerResourceMetric')?.likelyCause).toContain(
      `cluster ${STAGING}`,
    );
  });

  it('splits a workload’s own misconfiguration from its reason’s group', () => {
    const g = groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric/missing-request');
    expect(g).toMatchObject({ title: 'Container without a resource request', count: 1, clusters: [US], worstSeverity: 'error' });
    expect(g?.hint).toContain('set resources.requests.memory on container sync');
    expect(g?.likelyCause).toBeUndefined();
  });

  it('groups each kind separately and keeps the Karmada metrics failure without an outage cause (one of four FederatedHPAs)', () => {
    const g = groups.find((x) => x.key === 'FederatedHPA/FailedGetResourceMetric');
    expect(g).toMatchObject({ kind: 'FederatedHPA', count: 1, clusters: ['karmada-apiserver'] });
    expect(g?.likelyCause).toBeUndefined();
  });

  it('every autoscaler with a non-info problem appears in some group', () => {
    const grouped = new Set(groups.flatMap((g) => g.sampleIds));
    const total = groups.reduce((n, g) => n + g.count, 0);
    expect(total).toBe(fleet().reduce((n, a) => n + a.problems.filter((p) => p.severity !== 'info').length, 0));
    expect(grouped.size).toBeGreaterThan(40);
  });
});

describe('the metrics-outage rule', () => {
  it.each([
    ['all three Resource-metric HPAs fail: fires', (l: HorizontalPodAutoscaler[]) => l, true],
    [
      'one of them healthy: does not fire',
      (l: HorizontalPodAutoscaler[]) => l.map((h) => (h.metadata.name === 'frontend' ? heal(h) : h)),
      false,
    ],
    [
      'only one Resource-metric HPA, failing: below the minimum of 2',
      (l: HorizontalPodAutoscaler[]) => l.filter((h) => h.metadata.name === 'frontend' || h.metadata.name === 'queue-consumer'),
      false,
    ],
    ['exactly two, both failing: fires', (l: HorizontalPodAutoscaler[]) => l.filter((h) => h.metadata.name !== 'worker'), true],
    [
      'one fails for its own missing request: does not fire',
      (l: HorizontalPodAutoscaler[]) =>
        l.map((h) => {
          const active = h.status?.conditions?.find((c) => c.type === 'ScalingActive');
          if (h.metadata.name === 'api' && active)
            active.message =
              'the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container api of Pod api-6d4b8c7f9-2xk7q';
          return h;
        }),
      false,
    ],
  ])('%s', (_name, edit, fires) => {
    const groups = groupProblems(stagingAs(STAGING, edit), NOW);
    const causes = groups.filter((g) => g.likelyCause).map((g) => g.key);
    expect(causes.length > 0).toBe(fires);
  });

  it('names every cluster where it fires, and only those', () => {
    const autoscalers = [...stagingAs('staging-a'), ...stagingAs('staging-b'), ...mapAll(EU, hpas(EU))];
    const g = groupProblems(autoscalers, NOW).find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric');
    expect(g?.clusters).toEqual([EU, 'staging-a', 'staging-b']);
    expect(g?.count).toBe(6);
    expect(g?.likelyCause).toContain('metrics API unavailable in clusters staging-a, staging-b:');
    expect(g?.hint).toMatch(/^kubectl get apiservice v1beta1\.metrics\.k8s\.io/);
  });

  it('does not count HPAs without a Resource metric', () => {
    // queue-consumer (External only) is healthy, yet staging still counts as an outage.
    const groups = groupProblems(stagingAs(STAGING), NOW);
    expect(groups.find((g) => g.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric')?.likelyCause).toBeDefined();
  });

  it('with the same failure message everywhere', () => {
    const list = hpas(STAGING).map((h) => {
      const active = h.status?.conditions?.find((c) => c.type === 'ScalingActive');
      if (active?.reason === 'FailedGetResourceMetric') active.message = METRICS_DOWN;
      return h;
    });
    expect(groupProblems(mapAll(STAGING, list), NOW)[0]?.hint).toContain('the metrics-server Deployment in kube-system');
  });
});

/** staging's External-only queue-consumer, copied under `names`, each failing to read its metric when `down`. */
function queueConsumers(cluster: string, names: string[], down: boolean): Autoscaler[] {
  const base = hpas(STAGING).find((h) => h.metadata.name === 'queue-consumer');
  if (!base) throw new Error('fixture staging has no queue-consumer');
  return names.map((name) => {
    const h = structuredClone(base);
    h.metadata.name = name;
    h.metadata.uid = `uid-${name}`;
    if (down && h.status) {
      const active = h.status.conditions?.find((c) => c.type === 'ScalingActive');
      if (active)
        Object.assign(active, {
          status: 'False',
          reason: 'FailedGetExternalMetric',
          message: `the HPA was unable to compute the replica count: unable to get external metric jobs/pubsub_num_undelivered_messages/&LabelSelector{MatchLabels:map[string]string{subscription: jobs,},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: the server is currently unable to handle the request (get pubsub_num_undelivered_messages.external.metrics.k8s.io)`,
        });
      h.status.currentMetrics = [{ type: 'External' }] as never;
    }
    return toHpaAutoscaler(cluster, h, FRESH, NOW);
  });
}

describe('the same rule for the custom and external metrics APIs', () => {
  it('every External-metric HPA of a cluster failing: the external metrics API (KEDA, an adapter) is named, not N workloads', () => {
    const groups = groupProblems(
      [
        ...queueConsumers('prod-a', ['orders', 'payments', 'mail'], true),
        ...queueConsumers('prod-b', ['orders'], true),
        ...queueConsumers('prod-b', ['reports'], false),
      ],
      NOW,
    );
    const g = groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetExternalMetric');
    expect(g?.count).toBe(4);
    expect(g?.clusters).toEqual(['prod-a', 'prod-b']);
    // prod-b still has an External-metric HPA that reads fine: not an outage there.
    expect(g?.likelyCause).toBe(
      "external metrics API unavailable in cluster prod-a: every HPA with an External metric there fails to read it (check the v1beta1.external.metrics.k8s.io APIService, served by e.g. KEDA's metrics API server or prometheus-adapter)",
    );
    expect(g?.hint).toMatch(/^kubectl --context prod-a get apiservice v1beta1\.external\.metrics\.k8s\.io/);
  });

  it('one failing External-metric HPA is a workload problem, not an API outage', () => {
    const g = groupProblems([...queueConsumers('prod-a', ['orders'], true), ...queueConsumers('prod-a', ['mail'], false)], NOW).find(
      (x) => x.key === 'HorizontalPodAutoscaler/FailedGetExternalMetric',
    );
    expect(g?.count).toBe(1);
    expect(g?.likelyCause).toBeUndefined();
  });

  it('an external metrics outage does not make the resource metrics group an outage, or the other way round', () => {
    // staging's own queue-consumer is left out (it reads its External metric fine); frontend is healed.
    const rest = stagingAs(STAGING, (l) =>
      l.filter((h) => h.metadata.name !== 'queue-consumer').map((h) => (h.metadata.name === 'frontend' ? heal(h) : h)),
    );
    const groups = groupProblems([...queueConsumers(STAGING, ['orders', 'mail'], true), ...rest], NOW);
    expect(groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric')?.likelyCause).toBeUndefined();
    expect(groups.find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetExternalMetric')?.likelyCause).toContain(
      'external metrics API unavailable',
    );
  });
});

describe('options and edge cases', () => {
  it('leaves info problems out unless asked', () => {
    const keys = (includeInfo: boolean): string[] => groupProblems(fleet(), NOW, { includeInfo }).map((g) => g.key);
    expect(keys(false)).not.toContain('HorizontalPodAutoscaler/ScalingDisabled');
    expect(keys(true)).toEqual(
      expect.arrayContaining(['HorizontalPodAutoscaler/ScalingDisabled', 'MachineAutoscaler/TargetMirrorNotSynchronized']),
    );
    expect(
      keys(true)
        .slice(-2)
        .every((k) => k.endsWith('ScalingDisabled') || k.endsWith('TargetMirrorNotSynchronized')),
    ).toBe(true);
  });

  it('keeps sampleSize ids, oldest first', () => {
    const g = groupProblems(fleet(), NOW, { sampleSize: 2 }).find((x) => x.key === 'HorizontalPodAutoscaler/FailedGetResourceMetric');
    expect(g?.sampleIds).toEqual([
      'gke_acme-staging_europe-west1_staging/HorizontalPodAutoscaler/web/frontend',
      'gke_acme-staging_europe-west1_staging/HorizontalPodAutoscaler/web/api',
    ]);
  });

  it('bounds a since from a cluster whose clock runs ahead by now', () => {
    const list = hpas(EU).filter((h) => h.metadata.name === 'checkout');
    const a = mapAll(EU, list);
    const p = a[0]?.problems[0];
    if (p) p.since = '2026-11-20T12:30:00Z';
    expect(groupProblems(a, NOW)[0]?.oldestSince).toBe('2026-11-20T12:00:00.000Z');
    expect(groupProblems(a, '2026-11-20T13:00:00Z')[0]?.oldestSince).toBe('2026-11-20T12:30:00Z');
  });

  it('returns nothing for a healthy fleet and accepts epoch milliseconds for now', () => {
    expect(
      groupProblems(
        mapAll(
          EU,
          hpas(EU).filter((h) => h.metadata.name === 'web'),
        ),
        Date.parse(NOW),
      ),
    ).toEqual([]);
    expect(groupProblems([], NOW)).toEqual([]);
  });
});
