import { describe, expect, it } from 'vitest';
import { MachineFindingCodeSchema } from '@/lib/api/autoscaler';
import type { AutoscalerKind } from '@/lib/api/autoscaler';
import { findRefinement, groupHintFor, groupTitleFor, hintEntry, hintFor, HINTS, separateCause } from '@/lib/triage/hints';
import type { HintFacts } from '@/lib/triage/hints';

// docs/engines/hpa.md §4: every reason the HPA controller sets, current and historical.
const HPA_REASONS = [
  'FailedGetScale',
  'SucceededGetScale',
  'ReadyForNewScale',
  'ScaleDownStabilized',
  'ScaleUpStabilized',
  'SucceededRescale',
  'FailedUpdateScale',
  'BackoffBoth',
  'BackoffDownscale',
  'BackoffUpscale',
  'InvalidSelector',
  'AmbiguousSelector',
  'FailedGetResourceMetric',
  'FailedGetContainerResourceMetric',
  'FailedGetPodsMetric',
  'FailedGetObjectMetric',
  'FailedGetExternalMetric',
  'InvalidMetricSourceType',
  'ValidMetricFound',
  'ScalingDisabled',
  'DesiredWithinRange',
  'TooManyReplicas',
  'TooFewReplicas',
  'ScaleUpLimit',
  'ScaleDownLimit',
  'ScaledToZero',
  'NotScaledToZero',
];
// docs/engines/federation.md §2.3: the reasons Karmada's FederatedHPA controller adds.
const KARMADA_REASONS = ['FailedGetScaleTargetRef', 'FailedGetBinding', 'FailedGetTargetClusters'];
const DASHBOARD_CODES = ['ConditionsAbsent', 'ScalingNotEvaluated', 'ConditionUnknown', 'ReplicasMismatch', 'MemberClusterNotReady'];
const MACHINE_CODES = [...MachineFindingCodeSchema.options, 'MachineAutoscalerReady'];
// Reasons that mean "fine": the only entries allowed to say there is nothing to do.
const OK_REASONS = new Set([
  'SucceededGetScale',
  'ReadyForNewScale',
  'ScaleUpStabilized',
  'SucceededRescale',
  'ValidMetricFound',
  'DesiredWithinRange',
  'TooFewReplicas',
  'ScaledToZero',
  'NotScaledToZero',
  'MachineAutoscalerReady',
]);

