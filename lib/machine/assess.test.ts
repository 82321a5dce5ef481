import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import {
  annotate,
  awsMachineTemplate,
  capiMirror,
  capiV1beta1MachineSet,
  clusterAutoscaler,
  CONTEXT,
  coreEvents,
  eventsV1,
  GPU_1B,
  machineAutoscaler,
  mapiMachineSet,
  pr402MachineAutoscaler,
  renameMachineAutoscaler,
  targetRef,
  WORKER_1A,
} from './__fixtures__/builders';
import { assessMachineAutoscalers, authorityOf } from './assess';
import type { AssessMachineAutoscalersInput } from './assess';
import { MACHINE_FINDING_PRIORITY } from './findings';
import { toMachineSetView } from './machine-set-view';
import type { MachineAssessmentContext, MachineAutoscalerVerdict, MachineFinding, MachineFindingCode } from './types';
import type { ClusterAPIMachineSetObject, MachineAPIMachineSetObject, MachineAutoscalerObject } from './wire-types';

const MA = 'openshift-machine-api/worker-us-east-1a';
const MAPI_V1BETA1 = 'machine.openshift.io/v1beta1';
const CAPI_V1BETA2 = 'cluster.x-k8s.io/v1beta2';
const MIN_KEY = 'machine.openshift.io/cluster-api-autoscaler-node-group-min-size';
const MAX_KEY = 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size';
const CAPI_MIN_KEY = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const CAPI_MAX_KEY = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const OWNER_KEY = 'autoscaling.openshift.io/machineautoscaler';
const MAPI_CAPACITY_WHERE =
  'checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu, capacity.cluster-autoscaler.kubernetes.io/memory, machine.openshift.io/vCPU and machine.openshift.io/memoryMb';

interface Edits {
  ma?: (ma: MachineAutoscalerObject) => void;
  mapi?: ((ms: MachineAPIMachineSetObject) => void) | null;
  capi?: ((ms: ClusterAPIMachineSetObject) => void) | null;
  extraMachineAutoscalers?: MachineAutoscalerObject[];
  extraMachineAPI?: MachineAPIMachineSetObject[];
  extraClusterAPI?: ClusterAPIMachineSetObject[];
  clusterAutoscalers?: KubeObject[];
  context?: Partial<MachineAssessmentContext>;
}

/**
 * The healthy cluster: `worker-us-east-1a` owns the MachineAPI-authoritative AWS set, whose paused CAPI mirror
 * exists; a ClusterAutoscaler `default` exists. Edits set `mapi`/`capi` to null to drop that copy.
 */
function cluster(edits: Edits = {}): AssessMachineAutoscalersInput {
  const machineAPI = edits.mapi === null ? [] : [mapiMachineSet(edits.mapi)];
  const clusterAPI = edits.capi === null ? [] : [capiMirror(edits.capi)];
  return {
    machineAutoscalers: [machineAutoscaler(edits.ma), ...(edits.extraMachineAutoscalers ?? [])],
    machineSets: {
      machineAPI: [...machineAPI, ...(edits.extraMachineAPI ?? [])],
      clusterAPI: [...clusterAPI, ...(edits.extraClusterAPI ?? [])],
    },
    clusterAutoscalers: edits.clusterAutoscalers ?? [clusterAutoscaler()],
    infrastructureTemplates: [awsMachineTemplate()],
    events: [...coreEvents(), ...eventsV1()],
    context: { ...CONTEXT, ...edits.context },
  };
}

const seenCodes = new Set<MachineFindingCode>();

function assess(input: AssessMachineAutoscalersInput): Map<string, MachineAutoscalerVerdict> {
  const verdicts = assessMachineAutoscalers(input);
  for (const verdict of verdicts) for (const item of verdict.findings) seenCodes.add(item.code);
  return new Map(verdicts.map((verdict) => [verdict.machineAutoscaler, verdict]));
}

function verdictOf(input: AssessMachineAutoscalersInput, key = MA): MachineAutoscalerVerdict {
  const verdict = assess(input).get(key);
  if (!verdict) throw new Error(`no verdict for ${key}`);
  return verdict;
}

/** Hands the MAPI set to ClusterAPI (migration finished) and makes its CAPI mirror the autoscaled copy. */
function clusterAPIAuthoritative(ms: MachineAPIMachineSetObject): void {
  ms.spec = { ...ms.spec, authoritativeAPI: 'ClusterAPI' };
  ms.status = { ...ms.status, authoritativeAPI: 'ClusterAPI', synchronizedAPI: 'ClusterAPI' };
}

function unpausedWithCapiBounds(ms: ClusterAPIMachineSetObject, min = '1', max = '6'): void {
  annotate(ms, { 'cluster.x-k8s.io/paused': null, [CAPI_MIN_KEY]: min, [CAPI_MAX_KEY]: max });
}

function secondMachineAutoscaler(name: string, created: string, uid: string, edit?: (ma: MachineAutoscalerObject) => void) {
  return machineAutoscaler((ma) => {
    renameMachineAutoscaler(ma, name, created, uid);
    edit?.(ma);
  });
}

interface Case {
  name: string;
  input: () => AssessMachineAutoscalersInput;
  key?: string;
  findings: MachineFinding[];
  ready: MachineAutoscalerVerdict['derivedReady'];
}

const READY = { status: 'True', reason: 'MachineAutoscalerReady', message: 'MachineAutoscaler ready for autoscaling' } as const;

function falseBecause(item: MachineFinding): MachineAutoscalerVerdict['derivedReady'] {
  return { status: 'False', reason: item.code, message: item.message };
}

const notReconciled: MachineFinding = {
  code: 'MachineAutoscalerNotReconciled',
  severity: 'error',
  message:
    'MachineAutoscaler is in namespace default; the cluster-autoscaler-operator only reconciles MachineAutoscalers in openshift-machine-api',
};

const caMissing: MachineFinding = {
  code: 'ClusterAutoscalerMissing',
  severity: 'warning',
  message: 'no ClusterAutoscaler named "default" exists; MachineAutoscaler annotations have no effect until one is created',
};

