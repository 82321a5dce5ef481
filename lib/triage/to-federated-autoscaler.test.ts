import { describe, expect, it } from 'vitest';
import type { FederationStrategy, Health } from '@/lib/api/autoscaler';
import { bindingFor, FRESH, KARMADA, karmada, NOW, policyFor } from '@/lib/triage/__fixtures__/fleet';
import type { KarmadaState } from '@/lib/triage/__fixtures__/fleet';
import type { KarmadaPlacement } from '@/lib/triage/karmada-types';
import { toFederatedAutoscaler, toFederationStrategy } from '@/lib/triage/to-federated-autoscaler';

function map(state: KarmadaState, name: string): ReturnType<typeof toFederatedAutoscaler> {
  const fhpa = state.fhpas.find((f) => f.metadata.name === name);
  if (!fhpa) throw new Error(`no FederatedHPA ${name}`);
  return toFederatedAutoscaler(
    KARMADA,
    fhpa,
    { binding: bindingFor(state, fhpa), clusters: state.clusters, policy: policyFor(state, fhpa) },
    FRESH,
    NOW,
  );
}

function setReady(state: KarmadaState, cluster: string, status: string | null): void {
  const c = state.clusters.find((x) => x.metadata.name === cluster);
  const ready = c?.status?.conditions?.find((x) => x.type === 'Ready');
  if (!c?.status) throw new Error(`no Cluster ${cluster}`);
  if (status === null) c.status.conditions = [];
  else if (ready) Object.assign(ready, { status, reason: status === 'True' ? 'ClusterReady' : 'ClusterNotReady' });
}

describe('toFederatedAutoscaler on every fixture FederatedHPA', () => {
  const table: [string, Health, string[], FederationStrategy, [string, number, string, string | null, number | null][]][] = [
    // pkg/estimator/client/general.go: nginx requests cpu 250m: member1 ⌊(24 − 14.85 − 0.5) / 0.25⌋ = 34, member3 ⌊0.8 / 0.25⌋ = 3.
    [
      'nginx',
      'ok',
      [],
      'StaticWeight',
      [
        ['member1', 6, 'True', 'ClusterReady', 34],
        ['member3', 4, 'True', 'ClusterReady', 3],
      ],
    ],
    [
      'api',
      'degraded',
      ['MemberClusterNotReady'],
      'DynamicWeight',
      [
        ['member1', 5, 'True', 'ClusterReady', 8],
        ['member2', 3, 'False', 'ClusterNotReachable', 10],
      ],
    ],
    // cache requests cpu 500m, memory 4Gi: member1 ⌊(96403424Ki − 30245Mi − 512Mi) / 4Gi⌋ = 15 (memory-bound), member3 ⌊800m / 500m⌋ = 1.
    [
      'cache',
      'ok',
      [],
      'Duplicated',
      [
        ['member1', 3, 'True', 'ClusterReady', 15],
        ['member3', 3, 'True', 'ClusterReady', 1],
      ],
    ],
    ['search', 'failing', ['FailedGetResourceMetric'], 'Aggregated', [['member1', 8, 'True', 'ClusterReady', 34]]],
    ['orphan', 'failing', ['FailedGetTargetClusters'], 'StaticWeight', []],
    ['ghost', 'failing', ['FailedGetScaleTargetRef'], 'Duplicated', []],
    ['unbound', 'failing', ['FailedGetBinding'], 'Unknown', []],
    // member4 has a Cluster object but no resourceSummary yet: the general estimator answers 0.
    [
      'stranded',
      'failing',
      ['FailedGetScale', 'MemberClusterNotReady'],
      'DynamicWeight',
      [
        ['member2', 4, 'False', 'ClusterNotReachable', 40],
        ['member4', 2, 'Unknown', null, 0],
      ],
    ],
  ];

  it.each(table)('%s → %s %j (%s)', (name, health, codes, strategy, members) => {
    const a = map(karmada(), name);
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(codes);
    expect(a.federation?.strategy).toBe(strategy);
    expect(a.federation?.members.map((m) => [m.cluster, m.replicas, m.ready, m.readyReason, m.availableReplicas])).toEqual(members);
  });

  it('covers every FederatedHPA in the fixtures', () => {
    expect(
      karmada()
        .fhpas.map((f) => f.metadata.name)
        .sort(),
    ).toEqual(table.map(([n]) => n).sort());
  });

  it('maps the DTO fields of shop/nginx', () => {
    expect(map(karmada(), 'nginx')).toMatchObject({
      id: 'karmada-apiserver/FederatedHPA/shop/nginx',
      kind: 'FederatedHPA',
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', namespace: 'shop' },
      minReplicas: 2,
      maxReplicas: 20,
      currentReplicas: 10,
      desiredReplicas: 10,
      metrics: [{ key: 'Resource/cpu', summary: 'cpu 55% / 70%', ratio: 0.79 }],
    });
  });
});

