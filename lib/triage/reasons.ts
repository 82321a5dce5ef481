import type { AutoscalerKind, AutoscalerTarget, Health } from '@/lib/api/autoscaler';
import { shellWord } from '@/lib/format/shell';
import { CLUSTER_API_PAUSED_ANNOTATION, DEFAULT_CLUSTER_API_NAMESPACE, MACHINE_TARGET_OWNER_ANNOTATION } from '@/lib/machine/keys';

/**
 * The reason registry: everything Autoscope knows about a condition reason, a MachineAutoscaler finding code
 * or a dashboard code, in one place. Per reason: the condition and status it is written on, a meaning of its
 * own where it differs from its condition's default, whether it ends the controller's sync early, which
 * metrics API a failure to read implicates, and the title and next step an operator sees (with refinements
 * that read the upstream message to name the container, metric or owner involved).
 *
 * What derives from it: `CONDITION_MEANINGS` (condition-meaning.ts), the early-exit set and the metric-unread
 * codes (assess-hpa.ts), the metrics APIs of the outage rule (group-problems.ts), the swimlane order (the
 * timeline, the HPA preview), the hints (hints.ts), and the generated reason table in docs/health.md.
 * The reasons come from the ported controllers: docs/engines/hpa.md (horizontal.go, its conditions and
 * reasons), docs/engines/federation.md (Karmada's FederatedHPA reasons) and docs/engines/machine.md (the
 * MachineAutoscaler verdict's finding codes). Steps follow the upstream support procedures (inspect the
 * conditions, confirm the target reference, read the controller's logs) and the code paths raising each reason.
 */

export interface HintFacts {
  kind: AutoscalerKind;
  cluster: string;
  namespace: string;
  name: string;
  target: AutoscalerTarget;
  message: string;
  minReplicas?: number | null;
  maxReplicas?: number | null;
  currentReplicas?: number | null;
  desiredReplicas?: number | null;
}

/**
 * A cause below the reason, recognised in the upstream message. Causes in one workload's own
 * configuration (a missing request, a wrong container name) are grouped `separate`ly, so that they
 * never hide inside, or dilute, a fleet-wide group such as a metrics API outage; all other causes
 * stay `with-reason`.
 */
export interface HintRefinement {
  cause: string;
  grouping: 'separate' | 'with-reason';
  pattern: RegExp;
  title?: string;
  hint: (match: RegExpExecArray, facts: HintFacts) => string;
  /** For `separate` causes: the step for their group. */
  groupHint?: string;
}

export interface HintEntry {
  title: string;
  /** Where the code comes from: upstream file and function, or "dashboard". */
  source: string;
  hint: (facts: HintFacts) => string;
  /** The step for a group of autoscalers: names no single object. */
  groupHint: string;
  refinements?: readonly HintRefinement[];
}

/** Facts about the autoscaler that turn a meaning into its exception. */
export type MeaningFact = 'targetNotAtZero' | 'heldLong';

/** What a condition, or one reason of it, means for health (docs/ui.md, "colour means health, not True/False"). */
export interface Meaning {
  health: Health;
  note: string;
  exception?: { fact: MeaningFact; health: Health; note: string };
  /** An ok meaning still worth telling the operator: raises an `info` problem. */
  notice?: boolean;
}

/** The three metrics APIs an HPA reads, each served by its own APIService and adapter. */
export type MetricsApiId = 'resource' | 'custom' | 'external';

export interface ReasonEntry extends HintEntry {
  /** The condition type and status the controller writes this reason on; absent for findings and dashboard codes. */
  condition?: { type: string; status: 'True' | 'False' };
  /** A meaning of its own, ahead of its condition's default for that status. */
  meaning?: Meaning;
  /**
   * An AbleToScale=False reason that ends the sync before metrics are computed (horizontal.go
   * reconcileAutoscaler; Karmada federatedhpa_controller.go reconcileAutoscaler), so ScalingActive and
   * ScalingLimited still describe an earlier sync. FailedUpdateScale is not one: it comes after the metrics.
   */
  earlyExit?: true;
  /** The metrics API a failure to read implicates (the outage rule in group-problems.ts). */
  metricsApi?: MetricsApiId;
  /** The metric source type whose failed read the controller reports with this reason (as an event while ScalingActive stays True). */
  metricSource?: string;
}

export const HPA_KINDS: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'FederatedHPA'];
export const ALL_KINDS: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'FederatedHPA', 'MachineAutoscaler'];
const MACHINE: readonly AutoscalerKind[] = ['MachineAutoscaler'];

export interface ConditionEntry {
  type: string;
  kinds: readonly AutoscalerKind[];
  /** What the condition means per status when its reason has no meaning of its own (`*`: any status). */
  defaults: readonly { status: 'True' | 'False' | '*'; meaning: Meaning }[];
}

/** Status Unknown, on any condition of any kind: the controller cannot tell. Checked before everything else. */
export const UNKNOWN_STATUS_MEANING: Meaning = {
  health: 'unknown',
  note: 'status Unknown: the controller cannot tell (for MachineAutoscaler: the target is migrating)',
};

/** Every condition Autoscope judges, in swimlane order per kind; a type not listed means `unknown`. */
export const CONDITIONS: readonly ConditionEntry[] = [
  {
    type: 'AbleToScale',
    kinds: HPA_KINDS,
    defaults: [
      { status: 'True', meaning: { health: 'ok', note: 'the scale subresource can be read and written' } },
      {
        status: 'False',
        meaning: {
          health: 'failing',
          note: 'the controller cannot read or update the target scale (FailedGetScale, FailedUpdateScale; Karmada: FailedGetScaleTargetRef, FailedGetBinding, FailedGetTargetClusters)',
        },
      },
    ],
  },
  {
    type: 'ScalingActive',
    kinds: HPA_KINDS,
    defaults: [
      { status: 'True', meaning: { health: 'ok', note: 'a replica count was computed from the metrics' } },
      { status: 'False', meaning: { health: 'failing', note: 'no replica count can be computed (metrics or selector failing)' } },
    ],
  },
  {
    type: 'ScalingLimited',
    kinds: HPA_KINDS,
    defaults: [
      {
        status: 'True',
        meaning: {
          health: 'degraded',
          note: 'the desired count was clamped: at maxReplicas (TooManyReplicas) or rate-limited (ScaleUpLimit, ScaleDownLimit)',
        },
      },
      { status: 'False', meaning: { health: 'ok', note: 'the desired count is within range' } },
    ],
  },
  {
    type: 'ScaledToZero',
    kinds: HPA_KINDS,
    defaults: [{ status: '*', meaning: { health: 'ok', note: 'HPAScaleToZero fork condition: informational' } }],
  },
  {
    type: 'Ready',
    kinds: MACHINE,
    defaults: [
      { status: 'True', meaning: { health: 'ok', note: 'MachineAutoscaler ready for autoscaling' } },
      { status: 'False', meaning: { health: 'failing', note: 'the derived verdict found an error' } },
    ],
  },
];