const cases: Case[] = [
  { name: 'healthy MachineAPI-authoritative set with its paused CAPI mirror', input: () => cluster(), findings: [], ready: READY },
  {
    name: 'MachineAutoscaler outside openshift-machine-api is never reconciled, so the target keeps a dangling owner',
    key: 'default/worker-us-east-1a',
    input: () => cluster({ ma: (ma) => (ma.metadata.namespace = 'default') }),
    findings: [
      notReconciled,
      {
        code: 'MachineAutoscalerTargetOwnedByAnother',
        severity: 'error',
        message: `MachineSet ${WORKER_1A} is annotated as owned by openshift-machine-api/worker-us-east-1a, which does not exist; remove annotation autoscaling.openshift.io/machineautoscaler`,
      },
    ],
    ready: falseBecause(notReconciled),
  },
  {
    name: 'min == max is a valid spec',
    input: () => cluster({ ma: (ma) => (ma.spec = { ...ma.spec, minReplicas: 6 }), mapi: (ms) => annotate(ms, { [MIN_KEY]: '6' }) }),
    findings: [],
    ready: READY,
  },
  {
    name: 'min > max is InvalidSpec, and the equal annotations cannot help (max < min)',
    input: () =>
      cluster({
        ma: (ma) => (ma.spec = { ...ma.spec, minReplicas: 7 }),
        mapi: (ms) => annotate(ms, { [MIN_KEY]: '7' }),
      }),
    findings: [
      { code: 'MachineAutoscalerInvalidSpec', severity: 'error', message: 'minReplicas (7) is greater than maxReplicas (6)' },
      {
        code: 'MachineAutoscalerTargetAnnotationsMismatch',
        severity: 'error',
        message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=7, max=6) do not match spec (min=7, max=6)`,
      },
    ],
    ready: falseBecause({
      code: 'MachineAutoscalerInvalidSpec',
      severity: 'error',
      message: 'minReplicas (7) is greater than maxReplicas (6)',
    }),
  },
  {
    name: 'max 0 (schema minimum 1, admitted while the webhook was down) with max-0 annotations',
    input: () =>
      cluster({
        ma: (ma) => (ma.spec = { ...ma.spec, minReplicas: 0, maxReplicas: 0 }),
        mapi: (ms) => annotate(ms, { [MIN_KEY]: '0', [MAX_KEY]: '0' }),
      }),
    findings: [
      { code: 'MachineAutoscalerInvalidSpec', severity: 'error', message: 'maxReplicas (0) must be 1 or greater' },
      {
        code: 'MachineAutoscalerTargetAnnotationsMismatch',
        severity: 'error',
        message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=0, max=0) do not match spec (min=0, max=0)`,
      },
    ],
    ready: falseBecause({ code: 'MachineAutoscalerInvalidSpec', severity: 'error', message: 'maxReplicas (0) must be 1 or greater' }),
  },
  {
    name: 'a MachineDeployment ref is unsupported, and nothing else is checked (not even the ClusterAutoscaler)',
    input: () => cluster({ ma: (ma) => targetRef(ma, MAPI_V1BETA1, WORKER_1A, 'MachineDeployment'), clusterAutoscalers: [] }),
    findings: [
      {
        code: 'MachineAutoscalerUnsupportedTarget',
        severity: 'error',
        message:
          'scaleTargetRef machine.openshift.io/v1beta1, Kind=MachineDeployment is not a supported target; supported: machine.openshift.io/v1beta1 MachineSet, cluster.x-k8s.io/v1beta1 MachineSet, cluster.x-k8s.io/v1beta2 MachineSet',
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerUnsupportedTarget',
      message:
        'scaleTargetRef machine.openshift.io/v1beta1, Kind=MachineDeployment is not a supported target; supported: machine.openshift.io/v1beta1 MachineSet, cluster.x-k8s.io/v1beta1 MachineSet, cluster.x-k8s.io/v1beta2 MachineSet',
    },
  },
  {
    name: 'a CAPI ref is unsupported by the shipped operator (exact GVK match against machine.openshift.io/v1beta1)',
    input: () => cluster({ ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A), context: { operatorSupportsClusterAPITargets: false } }),
    findings: [
      {
        code: 'MachineAutoscalerUnsupportedTarget',
        severity: 'error',
        message:
          'scaleTargetRef cluster.x-k8s.io/v1beta2, Kind=MachineSet is not a supported target; supported: machine.openshift.io/v1beta1 MachineSet',
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerUnsupportedTarget',
      message:
        'scaleTargetRef cluster.x-k8s.io/v1beta2, Kind=MachineSet is not a supported target; supported: machine.openshift.io/v1beta1 MachineSet',
    },
  },
  {
    name: 'a typo in the target name: not found, no hint because no other group has the name',
    input: () => cluster({ ma: (ma) => targetRef(ma, MAPI_V1BETA1, 'prod-east-7k2xq-worker-us-east-1x') }),
    findings: [
      {
        code: 'MachineAutoscalerTargetNotFound',
        severity: 'error',
        message: 'MachineSet prod-east-7k2xq-worker-us-east-1x not found in namespace openshift-machine-api (machine.openshift.io)',
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetNotFound',
      message: 'MachineSet prod-east-7k2xq-worker-us-east-1x not found in namespace openshift-machine-api (machine.openshift.io)',
    },
  },
  {
    name: 'a MAPI ref to a standalone CAPI set: not found, with a hint to the CAPI apiVersion actually served',
    input: () => cluster({ ma: (ma) => targetRef(ma, MAPI_V1BETA1, GPU_1B), extraClusterAPI: [capiV1beta1MachineSet()] }),
    findings: [
      {
        code: 'MachineAutoscalerTargetNotFound',
        severity: 'error',
        message: `MachineSet ${GPU_1B} not found in namespace openshift-machine-api (machine.openshift.io); a cluster.x-k8s.io MachineSet with that name exists in openshift-cluster-api: set scaleTargetRef.apiVersion to cluster.x-k8s.io/v1beta1`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetNotFound',
      message: `MachineSet ${GPU_1B} not found in namespace openshift-machine-api (machine.openshift.io); a cluster.x-k8s.io MachineSet with that name exists in openshift-cluster-api: set scaleTargetRef.apiVersion to cluster.x-k8s.io/v1beta1`,
    },
  },
  {
    name: 'the same, but the shipped operator cannot take CAPI refs, so no hint towards one',
    input: () =>
      cluster({
        ma: (ma) => targetRef(ma, MAPI_V1BETA1, GPU_1B),
        extraClusterAPI: [capiV1beta1MachineSet()],
        context: { operatorSupportsClusterAPITargets: false },
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetNotFound',
        severity: 'error',
        message: `MachineSet ${GPU_1B} not found in namespace openshift-machine-api (machine.openshift.io)`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetNotFound',
      message: `MachineSet ${GPU_1B} not found in namespace openshift-machine-api (machine.openshift.io)`,
    },
  },
  {
    name: 'a CAPI set that exists only outside openshift-cluster-api is in the wrong namespace',
    input: () =>
      cluster({
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, GPU_1B),
        extraClusterAPI: [capiV1beta1MachineSet((ms) => (ms.metadata.namespace = 'capi-system'))],
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetWrongNamespace',
        severity: 'error',
        message: `MachineSet ${GPU_1B} (cluster.x-k8s.io) was found in namespace capi-system, but cluster.x-k8s.io targets must be in openshift-cluster-api`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetWrongNamespace',
      message: `MachineSet ${GPU_1B} (cluster.x-k8s.io) was found in namespace capi-system, but cluster.x-k8s.io targets must be in openshift-cluster-api`,
    },
  },
  {
    name: 'a MAPI ref to a ClusterAPI-authoritative set: non-authoritative, and the CAPI copy is still paused and unannotated',
    input: () => cluster({ mapi: clusterAPIAuthoritative }),
    findings: [
      {
        code: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
        severity: 'error',
        message: `targetScaleRef is not the authoritative resource: ClusterAPI is authoritative for MachineSet ${WORKER_1A}; reference cluster.x-k8s.io/v1beta2 MachineSet ${WORKER_1A} instead`,
      },
      {
        code: 'MachineAutoscalerTargetPaused',
        severity: 'error',
        message: `authoritative MachineSet openshift-cluster-api/${WORKER_1A} carries cluster.x-k8s.io/paused; the cluster autoscaler skips paused node groups`,
      },
      {
        code: 'MachineAutoscalerTargetAnnotationsMissing',
        severity: 'error',
        message: `authoritative MachineSet openshift-cluster-api/${WORKER_1A} is missing annotation(s) ${CAPI_MIN_KEY}, ${CAPI_MAX_KEY}; the cluster autoscaler will not manage it as a node group`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
      message: `targetScaleRef is not the authoritative resource: ClusterAPI is authoritative for MachineSet ${WORKER_1A}; reference cluster.x-k8s.io/v1beta2 MachineSet ${WORKER_1A} instead`,
    },
  },
  {
    name: 'a CAPI ref to a MachineAPI-authoritative set is non-authoritative',
    input: () => cluster({ ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A) }),
    findings: [
      {
        code: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
        severity: 'error',
        message: `targetScaleRef is not the authoritative resource: MachineAPI is authoritative for MachineSet ${WORKER_1A}; reference machine.openshift.io/v1beta1 MachineSet ${WORKER_1A} instead`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerNonAuthoritativeTargetScaleRef',
      message: `targetScaleRef is not the authoritative resource: MachineAPI is authoritative for MachineSet ${WORKER_1A}; reference machine.openshift.io/v1beta1 MachineSet ${WORKER_1A} instead`,
    },
  },
  {
    name: 'the CAPI ref once the migration finished and the CAPI copy carries the cluster.x-k8s.io bounds',
    input: () =>
      cluster({
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A),
        mapi: clusterAPIAuthoritative,
        capi: (ms) => unpausedWithCapiBounds(ms),
      }),
    findings: [],
    ready: READY,
  },
  {
    name: 'Migrating towards ClusterAPI with a MAPI ref: Unknown, and the message names the ref to switch to',
    input: () =>
      cluster({
        mapi: (ms) => {
          ms.spec = { ...ms.spec, authoritativeAPI: 'ClusterAPI' };
          ms.status = { ...ms.status, authoritativeAPI: 'Migrating' };
        },
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetMigrating',
        severity: 'unknown',
        message: `MachineSet ${WORKER_1A} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes; afterwards this MachineAutoscaler must reference cluster.x-k8s.io/v1beta2 MachineSet ${WORKER_1A}`,
      },
    ],
    ready: {
      status: 'Unknown',
      reason: 'MachineAutoscalerTargetMigrating',
      message: `MachineSet ${WORKER_1A} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes; afterwards this MachineAutoscaler must reference cluster.x-k8s.io/v1beta2 MachineSet ${WORKER_1A}`,
    },
  },
  {
    name: 'Migrating with a ref already on the destination group: no suffix; a warning does not lift Unknown',
    input: () =>
      cluster({
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A),
        mapi: (ms) => {
          ms.spec = { ...ms.spec, authoritativeAPI: 'ClusterAPI' };
          ms.status = { ...ms.status, authoritativeAPI: 'Migrating' };
        },
        clusterAutoscalers: [],
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetMigrating',
        severity: 'unknown',
        message: `MachineSet ${WORKER_1A} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes`,
      },
      caMissing,
    ],
    ready: {
      status: 'Unknown',
      reason: 'MachineAutoscalerTargetMigrating',
      message: `MachineSet ${WORKER_1A} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes`,
    },
  },
  {
    name: 'Migrating and being deleted: the error wins over Unknown',
    input: () =>
      cluster({
        mapi: (ms) => {
          ms.status = { ...ms.status, authoritativeAPI: 'Migrating' };
          ms.metadata.deletionTimestamp = '2026-08-05T10:00:00Z';
        },
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetMigrating',
        severity: 'unknown',
        message: `MachineSet ${WORKER_1A} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes`,
      },
      { code: 'MachineAutoscalerTargetDeleting', severity: 'error', message: `MachineSet ${WORKER_1A} is being deleted` },
    ],
    ready: { status: 'False', reason: 'MachineAutoscalerTargetDeleting', message: `MachineSet ${WORKER_1A} is being deleted` },
  },
  {
    name: 'an unpaused ClusterAPI-authoritative copy is not Paused (boundary of the paused rule)',
    input: () =>
      cluster({
        mapi: clusterAPIAuthoritative,
        capi: (ms) => unpausedWithCapiBounds(ms),
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A),
      }),
    findings: [],
    ready: READY,
  },
  {
    name: 'a stale MAPI Paused=True condition on a MachineAPI-authoritative set is not the cluster.x-k8s.io/paused annotation',
    input: () =>
      cluster({
        mapi: (ms) => {
          ms.status = {
            ...ms.status,
            conditions: [
              {
                type: 'Paused',
                status: 'True',
                reason: 'AuthoritativeAPINotMachineAPI',
                message: "The AuthoritativeAPI status is set to 'Migrating'",
                lastTransitionTime: '2026-08-05T09:59:58Z',
              },
            ],
          };
        },
      }),
    findings: [],
    ready: READY,
  },
  {
    name: 'an empty cluster.x-k8s.io/paused value still pauses (the autoscaler checks the key only)',
    input: () =>
      cluster({
        mapi: clusterAPIAuthoritative,
        capi: (ms) => {
          unpausedWithCapiBounds(ms);
          annotate(ms, { 'cluster.x-k8s.io/paused': '' });
        },
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A),
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetPaused',
        severity: 'error',
        message: `authoritative MachineSet openshift-cluster-api/${WORKER_1A} carries cluster.x-k8s.io/paused; the cluster autoscaler skips paused node groups`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetPaused',
      message: `authoritative MachineSet openshift-cluster-api/${WORKER_1A} carries cluster.x-k8s.io/paused; the cluster autoscaler skips paused node groups`,
    },
  },
  {
    name: 'machinetarget_test.go TestGetOwner "Malformed owner": a malformed owner names no MachineAutoscaler',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [OWNER_KEY]: 'too/many/parts/here' }) }),
    findings: [
      {
        code: 'MachineAutoscalerTargetOwnedByAnother',
        severity: 'error',
        message: `MachineSet ${WORKER_1A} is annotated as owned by too/many/parts/here, which does not exist; remove annotation autoscaling.openshift.io/machineautoscaler`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetOwnedByAnother',
      message: `MachineSet ${WORKER_1A} is annotated as owned by too/many/parts/here, which does not exist; remove annotation autoscaling.openshift.io/machineautoscaler`,
    },
  },
  {
    // Beyond §6 row 11: machinetarget.go SetOwner returns ErrTargetAlreadyOwned for any owner string but the
    // reconciling MachineAutoscaler's own, whether or not that owner exists.
    name: 'machinetarget.go SetOwner: an owner that exists but targets another MachineSet (left by a retarget) still blocks this one',
    input: () =>
      cluster({
        mapi: (ms) => annotate(ms, { [OWNER_KEY]: 'openshift-machine-api/worker-us-east-1b' }),
        extraMachineAutoscalers: [
          secondMachineAutoscaler('worker-us-east-1b', '2026-03-10T14:02:15Z', '6d1f0c3a-92e8-4b57-a1d4-c8e3f9b07a62', (ma) =>
            targetRef(ma, MAPI_V1BETA1, 'prod-east-7k2xq-worker-us-east-1b'),
          ),
        ],
      }),
    findings: [
      {
        code: 'MachineAutoscalerTargetOwnedByAnother',
        severity: 'error',
        message: `MachineSet ${WORKER_1A} is annotated as owned by openshift-machine-api/worker-us-east-1b, which targets MachineSet prod-east-7k2xq-worker-us-east-1b; remove annotation autoscaling.openshift.io/machineautoscaler`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetOwnedByAnother',
      message: `MachineSet ${WORKER_1A} is annotated as owned by openshift-machine-api/worker-us-east-1b, which targets MachineSet prod-east-7k2xq-worker-us-east-1b; remove annotation autoscaling.openshift.io/machineautoscaler`,
    },
  },
  {
    name: 'machinetarget.go SetOwner: the owner annotation naming this MachineAutoscaler itself is its claim, not a problem',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [OWNER_KEY]: 'openshift-machine-api/worker-us-east-1a' }) }),
    findings: [],
    ready: READY,
  },
  {
    name: 'machinetarget_test.go TestGetLimits "No annotations": both bounds missing',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [MIN_KEY]: null, [MAX_KEY]: null }) }),
    findings: [
      {
        code: 'MachineAutoscalerTargetAnnotationsMissing',
        severity: 'error',
        message: `authoritative MachineSet openshift-machine-api/${WORKER_1A} is missing annotation(s) ${MIN_KEY}, ${MAX_KEY}; the cluster autoscaler will not manage it as a node group`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetAnnotationsMissing',
      message: `authoritative MachineSet openshift-machine-api/${WORKER_1A} is missing annotation(s) ${MIN_KEY}, ${MAX_KEY}; the cluster autoscaler will not manage it as a node group`,
    },
  },
  {
    name: 'only the max bound missing',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [MAX_KEY]: null }) }),
    findings: [
      {
        code: 'MachineAutoscalerTargetAnnotationsMissing',
        severity: 'error',
        message: `authoritative MachineSet openshift-machine-api/${WORKER_1A} is missing annotation(s) ${MAX_KEY}; the cluster autoscaler will not manage it as a node group`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetAnnotationsMissing',
      message: `authoritative MachineSet openshift-machine-api/${WORKER_1A} is missing annotation(s) ${MAX_KEY}; the cluster autoscaler will not manage it as a node group`,
    },
  },
  {
    name: 'machinetarget_test.go TestNeedsUpdate "Different min and max": a hand-edited max is a mismatch',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [MAX_KEY]: '5' }) }),
    findings: [
      {
        code: 'MachineAutoscalerTargetAnnotationsMismatch',
        severity: 'error',
        message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=1, max=5) do not match spec (min=1, max=6)`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetAnnotationsMismatch',
      message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=1, max=5) do not match spec (min=1, max=6)`,
    },
  },
  {
    name: 'machinetarget_test.go TestNeedsUpdate "Error parsing values": unparsable bounds are a mismatch',
    input: () => cluster({ mapi: (ms) => annotate(ms, { [MIN_KEY]: 'not-an-int', [MAX_KEY]: 'not-an-int' }) }),
    findings: [
      {
        code: 'MachineAutoscalerTargetAnnotationsMismatch',
        severity: 'error',
        message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=not-an-int, max=not-an-int) do not match spec (min=1, max=6)`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerTargetAnnotationsMismatch',
      message: `annotations on authoritative MachineSet openshift-machine-api/${WORKER_1A} (min=not-an-int, max=not-an-int) do not match spec (min=1, max=6)`,
    },
  },
  {
    name: 'replicas 0 with the deprecated vCPU/memoryMb capacity can scale from zero',
    input: () => cluster({ mapi: (ms) => (ms.spec = { ...ms.spec, replicas: 0 }) }),
    findings: [],
    ready: READY,
  },
  {
    name: 'replicas 0 without capacity information: the node group is ignored',
    input: () =>
      cluster({
        mapi: (ms) => {
          ms.spec = { ...ms.spec, replicas: 0 };
          annotate(ms, { 'machine.openshift.io/vCPU': null, 'machine.openshift.io/memoryMb': null });
        },
      }),
    findings: [
      {
        code: 'MachineAutoscalerScaleFromZeroUnsupported',
        severity: 'error',
        message: `MachineSet ${WORKER_1A} has 0 replicas and no CPU/memory capacity information (${MAPI_CAPACITY_WHERE}); the cluster autoscaler cannot build a node template and ignores this node group`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerScaleFromZeroUnsupported',
      message: `MachineSet ${WORKER_1A} has 0 replicas and no CPU/memory capacity information (${MAPI_CAPACITY_WHERE}); the cluster autoscaler cannot build a node template and ignores this node group`,
    },
  },
  {
    name: 'minReplicas 0 without capacity information is a warning while replicas > 0',
    input: () =>
      cluster({
        ma: (ma) => (ma.spec = { ...ma.spec, minReplicas: 0 }),
        mapi: (ms) => annotate(ms, { [MIN_KEY]: '0', 'machine.openshift.io/vCPU': null, 'machine.openshift.io/memoryMb': null }),
      }),
    findings: [
      {
        code: 'MachineAutoscalerScaleFromZeroUnsupported',
        severity: 'warning',
        message: `minReplicas is 0 but MachineSet ${WORKER_1A} has no CPU/memory capacity information (${MAPI_CAPACITY_WHERE}); once scaled to zero the cluster autoscaler cannot scale it back up`,
      },
    ],
    ready: READY,
  },
  {
    name: 'a CAPI set at 0 replicas sized by its AWSMachineTemplate status.capacity can scale from zero',
    key: 'openshift-machine-api/gpu-us-east-1b',
    input: () => ({
      ...cluster({ extraClusterAPI: [capiV1beta1MachineSet()] }),
      machineAutoscalers: [pr402MachineAutoscaler()],
    }),
    findings: [],
    ready: READY,
  },
  {
    name: 'the same CAPI set whose infrastructure template is missing',
    key: 'openshift-machine-api/gpu-us-east-1b',
    input: () => ({
      ...cluster({ extraClusterAPI: [capiV1beta1MachineSet()] }),
      machineAutoscalers: [pr402MachineAutoscaler()],
      infrastructureTemplates: [],
    }),
    findings: [
      {
        code: 'MachineAutoscalerScaleFromZeroUnsupported',
        severity: 'error',
        message: `MachineSet ${GPU_1B} has 0 replicas and no CPU/memory capacity information (checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory; infrastructure template AWSMachineTemplate openshift-cluster-api/${GPU_1B} not found); the cluster autoscaler cannot build a node template and ignores this node group`,
      },
    ],
    ready: {
      status: 'False',
      reason: 'MachineAutoscalerScaleFromZeroUnsupported',
      message: `MachineSet ${GPU_1B} has 0 replicas and no CPU/memory capacity information (checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory; infrastructure template AWSMachineTemplate openshift-cluster-api/${GPU_1B} not found); the cluster autoscaler cannot build a node template and ignores this node group`,
    },
  },
  {
    name: 'a MAPI set with GPUs but no cluster-api/accelerator template label',
    input: () => cluster({ mapi: (ms) => annotate(ms, { 'machine.openshift.io/GPU': '1' }) }),
    findings: [
      {
        code: 'GPUAcceleratorLabelMissing',
        severity: 'warning',
        message: `GPU accelerator label not found on MachineSet ${WORKER_1A} (spec.template.spec.metadata.labels["cluster-api/accelerator"]); GPU resource limits of the ClusterAutoscaler cannot be applied to this node group`,
      },
    ],
    ready: READY,
  },
  {
    name: 'the same set labelled cluster-api/accelerator=nvidia-a10g',
    input: () =>
      cluster({
        mapi: (ms) => {
          annotate(ms, { 'machine.openshift.io/GPU': '1' });
          const template = ms.spec?.template ?? {};
          ms.spec = {
            ...ms.spec,
            template: { ...template, spec: { ...template.spec, metadata: { labels: { 'cluster-api/accelerator': 'nvidia-a10g' } } } },
          };
        },
      }),
    findings: [],
    ready: READY,
  },
  {
    name: 'no ClusterAutoscaler at all: a warning, Ready stays True',
    input: () => cluster({ clusterAutoscalers: [] }),
    findings: [caMissing],
    ready: READY,
  },
  {
    name: 'a ClusterAutoscaler not named default is ignored by the operator',
    input: () => cluster({ clusterAutoscalers: [clusterAutoscaler((ca) => (ca.metadata.name = 'production'))] }),
    findings: [caMissing],
    ready: READY,
  },
  {
    name: 'the MAPI→CAPI sync failing is informational',
    input: () =>
      cluster({
        mapi: (ms) => {
          ms.status = {
            ...ms.status,
            conditions: [
              {
                type: 'Synchronized',
                status: 'False',
                reason: 'FailedToConvertMAPIMachineSetToCAPI',
                message:
                  'failed to convert Machine API machine set to Cluster API machine set: spec.providerSpec.value.metadataServiceOptions.authentication: Invalid value',
                severity: 'Error',
                lastTransitionTime: '2026-08-04T09:12:44Z',
              },
            ],
          };
        },
      }),
    findings: [
      {
        code: 'TargetMirrorNotSynchronized',
        severity: 'info',
        message: `Machine API MachineSet ${WORKER_1A} is not synchronized to Cluster API (Synchronized=False, reason FailedToConvertMAPIMachineSetToCAPI)`,
      },
    ],
    ready: READY,
  },
  {
    name: 'the CAPI→MAPI sync failing on a ClusterAPI-authoritative set reads "from"',
    input: () =>
      cluster({
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, WORKER_1A),
        capi: (ms) => unpausedWithCapiBounds(ms),
        mapi: (ms) => {
          clusterAPIAuthoritative(ms);
          ms.status = {
            ...ms.status,
            conditions: [
              {
                type: 'Synchronized',
                status: 'False',
                reason: 'FailedToConvertCAPIMachineSetToMAPI',
                severity: 'Error',
                lastTransitionTime: '2026-08-04T09:12:44Z',
              },
            ],
          };
        },
      }),
    findings: [
      {
        code: 'TargetMirrorNotSynchronized',
        severity: 'info',
        message: `Machine API MachineSet ${WORKER_1A} is not synchronized from Cluster API (Synchronized=False, reason FailedToConvertCAPIMachineSetToMAPI)`,
      },
    ],
    ready: READY,
  },
];

describe('assessMachineAutoscalers: findings and derived Ready (docs/engines/machine.md §6–§7)', () => {
  it.each(cases)('$name', ({ input, key, findings, ready }) => {
    const verdict = verdictOf(input(), key);
    expect(verdict.findings).toEqual(findings);
    expect(verdict.derivedReady).toEqual(ready);
  });
});

describe('InvalidSpec: validator_test.go TestValidate and the schema bounds', () => {
  const table = [
    { name: 'validator_test.go TestValidate "MachineAutoscaler is valid"', min: 2, max: 8, message: null },
    {
      name: 'validator_test.go TestValidate "MachineAutoscaler has negative MinReplicas"',
      min: -10,
      max: 8,
      message: 'minReplicas (-10) must be 0 or greater',
    },
    {
      name: 'validator_test.go TestValidate "MachineAutoscaler has negative MaxReplicas"',
      min: 2,
      max: -10,
      message: 'minReplicas (2) is greater than maxReplicas (-10)',
    },
    {
      name: 'validator_test.go TestValidate "MachineAutoscaler has MaxReplicas lower than MinReplicas"',
      min: 8,
      max: 2,
      message: 'minReplicas (8) is greater than maxReplicas (2)',
    },
    { name: 'min 0, max 1: the smallest valid spec', min: 0, max: 1, message: null },
    { name: 'min 0, max 0: the schema minimum of maxReplicas', min: 0, max: 0, message: 'maxReplicas (0) must be 1 or greater' },
  ];
  it.each(table)('$name', ({ min, max, message }) => {
    const verdict = verdictOf(
      cluster({
        ma: (ma) => (ma.spec = { ...ma.spec, minReplicas: min, maxReplicas: max }),
        mapi: (ms) => annotate(ms, { [MIN_KEY]: String(min), [MAX_KEY]: String(max) }),
      }),
    );
    const invalid = verdict.findings.filter((item) => item.code === 'MachineAutoscalerInvalidSpec');
    expect(invalid).toEqual(message === null ? [] : [{ code: 'MachineAutoscalerInvalidSpec', severity: 'error', message }]);
  });

  it('a spec without minReplicas (CRD requires it) is invalid, not a crash', () => {
    const verdict = verdictOf(cluster({ ma: (ma) => (ma.spec = { maxReplicas: 6, scaleTargetRef: ma.spec?.scaleTargetRef }) }));
    expect(verdict.findings.map((item) => item.message)).toEqual(['spec.minReplicas is missing or not an integer']);
  });
});

describe('UnsupportedTarget: machineautoscaler_controller_test.go TestValidateReference and docs/engines/machine.md §6 row 3', () => {
  const table: { name: string; apiVersion: string; kind: string; targetName: string; capi: boolean; supported: boolean }[] = [
    { name: 'TestValidateReference "no name"', apiVersion: '', kind: '', targetName: '', capi: true, supported: false },
    { name: 'TestValidateReference "unsupported gvk"', apiVersion: 'bad', kind: 'bad', targetName: 'test', capi: true, supported: false },
    {
      name: 'TestValidateReference "valid reference"',
      apiVersion: MAPI_V1BETA1,
      kind: 'MachineSet',
      targetName: 'test',
      capi: false,
      supported: true,
    },
    {
      name: 'machine.openshift.io/v1 is not v1beta1 (exact version match)',
      apiVersion: 'machine.openshift.io/v1',
      kind: 'MachineSet',
      targetName: WORKER_1A,
      capi: true,
      supported: false,
    },
    {
      name: 'cluster.x-k8s.io/v1beta1 with an enhancement-era operator',
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      targetName: GPU_1B,
      capi: true,
      supported: true,
    },
    {
      name: 'cluster.x-k8s.io/v1beta2 with an enhancement-era operator',
      apiVersion: CAPI_V1BETA2,
      kind: 'MachineSet',
      targetName: GPU_1B,
      capi: true,
      supported: true,
    },
    {
      name: 'cluster.x-k8s.io/v1beta2 with the shipped operator',
      apiVersion: CAPI_V1BETA2,
      kind: 'MachineSet',
      targetName: GPU_1B,
      capi: false,
      supported: false,
    },
    {
      name: 'cluster.x-k8s.io/v1alpha4 is no longer served',
      apiVersion: 'cluster.x-k8s.io/v1alpha4',
      kind: 'MachineSet',
      targetName: GPU_1B,
      capi: true,
      supported: false,
    },
    {
      name: 'a MachineDeployment of the CAPI group',
      apiVersion: CAPI_V1BETA2,
      kind: 'MachineDeployment',
      targetName: GPU_1B,
      capi: true,
      supported: false,
    },
  ];
  it.each(table)('$name', ({ apiVersion, kind, targetName, capi, supported }) => {
    const verdict = verdictOf(
      cluster({
        ma: (ma) => targetRef(ma, apiVersion, targetName, kind),
        extraClusterAPI: [capiV1beta1MachineSet()],
        context: { operatorSupportsClusterAPITargets: capi },
      }),
    );
    expect(verdict.findings.some((item) => item.code === 'MachineAutoscalerUnsupportedTarget')).toBe(!supported);
  });

  it('still resolves an unsupported CAPI ref, so the UI can show that the set exists', () => {
    const verdict = verdictOf(
      cluster({
        ma: (ma) => targetRef(ma, CAPI_V1BETA2, GPU_1B),
        extraClusterAPI: [capiV1beta1MachineSet()],
        context: { operatorSupportsClusterAPITargets: false },
      }),
    );
    expect(verdict.target).toMatchObject({
      found: true,
      authoritativeAPI: 'ClusterAPI',
      refIsAuthoritative: true,
      expectedNamespace: 'openshift-cluster-api',
    });
    expect(verdict.findings.map((item) => item.code)).toEqual(['MachineAutoscalerUnsupportedTarget']);
  });
});

describe('duplicate owners (docs/engines/machine.md §7 step 4)', () => {
  const COPY = 'openshift-machine-api/worker-us-east-1a-copy';
  const copyUid = 'b7c4e2a9-61d0-4f83-a5b6-0e9d2c7f1834';

  function duplicateMessage(winner: string): string {
    return `targetScaleRef has multiple MachineAutoscaler owners: MachineSet ${WORKER_1A} is already autoscaled by ${winner}`;
  }

  function codesOf(verdicts: Map<string, MachineAutoscalerVerdict>, key: string): MachineFindingCode[] {
    return verdicts.get(key)?.findings.map((item) => item.code) ?? [];
  }

  it('the owner annotation wins over age: the older MachineAutoscaler is the duplicate', () => {
    const verdicts = assess(
      cluster({
        mapi: (ms) => annotate(ms, { [OWNER_KEY]: COPY }),
        extraMachineAutoscalers: [secondMachineAutoscaler('worker-us-east-1a-copy', '2026-04-02T16:05:36Z', copyUid)],
      }),
    );
    expect(verdicts.get(MA)?.findings).toEqual([
      { code: 'MachineAutoscalerDuplicateTargetScaleRef', severity: 'error', message: duplicateMessage(COPY) },
    ]);
    expect(verdicts.get(COPY)?.findings).toEqual([]);
    expect(verdicts.get(COPY)?.derivedReady.status).toBe('True');
  });

  it('without an owner annotation the oldest wins; the duplicate skips the target checks (its max 8 is not a mismatch)', () => {
    const verdicts = assess(
      cluster({
        mapi: (ms) => annotate(ms, { [OWNER_KEY]: null }),
        extraMachineAutoscalers: [
          secondMachineAutoscaler(
            'worker-us-east-1a-copy',
            '2026-04-02T16:05:36Z',
            copyUid,
            (ma) => (ma.spec = { ...ma.spec, maxReplicas: 8 }),
          ),
        ],
      }),
    );
    expect(codesOf(verdicts, MA)).toEqual([]);
    expect(verdicts.get(COPY)?.findings).toEqual([
      { code: 'MachineAutoscalerDuplicateTargetScaleRef', severity: 'error', message: duplicateMessage(MA) },
    ]);
  });

  it('a MAPI/CAPI mirror pair counts as one set: the oldest MA on the authoritative copy beats an older non-authoritative one', () => {
    const CAPI_MA = 'openshift-machine-api/worker-us-east-1a-capi';
    const verdicts = assess(
      cluster({
        mapi: (ms) => {
          clusterAPIAuthoritative(ms);
          annotate(ms, { [OWNER_KEY]: null });
        },
        capi: (ms) => {
          unpausedWithCapiBounds(ms);
          annotate(ms, { [OWNER_KEY]: null });
        },
        extraMachineAutoscalers: [
          secondMachineAutoscaler('worker-us-east-1a-capi', '2026-08-01T08:00:00Z', '4c8e1a3f-0b27-4d95-9e6a-d2f7b0c31e58', (ma) =>
            targetRef(ma, CAPI_V1BETA2, WORKER_1A),
          ),
        ],
      }),
    );
    expect(codesOf(verdicts, CAPI_MA)).toEqual([]);
    expect(verdicts.get(MA)?.findings.map((item) => item.code)).toEqual([
      'MachineAutoscalerDuplicateTargetScaleRef',
      'MachineAutoscalerNonAuthoritativeTargetScaleRef',
    ]);
    expect(verdicts.get(MA)?.findings[0]?.message).toBe(duplicateMessage(CAPI_MA));
    expect(verdicts.get(MA)?.target.mirror).toEqual({
      apiVersion: CAPI_V1BETA2,
      kind: 'MachineSet',
      namespace: 'openshift-cluster-api',
      name: WORKER_1A,
    });
  });

  it('in a mirror pair the owner annotation on the authoritative copy beats authority and age', () => {
    const CAPI_MA = 'openshift-machine-api/worker-us-east-1a-capi';
    const verdicts = assess(
      cluster({
        mapi: clusterAPIAuthoritative,
        capi: (ms) => unpausedWithCapiBounds(ms),
        extraMachineAutoscalers: [
          secondMachineAutoscaler('worker-us-east-1a-capi', '2026-01-01T08:00:00Z', '4c8e1a3f-0b27-4d95-9e6a-d2f7b0c31e58', (ma) =>
            targetRef(ma, CAPI_V1BETA2, WORKER_1A),
          ),
        ],
      }),
    );
    // The mirror carries `openshift-machine-api/worker-us-east-1a` (copied MAPI→CAPI before the migration).
    expect(codesOf(verdicts, CAPI_MA)).toEqual(['MachineAutoscalerDuplicateTargetScaleRef']);
    expect(verdicts.get(CAPI_MA)?.findings[0]?.message).toBe(duplicateMessage(MA));
    expect(codesOf(verdicts, MA)).toEqual(['MachineAutoscalerNonAuthoritativeTargetScaleRef']);
  });

  it('equal ages fall back to the name: a-worker beats b-worker', () => {
    const created = '2026-06-01T00:00:00Z';
    const input = cluster({ mapi: (ms) => annotate(ms, { [OWNER_KEY]: null }) });
    const verdicts = assess({
      ...input,
      machineAutoscalers: [
        secondMachineAutoscaler('b-worker', created, '0e5f7a91-3c2d-4b68-8f14-a9d0c6e2b735'),
        secondMachineAutoscaler('a-worker', created, 'd83b2c60-7e1f-4a09-b5c7-1f6e4a9d2c08'),
      ],
    });
    expect(codesOf(verdicts, 'openshift-machine-api/a-worker')).toEqual([]);
    expect(verdicts.get('openshift-machine-api/b-worker')?.findings[0]?.message).toBe(duplicateMessage('openshift-machine-api/a-worker'));
  });

  it('an owner annotation naming an MA outside the group (invalid spec) falls back to age', () => {
    const INVALID = 'openshift-machine-api/worker-us-east-1a-invalid';
    const verdicts = assess(
      cluster({
        mapi: (ms) => annotate(ms, { [OWNER_KEY]: INVALID }),
        extraMachineAutoscalers: [
          secondMachineAutoscaler(
            'worker-us-east-1a-invalid',
            '2026-01-05T00:00:00Z',
            '2b6d9e04-8a13-4f7c-b0e5-93c1f8a2d647',
            (ma) => (ma.spec = { ...ma.spec, minReplicas: 9 }),
          ),
          secondMachineAutoscaler('worker-us-east-1a-copy', '2026-04-02T16:05:36Z', copyUid),
        ],
      }),
    );
    expect(codesOf(verdicts, INVALID)).toEqual(['MachineAutoscalerInvalidSpec', 'MachineAutoscalerTargetAnnotationsMismatch']);
    expect(codesOf(verdicts, MA)).toEqual([]);
    expect(verdicts.get(COPY)?.findings[0]?.message).toBe(duplicateMessage(MA));
  });

  it('a MachineAutoscaler the operator never reconciles does not make the reconciled one a duplicate', () => {
    const verdicts = assess(
      cluster({
        extraMachineAutoscalers: [
          secondMachineAutoscaler(
            'worker-us-east-1a',
            '2026-01-01T00:00:00Z',
            '91a0c7d5-e3b2-4f18-86c9-5d4e0b7a2f13',
            (ma) => (ma.metadata.namespace = 'default'),
          ),
        ],
      }),
    );
    expect(codesOf(verdicts, MA)).toEqual([]);
    expect(codesOf(verdicts, 'default/worker-us-east-1a')).toEqual(['MachineAutoscalerNotReconciled']);
  });
});

describe('authority (docs/engines/machine.md §5 recommended rule)', () => {
  /**
   * Ported from PR #402 machineautoscaler_controller_test.go TestValidateAuthoritativeAPI. The PR reads
   * `spec.authoritativeAPI` of the referenced copy and rejects a missing/empty/unknown value; the dashboard
   * follows docs/engines/machine.md §5 instead (MAPI copy's status, then spec, then MachineAPI), so those three cases read as
   * MachineAPI-authoritative here and are named with the upstream expectation they depart from.
   */
  const table: {
    name: string;
    ref: string;
    mapi: { spec?: string; status?: string } | null;
    authority: string | null;
    refIsAuthoritative: boolean | null;
  }[] = [
    {
      name: 'TestValidateAuthoritativeAPI "MachineAPI valid authoritativeAPI"',
      ref: MAPI_V1BETA1,
      mapi: { spec: 'MachineAPI', status: 'MachineAPI' },
      authority: 'MachineAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'TestValidateAuthoritativeAPI "ClusterAPI valid authoritativeAPI"',
      ref: CAPI_V1BETA2,
      mapi: { spec: 'ClusterAPI', status: 'ClusterAPI' },
      authority: 'ClusterAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'TestValidateAuthoritativeAPI "authoritativeAPI field does not exist" (upstream ErrAuthoritativeTypeNotExist; §5 default MachineAPI)',
      ref: MAPI_V1BETA1,
      mapi: {},
      authority: 'MachineAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'TestValidateAuthoritativeAPI "authoritativeAPI is empty string" (upstream ErrAuthoritativeTypeInvalid; §5 default MachineAPI)',
      ref: MAPI_V1BETA1,
      mapi: { spec: '', status: '' },
      authority: 'MachineAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'TestValidateAuthoritativeAPI "authoritativeAPI is Migrating"',
      ref: MAPI_V1BETA1,
      mapi: { spec: 'ClusterAPI', status: 'Migrating' },
      authority: 'Migrating',
      refIsAuthoritative: null,
    },
    {
      name: 'TestValidateAuthoritativeAPI "authoritativeAPI is unknown value" (upstream ErrAuthoritativeTypeInvalid; ignored, default MachineAPI)',
      ref: MAPI_V1BETA1,
      mapi: { status: 'test' },
      authority: 'MachineAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'TestValidateAuthoritativeAPI "MachineAPI authoritativeAPI but targetRef is ClusterAPI"',
      ref: CAPI_V1BETA2,
      mapi: { spec: 'MachineAPI', status: 'MachineAPI' },
      authority: 'MachineAPI',
      refIsAuthoritative: false,
    },
    {
      name: 'TestValidateAuthoritativeAPI "ClusterAPI authoritativeAPI but targetRef is MachineAPI"',
      ref: MAPI_V1BETA1,
      mapi: { spec: 'ClusterAPI', status: 'ClusterAPI' },
      authority: 'ClusterAPI',
      refIsAuthoritative: false,
    },
    {
      name: 'spec ClusterAPI, status MachineAPI: status is the effective authority',
      ref: MAPI_V1BETA1,
      mapi: { spec: 'ClusterAPI', status: 'MachineAPI' },
      authority: 'MachineAPI',
      refIsAuthoritative: true,
    },
    {
      name: 'spec ClusterAPI, status not yet written: spec decides',
      ref: MAPI_V1BETA1,
      mapi: { spec: 'ClusterAPI' },
      authority: 'ClusterAPI',
      refIsAuthoritative: false,
    },
    {
      name: 'a CAPI set without a MAPI copy is standalone and authoritative',
      ref: CAPI_V1BETA2,
      mapi: null,
      authority: 'ClusterAPI',
      refIsAuthoritative: true,
    },
  ];

  function setAuthority(ms: MachineAPIMachineSetObject, authority: { spec?: string; status?: string }): void {
    const spec = { ...ms.spec };
    const status = { ...ms.status };
    delete spec.authoritativeAPI;
    delete status.authoritativeAPI;
    if (authority.spec !== undefined) spec.authoritativeAPI = authority.spec;
    if (authority.status !== undefined) status.authoritativeAPI = authority.status;
    ms.spec = spec;
    ms.status = status;
  }

  it.each(table)('$name', ({ ref, mapi, authority, refIsAuthoritative }) => {
    const verdict = verdictOf(
      cluster({ ma: (ma) => targetRef(ma, ref, WORKER_1A), mapi: mapi === null ? null : (ms) => setAuthority(ms, mapi) }),
    );
    expect(verdict.target.authoritativeAPI).toBe(authority);
    expect(verdict.target.refIsAuthoritative).toBe(refIsAuthoritative);
    expect(verdict.findings.some((item) => item.code === 'MachineAutoscalerNonAuthoritativeTargetScaleRef')).toBe(
      refIsAuthoritative === false,
    );
    expect(verdict.findings.some((item) => item.code === 'MachineAutoscalerTargetMigrating')).toBe(authority === 'Migrating');
  });

  it('spec ≠ status is reported as a pending migration on the target, without changing the verdict', () => {
    const verdict = verdictOf(cluster({ mapi: (ms) => setAuthority(ms, { spec: 'ClusterAPI', status: 'MachineAPI' }) }));
    expect(verdict.target).toEqual({
      apiVersion: MAPI_V1BETA1,
      kind: 'MachineSet',
      name: WORKER_1A,
      expectedNamespace: 'openshift-machine-api',
      found: true,
      authoritativeAPI: 'MachineAPI',
      refIsAuthoritative: true,
      authoritativeCopy: { apiVersion: MAPI_V1BETA1, kind: 'MachineSet', namespace: 'openshift-machine-api', name: WORKER_1A },
      mirror: { apiVersion: CAPI_V1BETA2, kind: 'MachineSet', namespace: 'openshift-cluster-api', name: WORKER_1A },
      requestedAuthoritativeAPI: 'ClusterAPI',
      migrationPending: true,
    });
    expect(verdict.derivedReady.status).toBe('True');
  });

  it('the fixture pair agrees: no pending migration, authoritative copy is the MAPI set', () => {
    const verdict = verdictOf(cluster());
    expect(verdict.target.migrationPending).toBe(false);
    expect(verdict.target.authoritativeCopy?.namespace).toBe('openshift-machine-api');
  });

  it('authorityOf: a ClusterAPI authority whose CAPI copy is not created yet has no authoritative copy', () => {
    const mapi = toMachineSetView(mapiMachineSet(clusterAPIAuthoritative));
    expect(authorityOf(mapi, null)).toBe('ClusterAPI');
    const verdict = verdictOf(cluster({ mapi: clusterAPIAuthoritative, capi: null }));
    expect(verdict.target.authoritativeCopy).toBeNull();
    expect(verdict.findings.map((item) => item.message)).toEqual([
      `targetScaleRef is not the authoritative resource: ClusterAPI is authoritative for MachineSet ${WORKER_1A}; reference cluster.x-k8s.io/v1beta2 MachineSet ${WORKER_1A} instead`,
    ]);
  });
});

describe('operator events and operator Ready in the verdict', () => {
  it('lists the operator events about the MachineAutoscaler newest first, skipping a deleted namesake (other uid) and other reasons', () => {
    const verdict = verdictOf(cluster());
    expect(verdict.events).toEqual([
      {
        type: 'Normal',
        reason: 'SuccessfulUpdate',
        regardingKind: 'MachineAutoscaler',
        message: `Updated MachineAutoscaler target: openshift-machine-api/${WORKER_1A}`,
        timestamp: '2026-04-18T22:41:07Z',
        count: 14,
      },
      {
        type: 'Warning',
        reason: 'FailedGetTarget',
        regardingKind: 'MachineAutoscaler',
        message: `Error getting target: machinesets.machine.openshift.io "${WORKER_1A}" not found`,
        timestamp: '2026-03-10T14:02:11Z',
        count: 1,
      },
    ]);
  });

  it('reads events.k8s.io/v1 events (note, series) and the newest of several PR #402 Ready entries', () => {
    const verdict = verdictOf(
      { ...cluster({ extraClusterAPI: [capiV1beta1MachineSet()] }), machineAutoscalers: [pr402MachineAutoscaler()] },
      'openshift-machine-api/gpu-us-east-1b',
    );
    expect(verdict.events.map((event) => [event.reason, event.timestamp, event.count])).toEqual([
      ['SuccessfulUpdate', '2026-08-03T11:52:03.771940Z', 1],
      ['FailedUpdateTarget', '2026-08-03T11:51:40.118204Z', 5],
    ]);
    expect(verdict.operatorReady).toEqual({
      status: 'True',
      reason: 'MachineAutoscalerReady',
      message: 'MachineAutoscaler ready for autoscaling',
      lastTransitionTime: '2026-08-03T11:52:03Z',
    });
  });

  it('attaches the GPU label warning the operator records on the target MachineSet', () => {
    const gpuSet = mapiMachineSet((ms) => {
      ms.metadata.name = 'prod-east-7k2xq-gpu-us-east-1c';
      ms.metadata.uid = '94c0e6a3-1f7b-4d28-b5e9-3a8d2c6f0b17';
      annotate(ms, { [OWNER_KEY]: 'openshift-machine-api/gpu-us-east-1c', 'machine.openshift.io/GPU': '1' });
    });
    const verdict = verdictOf(
      cluster({
        extraMachineAPI: [gpuSet],
        extraMachineAutoscalers: [
          secondMachineAutoscaler('gpu-us-east-1c', '2026-08-04T07:15:20Z', '5a2e8c17-d04b-4f96-a3e1-7b9c0f6d2e84', (ma) =>
            targetRef(ma, MAPI_V1BETA1, 'prod-east-7k2xq-gpu-us-east-1c'),
          ),
        ],
      }),
      'openshift-machine-api/gpu-us-east-1c',
    );
    expect(verdict.events.map((event) => [event.reason, event.regardingKind])).toEqual([
      ['InvalidOrMissingGPUAcceleratorLabel', 'MachineSet'],
    ]);
    expect(verdict.findings.map((item) => item.code)).toEqual(['GPUAcceleratorLabelMissing']);
    expect(verdict.operatorReady).toBeNull();
  });
});

describe('output order', () => {
  it('is by namespace, then name, whatever the input order', () => {
    const input = cluster({
      extraMachineAutoscalers: [
        secondMachineAutoscaler('zz-last', '2026-03-11T00:00:00Z', 'c6f2a8e1-4b93-4d07-9e15-0a7d3b8c5f26'),
        secondMachineAutoscaler(
          'aa-first',
          '2026-03-12T00:00:00Z',
          '7e3b1d90-c5a4-4f28-b6e7-2d8f0a9c1e53',
          (ma) => (ma.metadata.namespace = 'default'),
        ),
        secondMachineAutoscaler('infra-1', '2026-03-13T00:00:00Z', 'f9a4c2d6-0e81-4b35-a7f9-6c1e3b5d8a02'),
      ],
    });
    const forward = assessMachineAutoscalers(input).map((verdict) => verdict.machineAutoscaler);
    const reversed = assessMachineAutoscalers({ ...input, machineAutoscalers: [...input.machineAutoscalers].reverse() }).map(
      (verdict) => verdict.machineAutoscaler,
    );
    expect(forward).toEqual([
      'default/aa-first',
      'openshift-machine-api/infra-1',
      'openshift-machine-api/worker-us-east-1a',
      'openshift-machine-api/zz-last',
    ]);
    expect(reversed).toEqual(forward);
  });
});

describe('catalogue coverage', () => {
  it('every finding code of §6 was produced by at least one test above', () => {
    expect([...MACHINE_FINDING_PRIORITY].filter((code) => !seenCodes.has(code))).toEqual([]);
  });
});