describe('member clusters whose Ready is not True (util.IsClusterReady) degrade the FederatedHPA', () => {
  it.each([
    ['True', 'ok', []],
    ['False', 'degraded', ['MemberClusterNotReady']],
    ['Unknown', 'degraded', ['MemberClusterNotReady']],
    [null, 'degraded', ['MemberClusterNotReady']],
  ] as const)('member2 Ready=%s → %s', (status, health, codes) => {
    const state = karmada();
    setReady(state, 'member2', status);
    const a = map(state, 'api');
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(codes);
  });

  it('names each member, its reason and message, and dates the problem from the oldest Ready transition', () => {
    const p = map(karmada(), 'stranded').problems.find((x) => x.code === 'MemberClusterNotReady');
    expect(p).toMatchObject({
      severity: 'warning',
      title: 'Member cluster not Ready',
      message:
        'member clusters not Ready: member2 (Ready=False, ClusterNotReachable: cluster is not reachable); member4 (no Ready condition)',
      since: '2026-11-20T10:37:00Z',
    });
    expect(p?.hint).toContain('kubectl --context karmada-apiserver get clusters');
  });

  it('a binding cluster without a Karmada Cluster object is Unknown with no estimate', () => {
    const state = karmada();
    state.clusters = state.clusters.filter((c) => c.metadata.name !== 'member3');
    const a = map(state, 'nginx');
    expect(a.federation?.members[1]).toEqual({
      cluster: 'member3',
      replicas: 4,
      ready: 'Unknown',
      readyReason: null,
      availableReplicas: null,
    });
    expect(a.problems[0]?.message).toBe('member cluster not Ready: member3 (no Karmada Cluster object)');
  });

  it('Autoscope’s own observation dates the problem when it has one', () => {
    const state = karmada();
    const fhpa = state.fhpas.find((f) => f.metadata.name === 'api');
    if (!fhpa) throw new Error('no api');
    const a = toFederatedAutoscaler(
      KARMADA,
      fhpa,
      { binding: bindingFor(state, fhpa), clusters: state.clusters },
      { stale: false, problemSince: { MemberClusterNotReady: '2026-11-20T10:40:15Z' } },
      NOW,
    );
    expect(a.problems[0]?.since).toBe('2026-11-20T10:40:15Z');
  });
});

describe('toFederationStrategy (pkg/scheduler/core/assignment.go newAssignState)', () => {
  const cases: [string, KarmadaPlacement | null, FederationStrategy][] = [
    ['no placement known', null, 'Unknown'],
    [
      'replicaScheduling nil reads as Duplicated (Placement.ReplicaSchedulingType)',
      { clusterAffinity: { clusterNames: ['member1'] } },
      'Duplicated',
    ],
    ['Duplicated', { replicaScheduling: { replicaSchedulingType: 'Duplicated' } }, 'Duplicated'],
    [
      'Divided + Aggregated',
      { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      'Aggregated',
    ],
    [
      'Divided + Weighted + dynamicWeight',
      {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { dynamicWeight: 'AvailableReplicas' },
        },
      },
      'DynamicWeight',
    ],
    [
      'Divided + Weighted + staticWeightList',
      {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ weight: 1 }] },
        },
      },
      'StaticWeight',
    ],
    [
      'Divided + Weighted without weightPreference',
      { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } },
      'StaticWeight',
    ],
    [
      'Divided + Weighted with an empty dynamicWeight',
      {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { dynamicWeight: '' },
        },
      },
      'StaticWeight',
    ],
    ['Divided without a preference has no strategy upstream', { replicaScheduling: { replicaSchedulingType: 'Divided' } }, 'Unknown'],
  ];
  it.each(cases)('%s', (_name, placement, expected) => {
    expect(toFederationStrategy(placement)).toBe(expected);
  });

  it('prefers the binding’s placement over the policy’s', () => {
    const state = karmada();
    const fhpa = state.fhpas.find((f) => f.metadata.name === 'nginx');
    if (!fhpa) throw new Error('no nginx');
    const duplicated = {
      ...state.policies[0],
      spec: { placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } } },
    } as (typeof state.policies)[number];
    const a = toFederatedAutoscaler(
      KARMADA,
      fhpa,
      { binding: bindingFor(state, fhpa), clusters: state.clusters, policy: duplicated },
      FRESH,
      NOW,
    );
    expect(a.federation?.strategy).toBe('StaticWeight');
  });
});

describe('Karmada reasons and their hints', () => {
  it.each([
    ['orphan', 'Binding has no target clusters', "read the ResourceBinding's Scheduled condition"],
    ['ghost', 'Resource template not found', 'the resource template Deployment ghost (apps/v1) is missing on the Karmada control plane'],
    ['unbound', 'Template not propagated by any policy', 'Deployment unbound carries no propagation policy label'],
    ['stranded', 'Cannot read the target’s scale', 'no member cluster reported replicas of Deployment stranded'],
    ['search', 'Cannot read a resource metric', "the Karmada control plane's metrics API is down"],
  ])('%s: %s', (name, title, hint) => {
    const p = map(karmada(), name).problems[0];
    expect(p?.title).toBe(title);
    expect(p?.hint).toContain(hint);
  });
});