/**
 * The swimlane order per kind (docs/ui.md): the conditions the controller writes, in CONDITIONS order. The
 * HPA fork's ScaledToZero is not a fixed lane: like any other reported type it follows, by name.
 */
export const CONDITION_LANES: Readonly<Record<AutoscalerKind, readonly string[]>> = {
  HorizontalPodAutoscaler: lanesOf('HorizontalPodAutoscaler'),
  FederatedHPA: lanesOf('FederatedHPA'),
  MachineAutoscaler: lanesOf('MachineAutoscaler'),
};

function lanesOf(kind: AutoscalerKind): string[] {
  return CONDITIONS.filter((c) => c.kinds.includes(kind) && c.type !== 'ScaledToZero').map((c) => c.type);
}

function ctx(cluster: string): string {
  return `--context ${shellWord(cluster)}`;
}

function kubectlKind(kind: AutoscalerKind): string {
  return kind === 'HorizontalPodAutoscaler' ? 'hpa' : kind === 'FederatedHPA' ? 'fhpa' : 'machineautoscaler';
}

function describe(f: HintFacts): string {
  return `kubectl ${ctx(f.cluster)} describe ${kubectlKind(f.kind)} ${f.name} -n ${f.namespace}`;
}

function targetRef(f: HintFacts): string {
  return `${f.target.kind} ${f.target.name}`;
}

function metricsApi(f: HintFacts): string {
  return f.kind === 'FederatedHPA'
    ? `the Karmada control plane's metrics API is down: check kubectl ${ctx(f.cluster)} get apiservice v1beta1.metrics.k8s.io and the karmada-metrics-adapter Deployment`
    : `the resource metrics API is down: check kubectl ${ctx(f.cluster)} get apiservice v1beta1.metrics.k8s.io and the metrics-server Deployment in kube-system`;
}

/** Refinements shared by the Resource and ContainerResource metric reasons (replica_calculator.go, metrics/client.go). */
const RESOURCE_METRIC_REFINEMENTS: readonly HintRefinement[] = [
  {
    cause: 'missing-request',
    grouping: 'separate',
    // replica_calculator.go calculatePodRequests: "missing request for %s in container %s of Pod %s"
    pattern: /missing request for (\S+) in container (\S+) of Pod (\S+)/,
    title: 'Container without a resource request',
    hint: (m, f) =>
      `set resources.requests.${m[1]} on container ${m[2]} in ${targetRef(f)}'s pod template (seen on Pod ${m[3]}); a Utilization target needs a ${m[1]} request on every container, restartable init containers included`,
    groupHint:
      'Set the missing resources.requests on the containers each message names; a Utilization target needs a request on every container.',
  },
  {
    cause: 'container-not-found',
    grouping: 'separate',
    // replica_calculator.go calculatePodRequests: "container %s not found in Pod %s"
    pattern: /container (\S+) not found in Pod (\S+)/,
    title: 'Metric container not in the pods',
    hint: (m, f) =>
      `container ${m[1]} does not exist in Pod ${m[2]}: fix spec.metrics[].containerResource.container of ${kubectlKind(f.kind)} ${f.name}, or add the container to ${targetRef(f)}`,
    groupHint: 'Fix spec.metrics[].containerResource.container to name a container the pods have.',
  },
  {
    cause: 'metrics-api-unavailable',
    grouping: 'with-reason',
    pattern: /unable to fetch metrics from resource metrics API|\(get pods\.metrics\.k8s\.io\)/,
    hint: (_m, f) => metricsApi(f),
  },
  {
    cause: 'no-metrics-returned',
    grouping: 'with-reason',
    pattern: /no metrics returned from resource metrics API/,
    hint: (_m, f) =>
      `the metrics API answers but has no samples for ${targetRef(f)}'s pods: check the metrics-server logs for kubelet scrape errors (kubectl ${ctx(f.cluster)} -n kube-system logs deploy/metrics-server)`,
  },
  {
    cause: 'pods-unready',
    grouping: 'with-reason',
    pattern: /did not receive metrics for targeted pods/,
    hint: (_m, f) =>
      `no ready pod of ${targetRef(f)} has a metric sample (pods unready or just started): kubectl ${ctx(f.cluster)} get pods -n ${f.namespace} and check readiness`,
  },
  {
    cause: 'no-pods',
    grouping: 'with-reason',
    pattern: /no pods returned by selector/,
    hint: (_m, f) =>
      `${targetRef(f)} has no pods matching its selector: check the workload's rollout (kubectl ${ctx(f.cluster)} get ${f.target.kind.toLowerCase()} ${f.target.name} -n ${f.namespace})`,
  },
];

const CUSTOM_METRIC_REFINEMENTS: readonly HintRefinement[] = [
  {
    cause: 'metric-not-served',
    grouping: 'separate',
    // the adapter's NotFound, e.g. prometheus-adapter: "the server could not find the metric X for pods"
    pattern: /could not find the metric (\S+) for (\S+)/,
    title: 'Metric not served by the adapter',
    hint: (m, f) =>
      `the custom metrics adapter does not expose ${m[1]} for ${m[2]}: check its rules (e.g. prometheus-adapter's config) and that the series exists in namespace ${f.namespace}`,
    groupHint: 'The custom metrics adapter does not expose these metrics: check its rules and that the series exist.',
  },
  {
    cause: 'custom-metrics-api-unavailable',
    grouping: 'with-reason',
    pattern:
      /\(get [^)]*custom\.metrics\.k8s\.io[^)]*\)|no custom metrics API|unable to fetch metrics from custom metrics API: the server is currently unable/,
    hint: (_m, f) =>
      `the custom metrics API is down: check kubectl ${ctx(f.cluster)} get apiservice v1beta1.custom.metrics.k8s.io and its adapter's pods`,
  },
];