function facts(kind: AutoscalerKind, message: string, extra: Partial<HintFacts> = {}): HintFacts {
  const machine = kind === 'MachineAutoscaler';
  return {
    kind,
    cluster: machine ? 'ocp-prod-east' : 'prod-eu-west-1',
    namespace: machine ? 'openshift-machine-api' : 'shop',
    name: machine ? 'worker-us-east-1a' : 'web',
    target: machine
      ? {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: 'prod-east-7k2xq-worker-us-east-1a',
          namespace: 'openshift-machine-api',
        }
      : { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' },
    message,
    ...extra,
  };
}

describe('the hint table has an entry for every reason and finding code', () => {
  const all = [...HPA_REASONS, ...KARMADA_REASONS, ...DASHBOARD_CODES, ...MACHINE_CODES];

  it.each(all)('%s', (code) => {
    const entry = HINTS[code];
    expect(entry, code).toBeDefined();
    expect(hintEntry(code)).toBe(entry);
    expect(entry?.title.length).toBeGreaterThan(3);
    expect(entry?.source.length).toBeGreaterThan(3);
    const kind: AutoscalerKind = MACHINE_CODES.includes(code)
      ? 'MachineAutoscaler'
      : KARMADA_REASONS.includes(code)
        ? 'FederatedHPA'
        : 'HorizontalPodAutoscaler';
    const { hint } = hintFor(code, facts(kind, 'some message'));
    if (OK_REASONS.has(code)) {
      expect(hint).toBe('No action needed.');
    } else {
      expect(hint).not.toBe('No action needed.');
      expect(entry?.groupHint).not.toBe('No action needed.');
    }
  });

  it('has no entry the lists above do not know', () => {
    expect(Object.keys(HINTS).filter((code) => !all.includes(code))).toEqual([]);
  });

  it('falls back to reading the message and events for a reason it does not know', () => {
    expect(hintFor('SomeForkReason', facts('HorizontalPodAutoscaler', 'x'))).toEqual({
      title: 'Autoscaler problem',
      hint: 'read the condition message and the events: kubectl --context prod-eu-west-1 describe hpa web -n shop',
    });
  });
});

describe('refinements read the upstream message', () => {
  const cases: [string, AutoscalerKind, string, string | null, string][] = [
    [
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      'the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container C of Pod P',
      'missing-request',
      'set resources.requests.cpu on container C in Deployment web',
    ],
    [
      'FailedGetContainerResourceMetric',
      'HorizontalPodAutoscaler',
      'the HPA was unable to compute the replica count: failed to get cpu container metric value: container app not found in Pod invoicer-6c9f7b5d84-qk2vz',
      'container-not-found',
      'container app does not exist in Pod invoicer-6c9f7b5d84-qk2vz',
    ],
    [
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
      null,
      'the resource metrics API is down: check kubectl --context prod-eu-west-1 get apiservice v1beta1.metrics.k8s.io and the metrics-server Deployment',
    ],
    [
      'FailedGetResourceMetric',
      'FederatedHPA',
      'the HPA was unable to compute the replica count: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)',
      null,
      'karmada-metrics-adapter',
    ],
    [
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      null,
      'has no samples for Deployment web',
    ],
    [
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      'failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
      null,
      'no ready pod of Deployment web',
    ],
    [
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      'failed to get cpu utilization: no pods returned by selector while calculating replica count',
      null,
      'has no pods matching its selector',
    ],
    [
      'FailedGetPodsMetric',
      'HorizontalPodAutoscaler',
      'unable to get metric heavywork_per_second: unable to fetch metrics from custom metrics API: the server could not find the metric heavywork_per_second for pods',
      'metric-not-served',
      'does not expose heavywork_per_second for pods',
    ],
    [
      'FailedGetPodsMetric',
      'HorizontalPodAutoscaler',
      'unable to get metric x: unable to fetch metrics from custom metrics API: the server could not find the requested resource (get pods.custom.metrics.k8s.io *)',
      null,
      'the custom metrics API is down',
    ],
    [
      'FailedGetScale',
      'HorizontalPodAutoscaler',
      `the HPA controller was unable to get the target's current scale: deployments.apps "web" not found`,
      'target-not-found',
      'Deployment web does not exist in namespace shop',
    ],
    [
      'FailedGetScale',
      'HorizontalPodAutoscaler',
      `the HPA controller was unable to get the target's current scale: no matches for kind "Deploymnet" in group "apps"`,
      'kind-not-served',
      'correct spec.scaleTargetRef.apiVersion and kind',
    ],
    [
      'FailedGetScale',
      'HorizontalPodAutoscaler',
      'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" is forbidden: User "system:serviceaccount:kube-system:horizontal-pod-autoscaler" cannot get resource "deployments/scale"',
      null,
      'may not read deployments/scale',
    ],
    [
      'FailedUpdateScale',
      'HorizontalPodAutoscaler',
      'the HPA controller was unable to update the target scale: pods "web-1" is forbidden: exceeded quota: compute-resources',
      null,
      'kubectl --context prod-eu-west-1 describe quota -n shop',
    ],
    [
      'FailedUpdateScale',
      'HorizontalPodAutoscaler',
      'the HPA controller was unable to update the target scale: admission webhook "validation.gatekeeper.sh" denied the request: [max-replicas]',
      null,
      'admission webhook validation.gatekeeper.sh denies the scale update',
    ],
    [
      'FailedGetScale',
      'FederatedHPA',
      "the HPA controller was unable to get the target's current scale: failed to get replicas in any of clusters, possibly because all of clusters are not ready",
      null,
      "either none of the binding's clusters is Ready",
    ],
    [
      'AmbiguousSelector',
      'HorizontalPodAutoscaler',
      'pods by selector app=web are controlled by multiple HPAs: [shop/web shop/web-canary]',
      null,
      'the HPAs shop/web shop/web-canary select the same pods',
    ],
    [
      'FailedGetBinding',
      'FederatedHPA',
      'the HPA controller was unable to get the binding by scaleTargetRef: Target resource has no label. ',
      'not-propagated',
      'create a PropagationPolicy',
    ],
    [
      'FailedGetBinding',
      'FederatedHPA',
      'the HPA controller was unable to get the binding by scaleTargetRef: No binding matches the target resource. ',
      null,
      "check the policy's resourceSelectors",
    ],
    [
      'MachineAutoscalerDuplicateTargetScaleRef',
      'MachineAutoscaler',
      'targetScaleRef has multiple MachineAutoscaler owners: MachineSet X is already autoscaled by openshift-machine-api/Y',
      null,
      'delete MachineAutoscaler openshift-machine-api/worker-us-east-1a or point it elsewhere; openshift-machine-api/Y owns this MachineSet (X)',
    ],
    [
      'MachineAutoscalerNonAuthoritativeTargetScaleRef',
      'MachineAutoscaler',
      'targetScaleRef is not the authoritative resource: ClusterAPI is authoritative for MachineSet X; reference cluster.x-k8s.io/v1beta2 MachineSet X instead',
      null,
      'set spec.scaleTargetRef.apiVersion of worker-us-east-1a to cluster.x-k8s.io/v1beta2 (MachineSet X)',
    ],
    [
      'MachineAutoscalerTargetNotFound',
      'MachineAutoscaler',
      'MachineSet X not found in namespace openshift-machine-api (machine.openshift.io); a cluster.x-k8s.io MachineSet with that name exists in openshift-cluster-api: set scaleTargetRef.apiVersion to cluster.x-k8s.io/v1beta2',
      null,
      'set spec.scaleTargetRef.apiVersion of worker-us-east-1a to cluster.x-k8s.io/v1beta2',
    ],
  ];

  it.each(cases)('%s (%s): %s', (code, kind, message, cause, hint) => {
    expect(hintFor(code, facts(kind, message)).hint).toContain(hint);
    expect(separateCause(code, message)).toBe(cause);
  });

  it('the refinement title replaces the reason title', () => {
    expect(
      hintFor('FailedGetResourceMetric', facts('HorizontalPodAutoscaler', 'missing request for cpu in container C of Pod P')).title,
    ).toBe('Container without a resource request');
    expect(hintFor('FailedGetResourceMetric', facts('HorizontalPodAutoscaler', 'did not receive metrics for targeted pods')).title).toBe(
      'Cannot read a resource metric',
    );
  });

  it('every refinement of every entry is exercised above', () => {
    const exercised = new Set(cases.map(([code, , message]) => findRefinement(code, message)?.refinement));
    for (const [code, entry] of Object.entries(HINTS)) {
      for (const r of entry.refinements ?? []) expect(exercised.has(r), `${code} ${r.cause}`).toBe(true);
    }
  });
});

describe('group titles and hints', () => {
  it.each([
    [
      'FailedGetResourceMetric',
      'missing-request',
      'Container without a resource request',
      'Set the missing resources.requests on the containers each message names',
    ],
    ['FailedGetResourceMetric', null, 'Cannot read a resource metric', 'Check the resource metrics API (v1beta1.metrics.k8s.io)'],
    ['FailedGetScale', 'target-not-found', 'Scale target not found', 'Create the missing scale targets'],
    ['MachineAutoscalerDuplicateTargetScaleRef', null, 'MachineSet autoscaled twice', 'Delete the duplicate MachineAutoscalers'],
    ['SomeForkReason', null, 'Autoscaler problem', 'Read the condition messages and events'],
  ])('%s / %s', (code, cause, title, hint) => {
    expect(groupTitleFor(code, cause)).toBe(title);
    expect(groupHintFor(code, cause)).toContain(hint);
  });
});

// The upstream error strings these hints parse, as the replica calculator's own tests expect them.
describe('hints parse the error strings of replica_calculator_test.go', () => {
  it.each([
    [
      'TestCalculatePodRequests/container missing requests',
      'FailedGetResourceMetric',
      'missing request for cpu in container container1 of Pod test-pod',
      'missing-request',
      'set resources.requests.cpu on container container1',
    ],
    [
      'TestCalculateRequests/Fail if at least one of the containers is missing requests and pod-level feature/requests are not set',
      'FailedGetResourceMetric',
      'missing request for cpu in container container1 of Pod test-pod',
      'missing-request',
      '(seen on Pod test-pod)',
    ],
    [
      'TestCalculatePodRequestsFromContainers_NonExistentContainer',
      'FailedGetContainerResourceMetric',
      'container non-existent-container not found in Pod test-pod',
      'container-not-found',
      'container non-existent-container does not exist in Pod test-pod',
    ],
  ])('%s', (_upstream, code, error, cause, hint) => {
    const message = `the HPA was unable to compute the replica count: failed to get cpu utilization: ${error}`;
    expect(separateCause(code, message)).toBe(cause);
    expect(hintFor(code, facts('HorizontalPodAutoscaler', message)).hint).toContain(hint);
  });
});
