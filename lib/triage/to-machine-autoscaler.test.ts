import { describe, expect, it } from 'vitest';
import { MachineFindingCodeSchema } from '@/lib/api/autoscaler';
import type { Health } from '@/lib/api/autoscaler';
import type { MachineAutoscalerVerdict } from '@/lib/machine/types';
import { authoritativeSet, EDGE, FRESH, machineAutoscalers, machineState, NOW, OCP, verdicts } from '@/lib/triage/__fixtures__/fleet';
import { REPLICAS_MISMATCH_SECONDS } from '@/lib/triage/health-rules';
import type { MapperContext } from '@/lib/triage/mapper-context';
import { toMachineAutoscaler } from '@/lib/triage/to-machine-autoscaler';

const NOW_MS = Date.parse(NOW);
const ago = (seconds: number): string => new Date(NOW_MS - seconds * 1000).toISOString();

function one(
  name: string,
  context: MapperContext = FRESH,
  edit?: (v: MachineAutoscalerVerdict) => void,
): ReturnType<typeof toMachineAutoscaler> {
  const state = machineState(OCP);
  const verdict = verdicts(state).find((v) => v.machineAutoscaler.endsWith(`/${name}`));
  const ma = state.machineAutoscalers.find((m) => m.metadata.name === name);
  if (!verdict || !ma) throw new Error(`no MachineAutoscaler ${name}`);
  edit?.(verdict);
  return toMachineAutoscaler(OCP, ma, verdict, authoritativeSet(state, verdict), context, NOW);
}

describe('toMachineAutoscaler on lib/machine verdicts for the fixture clusters', () => {
  // derived Ready=False → failing, Unknown → unknown, warnings → degraded, info only → ok.
  const table: [string, string, Health, [string, string][]][] = [
    [OCP, 'worker-us-east-1a', 'ok', []],
    [OCP, 'worker-us-east-1a-burst', 'failing', [['MachineAutoscalerDuplicateTargetScaleRef', 'error']]],
    [
      OCP,
      'worker-us-east-1b',
      'failing',
      [
        ['MachineAutoscalerNotReconciled', 'error'],
        ['MachineAutoscalerTargetAnnotationsMissing', 'error'],
      ],
    ],
    [
      OCP,
      'worker-us-east-1c',
      'failing',
      [
        ['MachineAutoscalerInvalidSpec', 'error'],
        ['MachineAutoscalerTargetAnnotationsMismatch', 'error'],
      ],
    ],
    [OCP, 'infra-deployment', 'failing', [['MachineAutoscalerUnsupportedTarget', 'error']]],
    [OCP, 'worker-us-east-1d', 'failing', [['MachineAutoscalerTargetNotFound', 'error']]],
    [OCP, 'capi-pool-a-wrong-group', 'failing', [['MachineAutoscalerTargetNotFound', 'error']]],
    [OCP, 'worker-misplaced', 'failing', [['MachineAutoscalerTargetWrongNamespace', 'error']]],
    [OCP, 'worker-us-east-1e', 'failing', [['MachineAutoscalerNonAuthoritativeTargetScaleRef', 'error']]],
    [OCP, 'worker-us-east-1f', 'unknown', [['MachineAutoscalerTargetMigrating', 'unknown']]],
    [OCP, 'worker-old', 'failing', [['MachineAutoscalerTargetDeleting', 'error']]],
    [OCP, 'capi-pool-b', 'failing', [['MachineAutoscalerTargetPaused', 'error']]],
    [OCP, 'worker-us-east-1g', 'failing', [['MachineAutoscalerTargetOwnedByAnother', 'error']]],
    [OCP, 'worker-us-east-1h', 'failing', [['MachineAutoscalerTargetAnnotationsMissing', 'error']]],
    [OCP, 'worker-us-east-1i', 'failing', [['MachineAutoscalerTargetAnnotationsMismatch', 'error']]],
    [OCP, 'worker-spot-0', 'failing', [['MachineAutoscalerScaleFromZeroUnsupported', 'error']]],
    [OCP, 'worker-spot-1', 'degraded', [['MachineAutoscalerScaleFromZeroUnsupported', 'warning']]],
    [OCP, 'gpu-us-east-1a', 'degraded', [['GPUAcceleratorLabelMissing', 'warning']]],
    [OCP, 'worker-us-east-1j', 'ok', [['TargetMirrorNotSynchronized', 'info']]],
    [EDGE, 'edge-worker', 'degraded', [['ClusterAutoscalerMissing', 'warning']]],
  ];
  const all = [...machineAutoscalers(OCP), ...machineAutoscalers(EDGE)];

  it.each(table)('%s %s → %s %j', (cluster, name, health, problems) => {
    const a = all.find((x) => x.cluster === cluster && x.name === name);
    expect(a?.health).toBe(health);
    expect(a?.problems.map((p) => [p.code, p.severity])).toEqual(problems);
  });

  it('covers every MachineAutoscaler of the fixtures and every finding code', () => {
    expect(all.map((a) => a.name).sort()).toEqual(table.map(([, n]) => n).sort());
    const seen = new Set(all.flatMap((a) => a.problems.map((p) => p.code)));
    expect(MachineFindingCodeSchema.options.filter((code) => !seen.has(code))).toEqual([]);
  });

  it('carries one Ready condition, the derived verdict, coloured by the meaning table', () => {
    expect(all.map((a) => a.conditions.length)).toEqual(all.map(() => 1));
    expect(one('worker-us-east-1a').conditions[0]).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'MachineAutoscalerReady',
      message: 'MachineAutoscaler ready for autoscaling',
      lastTransitionTime: null,
      meaning: 'ok',
    });
    expect(one('worker-us-east-1f').conditions[0]).toMatchObject({
      status: 'Unknown',
      reason: 'MachineAutoscalerTargetMigrating',
      meaning: 'unknown',
    });
    expect(one('worker-old').conditions[0]).toMatchObject({
      status: 'False',
      reason: 'MachineAutoscalerTargetDeleting',
      meaning: 'failing',
    });
  });
});