const OK = 'No action needed.';

const BACKOFF_MEANING: Meaning = {
  health: 'ok',
  note: 'a controller before v1.12 waits out its forbidden windows after a scale (3 min up, 5 min down by default): an expected wait, not a broken scale subresource',
  notice: true,
};
const BACKOFF_GROUP_HINT = 'A pre-v1.12 kube-controller-manager waits after each scale; this clears by itself.';

function machineTarget(f: HintFacts): string {
  return `MachineSet ${f.target.namespace}/${f.target.name}`;
}

function oc(f: HintFacts): string {
  return `oc ${ctx(f.cluster)}`;
}

export const REASONS: Readonly<Record<string, ReasonEntry>> = {
  // ── AbleToScale (horizontal.go reconcileAutoscaler; Karmada federatedhpa_controller.go) ──
  FailedGetScale: {
    condition: { type: 'AbleToScale', status: 'False' },
    earlyExit: true,
    title: 'Cannot read the target’s scale',
    source: 'horizontal.go reconcileAutoscaler',
    hint: (f) =>
      `check that spec.scaleTargetRef (${f.target.apiVersion} ${targetRef(f)}) exists in namespace ${f.namespace} and has a /scale subresource: kubectl ${ctx(f.cluster)} get ${f.target.kind.toLowerCase()} ${f.target.name} -n ${f.namespace}`,
    groupHint: 'Check each spec.scaleTargetRef names an existing workload with a /scale subresource.',
    refinements: [
      {
        cause: 'target-not-found',
        grouping: 'separate',
        pattern: /"([^"]+)" not found/,
        title: 'Scale target not found',
        hint: (_m, f) => `${targetRef(f)} does not exist in namespace ${f.namespace}: create it or correct spec.scaleTargetRef.name`,
        groupHint: 'Create the missing scale targets or correct spec.scaleTargetRef.name.',
      },
      {
        cause: 'kind-not-served',
        grouping: 'separate',
        pattern: /no matches for kind "([^"]+)" in (?:group|version) "([^"]*)"|unexpected GroupVersion string/,
        title: 'Scale target kind not served',
        hint: (_m, f) =>
          `the API server does not serve ${f.target.apiVersion} ${f.target.kind}: correct spec.scaleTargetRef.apiVersion and kind`,
        groupHint: 'Correct spec.scaleTargetRef.apiVersion and kind to a served kind.',
      },
      {
        cause: 'forbidden',
        grouping: 'with-reason',
        pattern: /is forbidden/,
        hint: (_m, f) =>
          `the controller's service account may not read ${f.target.kind.toLowerCase()}s/scale: check its RBAC (the message names the user and resource)`,
      },
      {
        cause: 'no-member-replicas',
        grouping: 'with-reason',
        // federatedhpa_controller.go scaleForTargetCluster
        pattern: /failed to get replicas in any of clusters/,
        // The member sum is 0 when no target cluster is Ready, and also when the template is at 0
        // replicas: Karmada then never reaches its ScalingDisabled branch.
        hint: (_m, f) =>
          `no member cluster reported replicas of ${targetRef(f)}: either none of the binding's clusters is Ready (kubectl ${ctx(f.cluster)} get clusters) or the template is at 0 replicas`,
      },
    ],
  },
  FailedUpdateScale: {
    condition: { type: 'AbleToScale', status: 'False' },
    title: 'Cannot update the target’s scale',
    source: 'horizontal.go reconcileAutoscaler (FailedRescale event)',
    hint: (f) =>
      `the scale update of ${targetRef(f)} was rejected; the message says by what. Check the FailedRescale events (${describe(f)}) and any admission policy or quota on ${f.target.kind}`,
    groupHint: 'Read the FailedRescale events: an admission webhook, quota or RBAC rejects the scale updates.',
    refinements: [
      {
        cause: 'admission-denied',
        grouping: 'with-reason',
        pattern: /admission webhook "([^"]+)" denied/,
        hint: (m) => `admission webhook ${m[1]} denies the scale update: exempt the HPA controller or fix the policy`,
      },
      {
        cause: 'quota',
        grouping: 'with-reason',
        pattern: /exceeded quota/,
        hint: (_m, f) => `a ResourceQuota in ${f.namespace} blocks more pods: kubectl ${ctx(f.cluster)} describe quota -n ${f.namespace}`,
      },
    ],
  },
  SucceededGetScale: {
    condition: { type: 'AbleToScale', status: 'True' },
    title: 'Scale read',
    source: 'horizontal.go reconcileAutoscaler',
    hint: () => OK,
    groupHint: OK,
  },
  SucceededRescale: {
    condition: { type: 'AbleToScale', status: 'True' },
    title: 'Rescaled',
    source: 'horizontal.go reconcileAutoscaler',
    hint: () => OK,
    groupHint: OK,
  },
  ReadyForNewScale: {
    condition: { type: 'AbleToScale', status: 'True' },
    title: 'Ready for a new scale',
    source: 'horizontal.go normalizeDesiredReplicas',
    hint: () => OK,
    groupHint: OK,
  },
  ScaleUpStabilized: {
    condition: { type: 'AbleToScale', status: 'True' },
    title: 'Scale-up stabilized',
    source: 'horizontal.go stabilizeRecommendationWithBehaviors',
    hint: () => OK,
    groupHint: OK,
  },
  ScaleDownStabilized: {
    condition: { type: 'AbleToScale', status: 'True' },
    meaning: {
      health: 'ok',
      note: 'a scale-down waits for the stabilization window, as designed',
      exception: {
        fact: 'heldLong',
        health: 'degraded',
        note: 'held for an hour or more (longer than any stabilization window): the recommendations keep swinging',
      },
    },
    title: 'Scale-down held for an hour or more',
    source: 'horizontal.go stabilizeRecommendation',
    hint: (f) =>
      `recommendations keep swinging, so the highest of each window is applied: look at the metric's noise and spec.behavior.scaleDown.stabilizationWindowSeconds of ${kubectlKind(f.kind)} ${f.name}`,
    groupHint: 'Recommendations keep swinging: review the metrics’ noise and spec.behavior.scaleDown.stabilizationWindowSeconds.',
  },
  // horizontal.go v1.9–v1.11 normalizeDesiredReplicas: AbleToScale=False while the time since
  // status.lastScaleTime is inside the upscale/downscale forbidden windows ("the time since the previous
  // scale is still within …"). The scale subresource works; the controller waits, as designed.
  BackoffBoth: {
    condition: { type: 'AbleToScale', status: 'False' },
    meaning: BACKOFF_MEANING,
    title: 'Waiting after a scale (pre-1.12 controller)',
    source: 'horizontal.go v1.9–v1.11 normalizeDesiredReplicas (upscale/downscale forbidden windows)',
    hint: (f) =>
      `a kube-controller-manager before v1.12 waits after each scale (3 min before scaling up, 5 min before scaling down, by default); this clears by itself. If ${f.name} shows it long after status.lastScaleTime, check which controller writes its status`,
    groupHint: BACKOFF_GROUP_HINT,
  },
  BackoffDownscale: {
    condition: { type: 'AbleToScale', status: 'False' },
    meaning: BACKOFF_MEANING,
    title: 'Waiting to scale down (pre-1.12 controller)',
    source: 'horizontal.go v1.9–v1.11 normalizeDesiredReplicas',
    hint: (f) =>
      `a kube-controller-manager before v1.12 waits 5 min (by default) after a scale before scaling down; this clears by itself. If ${f.name} shows it long after status.lastScaleTime, check which controller writes its status`,
    groupHint: BACKOFF_GROUP_HINT,
  },
  BackoffUpscale: {
    condition: { type: 'AbleToScale', status: 'False' },
    meaning: BACKOFF_MEANING,
    title: 'Waiting to scale up (pre-1.12 controller)',
    source: 'horizontal.go v1.9–v1.11 normalizeDesiredReplicas',
    hint: (f) =>
      `a kube-controller-manager before v1.12 waits 3 min (by default) after a scale before scaling up; this clears by itself. If ${f.name} shows it long after status.lastScaleTime, check which controller writes its status`,
    groupHint: BACKOFF_GROUP_HINT,
  },
  FailedGetScaleTargetRef: {
    condition: { type: 'AbleToScale', status: 'False' },
    earlyExit: true,
    title: 'Resource template not found',
    source: 'karmada federatedhpa_controller.go reconcileAutoscaler',
    hint: (f) =>
      `the resource template ${targetRef(f)} (${f.target.apiVersion}) is missing on the Karmada control plane: create it there or correct spec.scaleTargetRef (kubectl ${ctx(f.cluster)} get ${f.target.kind.toLowerCase()} ${f.target.name} -n ${f.namespace})`,
    groupHint: 'Create the resource templates on the Karmada control plane or correct spec.scaleTargetRef.',
  },
  FailedGetBinding: {
    condition: { type: 'AbleToScale', status: 'False' },
    earlyExit: true,
    title: 'No ResourceBinding for the template',
    source: 'karmada federatedhpa_controller.go getBindingByLabel',
    hint: (f) =>
      `no ResourceBinding propagates ${targetRef(f)}: check that a PropagationPolicy selects it (kubectl ${ctx(f.cluster)} get rb -n ${f.namespace})`,
    groupHint: 'Make sure a PropagationPolicy selects each template, so that a ResourceBinding exists.',
    refinements: [
      {
        cause: 'not-propagated',
        grouping: 'separate',
        pattern: /Target resource has no label|No label of policy found/,
        title: 'Template not propagated by any policy',
        hint: (_m, f) =>
          `${targetRef(f)} carries no propagation policy label: create a PropagationPolicy (or ClusterPropagationPolicy) whose resourceSelectors match it`,
        groupHint: 'Create PropagationPolicies that select these resource templates.',
      },
      {
        cause: 'no-matching-binding',
        grouping: 'with-reason',
        pattern: /Length of binding list is zero|No binding matches the target resource/,
        hint: (_m, f) =>
          `the policy exists but no ResourceBinding matches ${f.target.apiVersion} ${targetRef(f)}: check the policy's resourceSelectors and karmada-controller-manager's logs`,
      },
    ],
  },
  FailedGetTargetClusters: {
    condition: { type: 'AbleToScale', status: 'False' },
    earlyExit: true,
    title: 'Binding has no target clusters',
    source: 'karmada federatedhpa_controller.go getTargetCluster',
    hint: (f) =>
      `karmada-scheduler placed ${targetRef(f)} on no cluster: read the ResourceBinding's Scheduled condition (kubectl ${ctx(f.cluster)} get rb -n ${f.namespace} -o yaml) and the policy's clusterAffinity`,
    groupHint: 'Read the ResourceBindings’ Scheduled condition and the policies’ clusterAffinity.',
  },
  // ── ScalingActive (horizontal.go computeReplicasForMetrics, validateAndParseSelector) ──
  InvalidSelector: {
    condition: { type: 'ScalingActive', status: 'False' },
    title: 'Target scale has no usable selector',
    source: 'horizontal.go computeReplicasForMetrics',
    hint: (f) =>
      `the /scale of ${targetRef(f)} reports a missing or unparsable selector: check its spec.selector (for a custom resource, the CRD's scale subresource labelSelectorPath)`,
    groupHint: 'Check the targets’ spec.selector (for custom resources, the CRD’s labelSelectorPath).',
  },
  AmbiguousSelector: {
    condition: { type: 'ScalingActive', status: 'False' },
    title: 'Pods controlled by several HPAs',
    source: 'horizontal.go validateAndParseSelector',
    hint: (f) => `another HPA selects the same pods as ${f.name}: keep one HPA per workload, or make the workloads' selectors disjoint`,
    groupHint: 'Keep one HPA per workload, or make the workloads’ selectors disjoint.',
    refinements: [
      {
        cause: 'several-hpas',
        grouping: 'with-reason',
        // "pods by selector %v are controlled by multiple HPAs: %v"
        pattern: /controlled by multiple HPAs: \[([^\]]*)\]/,
        hint: (m) => `the HPAs ${m[1]} select the same pods: delete all but one, or make the workloads' selectors disjoint`,
      },
    ],
  },
  FailedGetResourceMetric: {
    condition: { type: 'ScalingActive', status: 'False' },
    metricsApi: 'resource',
    metricSource: 'Resource',
    title: 'Cannot read a resource metric',
    source: 'horizontal.go computeStatusForResourceMetric',
    hint: (f) =>
      `check the resource metrics for ${targetRef(f)}: kubectl ${ctx(f.cluster)} top pods -n ${f.namespace}; ${describe(f)} shows the failing metric`,
    groupHint: 'Check the resource metrics API (v1beta1.metrics.k8s.io) and the workloads’ resource requests.',
    refinements: RESOURCE_METRIC_REFINEMENTS,
  },
  FailedGetContainerResourceMetric: {
    condition: { type: 'ScalingActive', status: 'False' },
    metricsApi: 'resource',
    metricSource: 'ContainerResource',
    title: 'Cannot read a container resource metric',
    source: 'horizontal.go computeStatusForContainerResourceMetric',
    hint: (f) => `check the container metrics for ${targetRef(f)}: kubectl ${ctx(f.cluster)} top pods --containers -n ${f.namespace}`,
    groupHint: 'Check the resource metrics API (v1beta1.metrics.k8s.io) and the containers named in spec.metrics.',
    refinements: RESOURCE_METRIC_REFINEMENTS,
  },
  FailedGetPodsMetric: {
    condition: { type: 'ScalingActive', status: 'False' },
    metricsApi: 'custom',
    metricSource: 'Pods',
    title: 'Cannot read a pods metric',
    source: 'horizontal.go computeStatusForPodsMetric',
    hint: (f) =>
      `the custom metrics API cannot serve the Pods metric of ${f.name}: kubectl ${ctx(f.cluster)} get apiservice v1beta1.custom.metrics.k8s.io, then the adapter's rules`,
    groupHint: 'Check the custom metrics API (v1beta1.custom.metrics.k8s.io) and its adapter.',
    refinements: CUSTOM_METRIC_REFINEMENTS,
  },
  FailedGetObjectMetric: {
    condition: { type: 'ScalingActive', status: 'False' },
    metricsApi: 'custom',
    metricSource: 'Object',
    title: 'Cannot read an object metric',
    source: 'horizontal.go computeStatusForObjectMetric',
    hint: (f) =>
      `the custom metrics API cannot serve the Object metric of ${f.name}: kubectl ${ctx(f.cluster)} get apiservice v1beta1.custom.metrics.k8s.io, and check the described object exists`,
    groupHint: 'Check the custom metrics API (v1beta1.custom.metrics.k8s.io), its adapter, and the described objects.',
    refinements: CUSTOM_METRIC_REFINEMENTS,
  },
  FailedGetExternalMetric: {
    condition: { type: 'ScalingActive', status: 'False' },
    metricsApi: 'external',
    metricSource: 'External',
    title: 'Cannot read an external metric',
    source: 'horizontal.go computeStatusForExternalMetric',
    hint: (f) =>
      f.kind === 'FederatedHPA'
        ? 'karmada-metrics-adapter does not implement external metrics (pkg/metricsadapter/provider/externalmetrics.go): use Resource, Pods or Object metrics'
        : `the external metrics API cannot serve the metric: kubectl ${ctx(f.cluster)} get apiservice v1beta1.external.metrics.k8s.io, then its adapter (e.g. KEDA, prometheus-adapter)`,
    groupHint: 'Check the external metrics API (v1beta1.external.metrics.k8s.io) and its adapter.',
  },
  InvalidMetricSourceType: {
    condition: { type: 'ScalingActive', status: 'False' },
    title: 'Unknown metric source type',
    source: 'horizontal.go computeReplicasForMetric',
    hint: (f) => `spec.metrics[].type of ${f.name} must be one of Resource, ContainerResource, Pods, Object, External`,
    groupHint: 'spec.metrics[].type must be one of Resource, ContainerResource, Pods, Object, External.',
  },
  ValidMetricFound: {
    condition: { type: 'ScalingActive', status: 'True' },
    title: 'Metrics computed',
    source: 'horizontal.go computeReplicasForMetrics',
    hint: () => OK,
    groupHint: OK,
  },
  ScalingDisabled: {
    condition: { type: 'ScalingActive', status: 'False' },
    meaning: {
      health: 'ok',
      note: 'the target was deliberately scaled to 0; the HPA waits until it has replicas again',
      notice: true,
      exception: {
        fact: 'targetNotAtZero',
        health: 'failing',
        note: 'the target is not at 0 replicas, so the condition is not a deliberate pause',
      },
    },
    title: 'Scaling disabled: target at 0 replicas',
    source: 'horizontal.go reconcileAutoscaler',
    hint: (f) =>
      typeof f.currentReplicas === 'number' && f.currentReplicas > 0
        ? `the condition says the target was at 0 replicas but it now has ${f.currentReplicas}: the controller has not synced since; check kube-controller-manager`
        : `${targetRef(f)} was scaled to 0, so the HPA pauses; it resumes when the target has replicas again (kubectl ${ctx(f.cluster)} scale ${f.target.kind.toLowerCase()}/${f.target.name} -n ${f.namespace} --replicas=N)`,
    groupHint: 'The targets were scaled to 0; their HPAs resume when they have replicas again.',
  },
  // ── ScalingLimited (horizontal.go convertDesiredReplicasWithRules / WithBehaviorRate) ──
  DesiredWithinRange: {
    condition: { type: 'ScalingLimited', status: 'False' },
    title: 'Within range',
    source: 'horizontal.go convertDesiredReplicasWithRules',
    hint: () => OK,
    groupHint: OK,
  },
  TooFewReplicas: {
    condition: { type: 'ScalingLimited', status: 'True' },
    meaning: { health: 'ok', note: 'held at minReplicas: the workload needs less than its floor, which is what a floor is for' },
    title: 'Held at minReplicas',
    source: 'horizontal.go convertDesiredReplicasWithRules',
    hint: () => OK,
    groupHint: OK,
  },
  TooManyReplicas: {
    condition: { type: 'ScalingLimited', status: 'True' },
    title: 'At maxReplicas',
    source: 'horizontal.go convertDesiredReplicasWithRules (kube-prometheus KubeHpaMaxedOut)',
    hint: (f) =>
      `${f.name} wants more than maxReplicas${typeof f.maxReplicas === 'number' ? ` (${f.maxReplicas})` : ''}: raise spec.maxReplicas if the cluster has room, or lower the load per pod`,
    groupHint: 'These autoscalers want more than their maxReplicas: raise it where the cluster has room.',
  },
  ScaleUpLimit: {
    condition: { type: 'ScalingLimited', status: 'True' },
    title: 'Scale-up rate-limited',
    source: 'horizontal.go convertDesiredReplicasWithRules / convertDesiredReplicasWithBehaviorRate',
    hint: (f) =>
      `the scale-up rate limit holds ${f.name} back (spec.behavior.scaleUp.policies, or without behavior the max(2×current, 4) per-sync cap): loosen spec.behavior.scaleUp if bursts must be absorbed faster`,
    groupHint: 'Scale-up rate limits hold these back: loosen spec.behavior.scaleUp where bursts must be absorbed faster.',
  },
  ScaleDownLimit: {
    condition: { type: 'ScalingLimited', status: 'True' },
    title: 'Scale-down rate-limited',
    source: 'horizontal.go convertDesiredReplicasWithBehaviorRate',
    hint: (f) => `spec.behavior.scaleDown.policies of ${f.name} cap how fast it shrinks: loosen them if the surplus replicas cost too much`,
    groupHint: 'spec.behavior.scaleDown.policies cap how fast these shrink.',
  },
  ScaledToZero: {
    condition: { type: 'ScaledToZero', status: 'True' },
    title: 'Scaled to zero',
    source: 'HPAScaleToZero fork',
    hint: () => OK,
    groupHint: OK,
  },
  NotScaledToZero: {
    condition: { type: 'ScaledToZero', status: 'False' },
    title: 'Not scaled to zero',
    source: 'HPAScaleToZero fork',
    hint: () => OK,
    groupHint: OK,
  },
  // ── Dashboard codes ──
  ScalingNotEvaluated: {
    title: 'Not evaluated yet',
    source: 'dashboard (horizontal.go reconcileAutoscaler writes ScalingActive once it computes metrics)',
    hint: (f) =>
      `no replica count has been computed for ${f.name} yet: it normally appears within one or two 15 s syncs. If it does not, read the events (${describe(f)}) and check that the target's replicas are within minReplicas..maxReplicas and that the metrics API answers`,
    groupHint: 'The controller has not computed a replica count for these autoscalers: read their events and the controller logs.',
  },
  ConditionsAbsent: {
    title: 'No conditions yet',
    source: 'dashboard',
    hint: (f) =>
      f.kind === 'FederatedHPA'
        ? `karmada-controller-manager has not synced ${f.name}: check it runs the federatedHorizontalPodAutoscaler controller and read its logs`
        : `the HPA controller has not synced ${f.name} (it writes conditions within one 15 s sync): check kube-controller-manager is running and its logs for this HPA`,
    groupHint: 'The controller has not synced these objects: check that it runs and read its logs.',
  },
  ConditionUnknown: {
    title: 'Condition status Unknown',
    source: 'dashboard',
    hint: (f) => `the controller could not decide; ${describe(f)} and read its events`,
    groupHint: 'The controller could not decide: read the objects’ events.',
  },
  ReplicasMismatch: {
    title: 'Replicas mismatch',
    source: 'dashboard (kube-prometheus KubeHpaReplicasMismatch)',
    hint: (f) =>
      f.kind === 'MachineAutoscaler'
        ? `${machineTarget(f)} has wanted ${f.desiredReplicas ?? '?'} machines but had ${f.currentReplicas ?? '?'} for 15 minutes or more: look for Machines stuck in Provisioning or Failed (${oc(f)} get machines -n ${f.target.namespace})`
        : `${targetRef(f)} has had ${f.currentReplicas ?? '?'} replicas while ${f.name} wants ${f.desiredReplicas ?? '?'} for 15 minutes or more: check AbleToScale and FailedRescale events, and whether another controller (GitOps, an operator) resets spec.replicas`,
    groupHint:
      'Desired and current replicas have differed for 15 minutes or more: look for failed scale updates or another writer of spec.replicas.',
  },
  MemberClusterNotReady: {
    title: 'Member cluster not Ready',
    source: 'dashboard (karmada util.IsClusterReady)',
    hint: (f) =>
      `the FederatedHPA skips member clusters that are not Ready, and the scheduler places nothing new there: kubectl ${ctx(f.cluster)} get clusters, then the cluster's Ready message (Push mode: apiEndpoint reachable from the control plane; Pull mode: karmada-agent)`,
    groupHint: 'Member clusters are not Ready: check their Ready condition on the Karmada control plane.',
  },
  // ── MachineAutoscaler (docs/engines/machine.md §6; seed "Support Procedures") ──
  MachineAutoscalerReady: {
    condition: { type: 'Ready', status: 'True' },
    title: 'Ready for autoscaling',
    source: 'openshift/enhancements cluster-autoscaler CAPI (seed)',
    hint: () => OK,
    groupHint: OK,
  },
  MachineAutoscalerNotReconciled: {
    title: 'Outside openshift-machine-api',
    source: 'cluster-autoscaler-operator pkg/operator/operator.go (cache scoped to openshift-machine-api)',
    hint: (f) =>
      `recreate MachineAutoscaler ${f.name} in openshift-machine-api and delete this copy in ${f.namespace}; the operator never reconciles other namespaces`,
    groupHint: 'Recreate these MachineAutoscalers in openshift-machine-api; the operator ignores other namespaces.',
  },
  MachineAutoscalerInvalidSpec: {
    title: 'Invalid min/max',
    source: 'cluster-autoscaler-operator validator.go',
    hint: (f) =>
      `set spec.minReplicas ≤ spec.maxReplicas (${oc(f)} edit machineautoscaler ${f.name} -n ${f.namespace}); the webhook's failurePolicy Ignore let it in while the operator was down`,
    groupHint: 'Set spec.minReplicas ≤ spec.maxReplicas.',
  },
  MachineAutoscalerUnsupportedTarget: {
    title: 'Unsupported scale target',
    source: 'cluster-autoscaler-operator machineautoscaler_controller.go SupportedTarget',
    hint: (f) =>
      `point spec.scaleTargetRef of ${f.name} at a MachineSet: machine.openshift.io/v1beta1, or cluster.x-k8s.io when the operator supports Cluster API targets`,
    groupHint: 'Point spec.scaleTargetRef at a supported MachineSet kind and version.',
  },
  MachineAutoscalerTargetNotFound: {
    title: 'Target MachineSet not found',
    source: 'cluster-autoscaler-operator GetTarget (FailedGetTarget)',
    hint: (f) =>
      `confirm spec.scaleTargetRef of ${f.name} (seed support procedure): ${oc(f)} get machinesets -A | grep ${f.target.name}; create the MachineSet or correct the name`,
    groupHint: 'Confirm each spec.scaleTargetRef names an existing MachineSet.',
    refinements: [
      {
        cause: 'other-group',
        grouping: 'with-reason',
        pattern: /set scaleTargetRef\.apiVersion to (\S+)$/,
        hint: (m, f) => `set spec.scaleTargetRef.apiVersion of ${f.name} to ${m[1]}: the MachineSet exists in the other API group`,
      },
    ],
  },
  MachineAutoscalerTargetWrongNamespace: {
    title: 'Target MachineSet in the wrong namespace',
    source: 'docs/engines/machine.md §6 (namespace implied by the API group)',
    hint: (f) =>
      `the MachineSet ${f.target.name} lives outside ${f.target.namespace}, where its API group's sets must be: recreate it in ${f.target.namespace} or reference a set that is there`,
    groupHint: 'MachineSets must live in the namespace their API group implies (openshift-machine-api or openshift-cluster-api).',
  },
  MachineAutoscalerDuplicateTargetScaleRef: {
    title: 'MachineSet autoscaled twice',
    source: 'openshift/enhancements cluster-autoscaler CAPI (seed) / FailedSetOwner',
    hint: (f) => `delete MachineAutoscaler ${f.namespace}/${f.name} or point it elsewhere; another MachineAutoscaler owns this MachineSet`,
    groupHint: 'Delete the duplicate MachineAutoscalers or point them at other MachineSets.',
    refinements: [
      {
        cause: 'owner-named',
        grouping: 'with-reason',
        // "targetScaleRef has multiple MachineAutoscaler owners: MachineSet {name} is already autoscaled by {winner}"
        pattern: /MachineSet (\S+) is already autoscaled by (\S+)$/,
        hint: (m, f) => `delete MachineAutoscaler ${f.namespace}/${f.name} or point it elsewhere; ${m[2]} owns this MachineSet (${m[1]})`,
      },
    ],
  },
  MachineAutoscalerNonAuthoritativeTargetScaleRef: {
    title: 'Targets the non-authoritative copy',
    source: 'openshift/enhancements 976204c7 (merged)',
    hint: (f) => `point spec.scaleTargetRef of ${f.name} at the authoritative copy of MachineSet ${f.target.name}`,
    groupHint: 'Point each spec.scaleTargetRef at the authoritative copy of its MachineSet.',
    refinements: [
      {
        cause: 'authority-named',
        grouping: 'with-reason',
        pattern: /reference (\S+) MachineSet (\S+) instead/,
        hint: (m, f) =>
          `set spec.scaleTargetRef.apiVersion of ${f.name} to ${m[1]} (MachineSet ${m[2]}); the operator writes only the authoritative copy`,
      },
    ],
  },
  MachineAutoscalerTargetMigrating: {
    title: 'Target migrating between APIs',
    source: 'docs/engines/machine.md §5 (status.authoritativeAPI: Migrating)',
    hint: (f) =>
      `wait until ${machineTarget(f)} leaves status.authoritativeAPI Migrating; if it stays there, read cluster-capi-operator's migration controller logs`,
    groupHint: 'Autoscaling is suspended until the MachineSets finish migrating.',
  },
  MachineAutoscalerTargetDeleting: {
    title: 'Target MachineSet being deleted',
    source: 'docs/engines/machine.md §6',
    hint: (f) => `${machineTarget(f)} is being deleted: delete MachineAutoscaler ${f.name} or point it at the replacement set`,
    groupHint: 'Their MachineSets are being deleted: remove or retarget these MachineAutoscalers.',
  },
  MachineAutoscalerTargetPaused: {
    title: 'Target MachineSet paused',
    source: 'kubernetes-autoscaler clusterapi_controller.go (skips cluster.x-k8s.io/paused)',
    hint: (f) =>
      `if the pause is not intended, remove it: ${oc(f)} annotate machineset.cluster.x-k8s.io ${f.target.name} -n ${DEFAULT_CLUSTER_API_NAMESPACE} ${CLUSTER_API_PAUSED_ANNOTATION}-`,
    groupHint: 'The cluster autoscaler skips paused MachineSets: remove cluster.x-k8s.io/paused where unintended.',
  },
  MachineAutoscalerTargetOwnedByAnother: {
    title: 'Target claimed by another MachineAutoscaler',
    source: 'cluster-autoscaler-operator machinetarget.go SetOwner (FailedSetOwner)',
    hint: (f) =>
      `remove annotation ${MACHINE_TARGET_OWNER_ANNOTATION} from ${machineTarget(f)} (${oc(f)} annotate machineset ${f.target.name} -n ${f.target.namespace} ${MACHINE_TARGET_OWNER_ANNOTATION}-); the operator then claims it for ${f.name}`,
    groupHint: 'Remove the stale autoscaling.openshift.io/machineautoscaler annotations from the MachineSets.',
  },
  MachineAutoscalerTargetAnnotationsMissing: {
    title: 'Autoscaler annotations missing',
    source: 'docs/engines/machine.md §4 (parseScalingBounds)',
    hint: (f) =>
      `the operator has not written the min/max annotations: search the cluster-autoscaler-operator logs and FailedUpdateTarget events for ${f.name} (${oc(f)} -n openshift-machine-api logs deploy/cluster-autoscaler-operator)`,
    groupHint: 'Read the cluster-autoscaler-operator logs and FailedUpdateTarget events.',
  },
  MachineAutoscalerTargetAnnotationsMismatch: {
    title: 'Autoscaler annotations differ from spec',
    source: 'docs/engines/machine.md §6',
    hint: (f) =>
      `edit the MachineAutoscaler, not the MachineSet: the operator reverts hand edits; if they persist, look for FailedUpdateTarget events on ${f.name} (a ValidatingAdmissionPolicy may deny the write)`,
    groupHint: 'Edit MachineAutoscalers, not MachineSets; look for FailedUpdateTarget events.',
  },
  MachineAutoscalerScaleFromZeroUnsupported: {
    title: 'Cannot scale from zero',
    source: 'kubernetes-autoscaler clusterapi_unstructured.go CanScaleFromZero',
    hint: (f) =>
      `add capacity.cluster-autoscaler.kubernetes.io/cpu and /memory annotations to ${machineTarget(f)}, or keep spec.minReplicas of ${f.name} at 1 or more`,
    groupHint: 'Add capacity annotations (cpu, memory) to the MachineSets, or keep minReplicas ≥ 1.',
  },
  GPUAcceleratorLabelMissing: {
    title: 'GPU accelerator label missing',
    source: 'cluster-autoscaler-operator UpdateTarget (InvalidOrMissingGPUAcceleratorLabel)',
    hint: (f) =>
      `set spec.template.spec.metadata.labels["cluster-api/accelerator"] on ${machineTarget(f)} to the GPU type named in the ClusterAutoscaler's resourceLimits.gpus (https://access.redhat.com/solutions/6055181)`,
    groupHint: 'Label the GPU MachineSets’ templates with cluster-api/accelerator.',
  },
  ClusterAutoscalerMissing: {
    title: 'No ClusterAutoscaler',
    source: 'cluster-autoscaler-operator clusterautoscaler_controller.go',
    hint: (f) =>
      `create the ClusterAutoscaler named default (${oc(f)} get clusterautoscaler default); MachineAutoscalers have no effect without it`,
    groupHint: 'Create the ClusterAutoscaler named default in these clusters.',
  },
  TargetMirrorNotSynchronized: {
    title: 'MachineSet mirror not synchronized',
    source: 'cluster-capi-operator machineset_sync_controller.go',
    hint: (f) => `read the Synchronized condition of ${machineTarget(f)} and the cluster-capi-operator machineset-sync controller logs`,
    groupHint: 'Read the Synchronized condition and the cluster-capi-operator logs.',
  },
};

/** For a code the registry does not know. */
export const FALLBACK_REASON: HintEntry = {
  title: 'Autoscaler problem',
  source: 'dashboard',
  hint: (f) => `read the condition message and the events: ${describe(f)}`,
  groupHint: 'Read the condition messages and events of these autoscalers.',
};

export interface MetricsApiText {
  /** The group's likely cause, naming the clusters where the API is down. */
  cause(kind: AutoscalerKind, clusters: readonly string[]): string;
  /** The group's next step. */
  hint(kind: AutoscalerKind, clusters: readonly string[]): string;
}

function clusterList(names: readonly string[]): string {
  return names.length === 1 ? `cluster ${names[0]}` : `clusters ${names.join(', ')}`;
}

const kubectlIn = (clusters: readonly string[]): string => (clusters.length === 1 ? `kubectl --context ${clusters[0]} ` : 'kubectl ');
const whoReads = (kind: AutoscalerKind): string => (kind === 'FederatedHPA' ? 'FederatedHPA' : 'HPA');

/**
 * What the outage rule tells about each metrics API: when every autoscaler of a cluster that reads it fails to,
 * the API is down, not N workloads broken. Which reasons and metric types belong to an API is in REASONS.
 */
export const METRICS_APIS: Readonly<Record<MetricsApiId, MetricsApiText>> = {
  resource: {
    cause: (kind, clusters) =>
      `metrics API unavailable in ${clusterList(clusters)}: every ${whoReads(kind)} with a resource metric there fails to read it (check the v1beta1.metrics.k8s.io APIService, served by ${kind === 'FederatedHPA' ? 'karmada-metrics-adapter' : 'metrics-server'})`,
    hint: (kind, clusters) =>
      kind === 'FederatedHPA'
        ? `${kubectlIn(clusters)}get apiservice v1beta1.metrics.k8s.io on the Karmada control plane; if it is not Available, check the karmada-metrics-adapter Deployment and its access to the member clusters`
        : `${kubectlIn(clusters)}get apiservice v1beta1.metrics.k8s.io; if it is not Available, check the metrics-server Deployment in kube-system (pods, logs, and the APIService's service endpoints)`,
  },
  custom: {
    cause: (kind, clusters) =>
      `custom metrics API unavailable in ${clusterList(clusters)}: every ${whoReads(kind)} with a Pods or Object metric there fails to read it (check the v1beta1.custom.metrics.k8s.io and v1beta2.custom.metrics.k8s.io APIServices, served by ${kind === 'FederatedHPA' ? 'karmada-metrics-adapter' : 'a metrics adapter such as prometheus-adapter'})`,
    hint: (_kind, clusters) =>
      `${kubectlIn(clusters)}get apiservices | grep custom.metrics.k8s.io; if one is not Available, check the adapter Deployment it names (pods, logs, its connection to Prometheus)`,
  },
  external: {
    cause: (kind, clusters) =>
      `external metrics API unavailable in ${clusterList(clusters)}: every ${whoReads(kind)} with an External metric there fails to read it (check the v1beta1.external.metrics.k8s.io APIService, served by e.g. KEDA's metrics API server or prometheus-adapter)`,
    hint: (_kind, clusters) =>
      `${kubectlIn(clusters)}get apiservice v1beta1.external.metrics.k8s.io; if it is not Available, check the Deployment it names (KEDA: keda-operator-metrics-apiserver in the keda namespace) and that one adapter only claims the APIService`,
  },
};

/** The AbleToScale=False reasons that end the sync before the metrics (see `earlyExit`). */
export const EARLY_EXIT_REASONS: ReadonlySet<string> = new Set(Object.keys(REASONS).filter((code) => REASONS[code]?.earlyExit));

/** The reason the controller reports when it cannot read a metric of this source type. */
export const UNREAD_METRIC_REASON: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REASONS).flatMap(([code, r]) => (r.metricSource ? [[r.metricSource, code] as const] : [])),
);

/** Per metrics API, the reasons of a failed read and the metric source types read through it. */
export function metricsApiReasons(api: MetricsApiId): { codes: ReadonlySet<string>; types: ReadonlySet<string> } {
  const entries = Object.entries(REASONS).filter(([, r]) => r.metricsApi === api);
  return {
    codes: new Set(entries.map(([code]) => code)),
    types: new Set(entries.flatMap(([, r]) => (r.metricSource ? [r.metricSource] : []))),
  };
}