describe('the DTO fields', () => {
  it('reads replicas from the authoritative MachineSet and keeps the verdict', () => {
    const a = one('worker-us-east-1a');
    expect(a).toMatchObject({
      id: 'ocp-prod-east/MachineAutoscaler/openshift-machine-api/worker-us-east-1a',
      kind: 'MachineAutoscaler',
      target: {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineSet',
        name: 'prod-east-7k2xq-worker-us-east-1a',
        namespace: 'openshift-machine-api',
      },
      minReplicas: 1,
      maxReplicas: 6,
      desiredReplicas: 3,
      currentReplicas: 2,
      metrics: [],
      lastScaleTime: null,
      machine: { derivedReady: { status: 'True', reason: 'MachineAutoscalerReady' }, operatorReady: null, findings: [] },
    });
    expect(a.machine?.target.authoritativeAPI).toBe('MachineAPI');
  });

  it('a Cluster API authority: replicas from the Cluster API copy, target as referenced', () => {
    const a = one('worker-us-east-1e');
    expect(a.target).toEqual({
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      name: 'prod-east-7k2xq-worker-us-east-1e',
      namespace: 'openshift-machine-api',
    });
    expect(a.machine?.target.authoritativeCopy?.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect([a.desiredReplicas, a.currentReplicas]).toEqual([2, 2]);
  });

  it('no target found: no replicas', () => {
    expect(one('worker-us-east-1d')).toMatchObject({ currentReplicas: null, desiredReplicas: null });
  });

  it('dates the Ready problem from conditionSince, then from an operator Ready with the same status', () => {
    expect(one('worker-old', { stale: false, conditionSince: { Ready: '2026-11-20T11:48:00Z' } }).problems[0]?.since).toBe(
      '2026-11-20T11:48:00Z',
    );
    const fromOperator = one('worker-old', FRESH, (v) => {
      v.operatorReady = {
        status: 'False',
        reason: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
        message: 'x',
        lastTransitionTime: '2026-11-19T08:00:00Z',
      };
    });
    expect(fromOperator.problems[0]?.since).toBe('2026-11-19T08:00:00Z');
    expect(fromOperator.conditions[0]?.lastTransitionTime).toBe('2026-11-19T08:00:00Z');
    const otherStatus = one('worker-old', FRESH, (v) => {
      v.operatorReady = { status: 'True', reason: 'MachineAutoscalerReady', message: 'x', lastTransitionTime: '2026-11-19T08:00:00Z' };
    });
    expect(otherStatus.problems[0]?.since).toBeNull();
  });

  it('findings other than the Ready reason are dated by problemSince', () => {
    const a = one('worker-us-east-1c', {
      stale: false,
      problemSince: { MachineAutoscalerTargetAnnotationsMismatch: '2026-11-18T00:00:00Z' },
    });
    expect(a.problems.map((p) => [p.code, p.since])).toEqual([
      ['MachineAutoscalerInvalidSpec', null],
      ['MachineAutoscalerTargetAnnotationsMismatch', '2026-11-18T00:00:00Z'],
    ]);
  });

  it('a verdict whose Ready disagrees with its findings still yields a problem of Ready’s severity', () => {
    const a = one('worker-us-east-1a', FRESH, (v) => {
      v.derivedReady = {
        status: 'False',
        reason: 'MachineAutoscalerDuplicateTargetScaleRef',
        message: 'targetScaleRef has multiple MachineAutoscaler owners',
      };
    });
    expect(a.health).toBe('failing');
    expect(a.problems.map((p) => [p.code, p.severity, p.message])).toEqual([
      ['MachineAutoscalerDuplicateTargetScaleRef', 'error', 'targetScaleRef has multiple MachineAutoscaler owners'],
    ]);
  });
});

describe('replicas mismatch on the MachineSet (machines not provisioning), at both sides of 15 minutes', () => {
  it.each([
    ['no history: not judged', FRESH, 'ok', []],
    ['14m59s', { stale: false, replicasMismatchSince: ago(REPLICAS_MISMATCH_SECONDS - 1) }, 'ok', []],
    ['15m', { stale: false, replicasMismatchSince: ago(REPLICAS_MISMATCH_SECONDS) }, 'degraded', ['ReplicasMismatch']],
  ] as const)('%s', (_name, context, health, codes) => {
    const a = one('worker-us-east-1a', context);
    expect(a.health).toBe(health);
    expect(a.problems.map((p) => p.code)).toEqual(codes);
  });

  it('says which MachineSet and where to look', () => {
    const p = one('worker-us-east-1a', { stale: false, replicasMismatchSince: ago(3600) }).problems[0];
    expect(p?.message).toBe(`MachineSet prod-east-7k2xq-worker-us-east-1a spec.replicas 3 ≠ status.replicas 2 since ${ago(3600)}`);
    expect(p?.hint).toContain('oc --context ocp-prod-east get machines -n openshift-machine-api');
  });
});

describe('hints name the objects involved', () => {
  it.each([
    [
      'worker-us-east-1a-burst',
      'delete MachineAutoscaler openshift-machine-api/worker-us-east-1a-burst or point it elsewhere; openshift-machine-api/worker-us-east-1a owns this MachineSet (prod-east-7k2xq-worker-us-east-1a)',
    ],
    ['worker-us-east-1e', 'set spec.scaleTargetRef.apiVersion of worker-us-east-1e to cluster.x-k8s.io/v1beta2'],
    [
      'capi-pool-a-wrong-group',
      'set spec.scaleTargetRef.apiVersion of capi-pool-a-wrong-group to cluster.x-k8s.io/v1beta2: the MachineSet exists in the other API group',
    ],
    ['worker-us-east-1b', 'recreate MachineAutoscaler worker-us-east-1b in openshift-machine-api and delete this copy in team-a'],
    [
      'worker-us-east-1g',
      'remove annotation autoscaling.openshift.io/machineautoscaler from MachineSet openshift-machine-api/prod-east-7k2xq-worker-us-east-1g',
    ],
    [
      'worker-spot-0',
      'add capacity.cluster-autoscaler.kubernetes.io/cpu and /memory annotations to MachineSet openshift-machine-api/prod-east-7k2xq-worker-spot-0',
    ],
  ])('%s', (name, hint) => {
    expect(one(name).problems[0]?.hint).toContain(hint);
  });
});
