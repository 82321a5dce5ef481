import type { Condition, HpaStatus, MetricSpec, MetricStatus, MetricValueStatus, Pod } from '@/lib/k8s/types';
import type { ParsedSelector } from '@/lib/k8s/selector';
import type {
  HpaControllerConfig,
  HpaControllerState,
  HpaEvent,
  HpaSyncInput,
  HpaSyncResult,
  ReplicasAggregator,
  TimestampedRecommendation,
  TimestampedScaleEvent,
} from '@/lib/hpa/types';
import type { PodsProposalDetail, Tolerances, UsageRatioDetail, CalculatorOptions } from '@/lib/hpa/replica-calculator';
import type { Recommendation, ResolvedBehavior, ScaleEvent } from '@/lib/hpa/normalize';
import { SelectorParseError, labelSelectorToSelector, matchesSelector, parseSelector } from '@/lib/k8s/selector';
import { asApproximateFloat64, formatMilliQuantity, milliValue } from '@/lib/k8s/quantity';
import { setCondition } from '@/lib/hpa/conditions';
import {
  CalcError,
  calcPlainMetricReplicas,
  getExternalMetricReplicas,
  getExternalPerPodMetricReplicas,
  getObjectMetricReplicas,
  getObjectPerPodMetricReplicas,
  getResourceReplicas,
} from '@/lib/hpa/replica-calculator';
import { getExternalMetric, getObjectMetric, getRawMetric, getResourceMetric, goLabelSelectorString } from '@/lib/hpa/metrics-client';
import {
  convertDesiredReplicasWithBehaviorRate,
  convertDesiredReplicasWithRules,
  resolveBehavior,
  stabilizeRecommendation,
  stabilizeRecommendationWithBehaviors,
  storeScaleEvent,
} from '@/lib/hpa/normalize';

/** Production defaults of kube-controller-manager (config/v1alpha1/defaults.go) and current feature gates. */
export const DEFAULT_HPA_CONFIG: Readonly<Required<HpaControllerConfig>> = Object.freeze({
  tolerance: 0.1,
  downscaleStabilizationSeconds: 300,
  cpuInitializationPeriodSeconds: 300,
  initialReadinessDelaySeconds: 30,
  scaleUpLimitFactor: 2,
  scaleUpLimitMinimum: 4,
  toleranceRule: 'interval',
  configurableTolerance: true,
  podLevelResources: true,
  missingPodsOnScaleDown: 'maxOf100AndTarget',
  partialFailure: 'refuseScaleDown',
  ignoreSucceededPods: false,
  memoryAverageValueFormat: 'DecimalSI',
  replicasAggregator: 'max',
  hpaGeneration: false,
});

/** The API server's default when `spec.metrics` is empty: cpu at 80% utilization. */
const DEFAULT_METRICS: MetricSpec[] = [
  { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
];

function resolveConfig(config: HpaControllerConfig | undefined): Required<HpaControllerConfig> {
  const resolved: Required<HpaControllerConfig> = { ...DEFAULT_HPA_CONFIG };
  if (!config) return resolved;
  for (const key of Object.keys(config) as (keyof HpaControllerConfig)[]) {
    const value = config[key];
    if (value !== undefined) Object.assign(resolved, { [key]: value });
  }
  return resolved;
}

/** upstream: schema.ParseGroupVersion */
function parseGroupVersion(gv: string): string | null {
  if (gv === '' || gv === '/') return null;
  const slashes = gv.split('/').length - 1;
  return slashes <= 1 ? null : `unexpected GroupVersion string: ${gv}`;
}

function fixed(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

interface MetricSuccess {
  ok: true;
  replicas: number;
  metricName: string;
  status: MetricStatus;
  line: string;
}

interface MetricFailure {
  ok: false;
  reason: string;
  /** The error given to the metric's Warning event and the ScalingActive condition. */
  eventMessage: string;
  /** The error computeReplicasForMetric returns (wrapped once more). */
  error: string;
  line: string;
}

type MetricOutcome = MetricSuccess | MetricFailure;

interface SyncContext {
  input: HpaSyncInput;
  config: Required<HpaControllerConfig>;
  namespace: string;
  nowMs: number;
  specReplicas: number;
  statusReplicas: number;
  pods: Pod[];
  selector: ParsedSelector;
  tolerances: Tolerances;
  calc: CalculatorOptions;
}

function messageOf(error: unknown): string {
  if (error instanceof CalcError || error instanceof SelectorParseError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

function failure(reason: string, eventMessage: string, error: string, label: string): MetricFailure {
  return { ok: false, reason, eventMessage, error, line: `${label}: cannot compute (${reason}): ${eventMessage}` };
}

function podGroupNote(d: PodsProposalDetail): string {
  const parts = [`${d.readyPodCount} ready`];
  if (d.unreadyPods) parts.push(`${d.unreadyPods} unready`);
  if (d.missingPods) parts.push(`${d.missingPods} without metrics`);
  if (d.ignoredPods) parts.push(`${d.ignoredPods} ignored (deleting or failed)`);
  return parts.join(', ');
}

function toleranceNote(t: Tolerances): string {
  if (t.rule === 'legacy') return `|1 - ratio| ≤ ${fixed(t.scaleDown)}`;
  return `tolerance [${fixed(1 - t.scaleDown)}, ${fixed(1 + t.scaleUp)}]`;
}

function podsOutcomeText(d: PodsProposalDetail, replicas: number, current: number, t: Tolerances): string {
  if (d.rebalance === undefined) {
    if (d.withinTolerance) return `ratio ${fixed(d.ratio)} within ${toleranceNote(t)} → keep ${current} replicas`;
    return `ratio ${fixed(d.ratio)} × ${d.readyPodCount} ready pods → ${replicas} replicas`;
  }
  const fill =
    d.missingFill === 'zero'
      ? 'pods without metrics counted as 0 on a scale-up'
      : d.missingFill === 'request'
        ? 'pods without metrics counted at max(100%, target) of their request on a scale-down'
        : d.missingFill === 'target'
          ? 'pods without metrics counted at the target on a scale-down'
          : '';
  const unready = d.unreadyPods && d.ratio > 1 ? 'unready pods counted as 0 on a scale-up' : '';
  const how = [fill, unready].filter(Boolean).join('; ');
  const rebalanced = `ratio ${fixed(d.ratio)}, rebalanced to ${fixed(d.rebalancedRatio ?? d.ratio)}${how ? ` (${how})` : ''}`;
  switch (d.rebalance) {
    case 'within-tolerance':
      return `${rebalanced}: within ${toleranceNote(t)} → keep ${current} replicas`;
    case 'direction-flip':
      return `${rebalanced}: the direction flips → keep ${current} replicas`;
    case 'count-flip':
      return `${rebalanced} × ${d.rebalancedSamples ?? 0} samples would move against the ratio → keep ${current} replicas`;
    default:
      return `${rebalanced} × ${d.rebalancedSamples ?? 0} samples → ${replicas} replicas`;
  }
}

function ratioOutcomeText(d: UsageRatioDetail, replicas: number, current: number, t: Tolerances): string {
  if (d.fromZero) return `ratio ${fixed(d.ratio)} from zero replicas (tolerance not applied) → ${replicas} replicas`;
  if (d.withinTolerance) return `ratio ${fixed(d.ratio)} within ${toleranceNote(t)} → keep ${current} replicas`;
  if (d.readyPods !== undefined) return `ratio ${fixed(d.ratio)} × ${d.readyPods} ready pods → ${replicas} replicas`;
  return `ratio ${fixed(d.ratio)} → ${replicas} replicas`;
}

function averageValueFormat(ctx: SyncContext, resource: string): 'DecimalSI' | 'BinarySI' {
  return resource === 'memory' ? ctx.config.memoryAverageValueFormat : 'DecimalSI';
}

function computeResourceMetric(ctx: SyncContext, spec: MetricSpec): MetricOutcome {
  const container = spec.type === 'ContainerResource' ? (spec.containerResource?.container ?? '') : '';
  const source = spec.type === 'ContainerResource' ? spec.containerResource : spec.resource;
  const reason = spec.type === 'ContainerResource' ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric';
  const name = source?.name ?? '';
  const label = spec.type === 'ContainerResource' ? `${name} of container ${container}` : `${name} resource`;
  const wrap = (err: string): string =>
    spec.type === 'ContainerResource'
      ? `failed to get ${container} container metric value: ${err}`
      : `failed to get ${name} resource metric value: ${err}`;
  if (!source) {
    const err = `invalid ${spec.type === 'ContainerResource' ? 'container resource' : 'resource'} metric source: the metric spec has no ${spec.type === 'ContainerResource' ? 'containerResource' : 'resource'} field`;
    return failure(reason, err, wrap(err), label);
  }
  const target = source.target;
  const buildStatus = (current: MetricValueStatus): MetricStatus =>
    spec.type === 'ContainerResource'
      ? { type: 'ContainerResource', containerResource: { name, container, current } }
      : { type: 'Resource', resource: { name, current } };

  if (target.averageValue !== undefined && target.averageValue !== null) {
    try {
      const targetMilli = milliValue(target.averageValue);
      let fetched;
      try {
        fetched = getResourceMetric(ctx.input.metrics, name, ctx.selector, container);
      } catch (error) {
        throw new CalcError(`unable to get metrics for resource ${name}: ${messageOf(error)}`);
      }
      const r = calcPlainMetricReplicas(fetched, ctx.specReplicas, targetMilli, ctx.tolerances, ctx.pods, name, ctx.calc);
      const format = averageValueFormat(ctx, name);
      return {
        ok: true,
        replicas: r.replicas,
        metricName: `${name} resource`,
        status: buildStatus({ averageValue: formatMilliQuantity(r.usage, format) }),
        line: `${label} average ${formatMilliQuantity(r.usage, format)} per pod vs target ${formatMilliQuantity(targetMilli, format)} (${podGroupNote(r.detail)}) → ${podsOutcomeText(r.detail, r.replicas, ctx.specReplicas, ctx.tolerances)}`,
      };
    } catch (error) {
      const err = `failed to get ${name} usage: ${messageOf(error)}`;
      return failure(reason, err, wrap(err), label);
    }
  }
  if (target.averageUtilization === undefined || target.averageUtilization === null) {
    const err = 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set';
    return failure(reason, err, wrap(err), label);
  }
  const targetUtilization = target.averageUtilization;
  try {
    let fetched;
    try {
      fetched = getResourceMetric(ctx.input.metrics, name, ctx.selector, container);
    } catch (error) {
      throw new CalcError(`unable to get metrics for resource ${name}: ${messageOf(error)}`);
    }
    const r = getResourceReplicas(ctx.specReplicas, targetUtilization, name, ctx.tolerances, ctx.pods, fetched, container, ctx.calc);
    const metricName =
      spec.type === 'ContainerResource'
        ? `${name} container resource utilization (percentage of request)`
        : `${name} resource utilization (percentage of request)`;
    const format = averageValueFormat(ctx, name);
    return {
      ok: true,
      replicas: r.replicas,
      metricName,
      status: buildStatus({ averageUtilization: r.utilization, averageValue: formatMilliQuantity(r.rawUtilization, format) }),
      line: `${label} utilization ${r.utilization}% of request vs target ${targetUtilization}% (${podGroupNote(r.detail)}) → ${podsOutcomeText(r.detail, r.replicas, ctx.specReplicas, ctx.tolerances)}`,
    };
  } catch (error) {
    const err = `failed to get ${name} utilization: ${messageOf(error)}`;
    return failure(reason, err, wrap(err), label);
  }
}

function computePodsMetric(ctx: SyncContext, spec: MetricSpec): MetricOutcome {
  const source = spec.pods;
  const name = source?.metric.name ?? '';
  const label = `pods metric ${name}`;
  const wrap = (err: string): string => `failed to get pods metric value: ${err}`;
  if (!source) {
    const err = 'invalid pods metric source: the metric spec has no pods field';
    return failure('FailedGetPodsMetric', err, wrap(err), label);
  }
  try {
    labelSelectorToSelector(source.metric.selector);
  } catch (error) {
    return failure('FailedGetPodsMetric', messageOf(error), wrap(messageOf(error)), label);
  }
  const targetValue = source.target.averageValue;
  if (targetValue === undefined || targetValue === null) {
    const err = 'invalid pods metric source: no average value target was set';
    return failure('FailedGetPodsMetric', err, wrap(err), label);
  }
  try {
    const targetMilli = milliValue(targetValue);
    let fetched;
    try {
      fetched = getRawMetric(ctx.input.metrics, name);
    } catch (error) {
      throw new CalcError(`unable to get metric ${name}: ${messageOf(error)}`);
    }
    const r = calcPlainMetricReplicas(fetched, ctx.specReplicas, targetMilli, ctx.tolerances, ctx.pods, '', ctx.calc);
    return {
      ok: true,
      replicas: r.replicas,
      metricName: `pods metric ${name}`,
      status: { type: 'Pods', pods: { metric: { ...source.metric }, current: { averageValue: formatMilliQuantity(r.usage) } } },
      line: `${label} average ${formatMilliQuantity(r.usage)} per pod vs target ${formatMilliQuantity(targetMilli)} (${podGroupNote(r.detail)}) → ${podsOutcomeText(r.detail, r.replicas, ctx.specReplicas, ctx.tolerances)}`,
    };
  } catch (error) {
    const err = messageOf(error);
    return failure('FailedGetPodsMetric', err, wrap(err), label);
  }
}

function computeObjectMetric(ctx: SyncContext, spec: MetricSpec): MetricOutcome {
  const source = spec.object;
  const name = source?.metric.name ?? '';
  const label = `object metric ${name}`;
  const wrap = (err: string): string => `failed to get object metric value: ${err}`;
  if (!source) {
    const err = 'invalid object metric source: the metric spec has no object field';
    return failure('FailedGetObjectMetric', err, wrap(err), label);
  }
  try {
    labelSelectorToSelector(source.metric.selector);
  } catch (error) {
    return failure('FailedGetObjectMetric', messageOf(error), wrap(messageOf(error)), label);
  }
  const ref = source.describedObject;
  const fetch = (): bigint => {
    try {
      return getObjectMetric(ctx.input.metrics, name);
    } catch (error) {
      // upstream's format string puts the kind where the error belongs; kept verbatim
      throw new CalcError(`unable to get metric ${name}: ${ref.kind} on ${ctx.namespace} ${ref.name}/${messageOf(error)}`);
    }
  };
  const target = source.target;
  const describedObject = { ...ref };
  if (target.type === 'Value' && target.value !== undefined && target.value !== null) {
    try {
      const targetMilli = milliValue(target.value);
      const r = getObjectMetricReplicas(ctx.specReplicas, targetMilli, fetch(), ctx.tolerances, ctx.pods);
      return {
        ok: true,
        replicas: r.replicas,
        metricName: `${ref.kind} metric ${name}`,
        status: {
          type: 'Object',
          object: { describedObject, metric: { ...source.metric }, current: { value: formatMilliQuantity(r.usage) } },
        },
        line: `${ref.kind} ${ref.name} metric ${name} value ${formatMilliQuantity(r.usage)} vs target ${formatMilliQuantity(targetMilli)} → ${ratioOutcomeText(r.detail, r.replicas, ctx.specReplicas, ctx.tolerances)}`,
      };
    } catch (error) {
      const err = messageOf(error);
      return failure('FailedGetObjectMetric', err, wrap(err), label);
    }
  }
  if (target.type === 'AverageValue' && target.averageValue !== undefined && target.averageValue !== null) {
    try {
      const targetMilli = milliValue(target.averageValue);
      const r = getObjectPerPodMetricReplicas(ctx.statusReplicas, targetMilli, fetch(), ctx.tolerances);
      return {
        ok: true,
        replicas: r.replicas,
        // upstream names the Object AverageValue proposal "external metric"
        metricName: `external metric ${name}(${goLabelSelectorString(source.metric.selector)})`,
        status: {
          type: 'Object',
          object: { describedObject, metric: { ...source.metric }, current: { averageValue: formatMilliQuantity(r.usage) } },
        },
        line: `${ref.kind} ${ref.name} metric ${name} per pod ${formatMilliQuantity(r.usage)} (value ÷ ${ctx.statusReplicas} status replicas) vs target ${formatMilliQuantity(targetMilli)} → ${ratioOutcomeText(r.detail, r.replicas, ctx.statusReplicas, ctx.tolerances)}`,
      };
    } catch (error) {
      const err = messageOf(error);
      return failure('FailedGetObjectMetric', err, wrap(`failed to get ${name} object metric: ${err}`), label);
    }
  }
  const err = 'invalid object metric source: neither a value target nor an average value target was set';
  return failure('FailedGetObjectMetric', err, wrap(err), label);
}

function computeExternalMetric(ctx: SyncContext, spec: MetricSpec): MetricOutcome {
  const source = spec.external;
  const name = source?.metric.name ?? '';
  const label = `external metric ${name}`;
  const wrap = (err: string): string => `failed to get ${name} external metric value: ${err}`;
  if (!source) {
    const err = 'invalid external metric source: the metric spec has no external field';
    return failure('FailedGetExternalMetric', err, wrap(err), label);
  }
  const selectorText = goLabelSelectorString(source.metric.selector);
  const metricName = `external metric ${name}(${selectorText})`;
  const fetch = (): bigint[] => {
    labelSelectorToSelector(source.metric.selector);
    try {
      return getExternalMetric(ctx.input.metrics, name);
    } catch (error) {
      throw new CalcError(`unable to get external metric ${ctx.namespace}/${name}/${selectorText}: ${messageOf(error)}`);
    }
  };
  const target = source.target;
  if (target.averageValue !== undefined && target.averageValue !== null) {
    try {
      const targetMilli = milliValue(target.averageValue);
      const r = getExternalPerPodMetricReplicas(ctx.statusReplicas, targetMilli, fetch(), ctx.tolerances);
      return {
        ok: true,
        replicas: r.replicas,
        metricName,
        status: { type: 'External', external: { metric: { ...source.metric }, current: { averageValue: formatMilliQuantity(r.usage) } } },
        line: `${label} per pod ${formatMilliQuantity(r.usage)} (sum ÷ ${ctx.statusReplicas} status replicas) vs target ${formatMilliQuantity(targetMilli)} → ${ratioOutcomeText(r.detail, r.replicas, ctx.statusReplicas, ctx.tolerances)}`,
      };
    } catch (error) {
      const err = messageOf(error);
      return failure('FailedGetExternalMetric', err, wrap(`failed to get ${name} external metric: ${err}`), label);
    }
  }
  if (target.value !== undefined && target.value !== null) {
    try {
      const targetMilli = milliValue(target.value);
      const r = getExternalMetricReplicas(ctx.specReplicas, targetMilli, fetch(), ctx.tolerances, ctx.pods);
      return {
        ok: true,
        replicas: r.replicas,
        metricName,
        status: { type: 'External', external: { metric: { ...source.metric }, current: { value: formatMilliQuantity(r.usage) } } },
        line: `${label} value ${formatMilliQuantity(r.usage)} vs target ${formatMilliQuantity(targetMilli)} → ${ratioOutcomeText(r.detail, r.replicas, ctx.specReplicas, ctx.tolerances)}`,
      };
    } catch (error) {
      const err = messageOf(error);
      return failure('FailedGetExternalMetric', err, wrap(`failed to get external metric ${name}: ${err}`), label);
    }
  }
  const err = 'invalid external metric source: neither a value target nor an average value target was set';
  return failure('FailedGetExternalMetric', err, wrap(err), label);
}

function computeMetric(ctx: SyncContext, spec: MetricSpec): MetricOutcome {
  switch (spec.type) {
    case 'Object':
      return computeObjectMetric(ctx, spec);
    case 'Pods':
      return computePodsMetric(ctx, spec);
    case 'Resource':
    case 'ContainerResource':
      return computeResourceMetric(ctx, spec);
    case 'External':
      return computeExternalMetric(ctx, spec);
    default: {
      const err = `unknown metric source type ${JSON.stringify(spec.type)}`;
      return failure('InvalidMetricSourceType', err, err, `metric of type ${JSON.stringify(spec.type)}`);
    }
  }
}

/** upstream: tolerancesForHpa — per-HPA tolerances only with `behavior` and the HPAConfigurableTolerance gate. */
function tolerancesForHpa(input: HpaSyncInput, config: Required<HpaControllerConfig>): Tolerances {
  const t: Tolerances = { scaleDown: config.tolerance, scaleUp: config.tolerance, rule: config.toleranceRule };
  const behavior = input.hpa.spec.behavior;
  if (!behavior || !config.configurableTolerance || config.toleranceRule === 'legacy') return t;
  const down = behavior.scaleDown?.tolerance;
  const up = behavior.scaleUp?.tolerance;
  if (down !== undefined && down !== null) t.scaleDown = asApproximateFloat64(down);
  if (up !== undefined && up !== null) t.scaleUp = asApproximateFloat64(up);
  return t;
}

function aggregate(outcomes: MetricSuccess[], aggregator: ReplicasAggregator): { replicas: number; metric: string } {
  let replicas = 0;
  let metric = '';
  if (aggregator === 'max') {
    // upstream: `replicas == 0 || proposal > replicas`
    for (const o of outcomes) {
      if (replicas === 0 || o.replicas > replicas) {
        replicas = o.replicas;
        metric = o.metricName;
      }
    }
    return { replicas, metric };
  }
  if (outcomes.length === 0) return { replicas, metric };
  if (aggregator === 'min') {
    let best = outcomes[0] as MetricSuccess;
    for (const o of outcomes) if (o.replicas < best.replicas) best = o;
    return { replicas: best.replicas, metric: best.metricName };
  }
  const sum = outcomes.reduce((s, o) => s + o.replicas, 0);
  return { replicas: Math.ceil(sum / outcomes.length), metric: `the average of ${outcomes.map((o) => o.metricName).join(', ')}` };
}

function toRecommendations(list: readonly TimestampedRecommendation[]): Recommendation[] {
  return list.map((r) => ({ replicas: r.replicas, timestampMs: Date.parse(r.timestamp) }));
}

function toScaleEvents(list: readonly TimestampedScaleEvent[] | undefined): ScaleEvent[] {
  return (list ?? []).map((e) => ({ replicaChange: e.replicaChange, timestampMs: Date.parse(e.timestamp), outdated: e.outdated ?? false }));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function fromScaleEvents(list: readonly ScaleEvent[]): TimestampedScaleEvent[] {
  return list.map((e) =>
    e.outdated
      ? { replicaChange: e.replicaChange, timestamp: iso(e.timestampMs), outdated: true }
      : { replicaChange: e.replicaChange, timestamp: iso(e.timestampMs) },
  );
}

function cloneStatus(status: HpaStatus | undefined): HpaStatus {
  return structuredClone(status ?? {});
}

/**
 * One sync of the HPA controller (horizontal.go reconcileAutoscaler), pure: the inputs are what the
 * controller would read, the result is what it would write, emit and remember.
 */
export function simulateHpaSync(input: HpaSyncInput): HpaSyncResult {
  const config = resolveConfig(input.config);
  const nowMs = Date.parse(input.now);
  if (Number.isNaN(nowMs)) throw new TypeError(`now must be an RFC 3339 time, got ${JSON.stringify(input.now)}`);
  const now = input.now;
  const hpa = input.hpa;
  const namespace = hpa.metadata.namespace ?? 'default';
  const originalStatus = hpa.status ?? {};
  const conditions: Condition[] = (originalStatus.conditions ?? []).map((c) => ({ ...c }));
  const events: HpaEvent[] = [];
  const explanation: string[] = [];
  const oldDesired = originalStatus.desiredReplicas ?? 0;

  const stateIn = input.controllerState ?? null;
  let recommendations: Recommendation[] | null = stateIn?.recommendations ? toRecommendations(stateIn.recommendations) : null;
  let scaleUpEvents = toScaleEvents(stateIn?.scaleUpEvents);
  let scaleDownEvents = toScaleEvents(stateIn?.scaleDownEvents);

  const stateOut = (): HpaControllerState => ({
    recommendations: recommendations ? recommendations.map((r) => ({ replicas: r.replicas, timestamp: iso(r.timestampMs) })) : null,
    scaleUpEvents: fromScaleEvents(scaleUpEvents),
    scaleDownEvents: fromScaleEvents(scaleDownEvents),
  });
  const result = (status: HpaStatus, rescale: boolean): HpaSyncResult => ({
    desiredReplicas: status.desiredReplicas ?? 0,
    rescale,
    conditions: status.conditions ?? [],
    currentMetrics: status.currentMetrics ?? [],
    events,
    controllerState: stateOut(),
    explanation,
    lastScaleTime: status.lastScaleTime ?? null,
    status,
  });
  const rebuiltStatus = (
    currentReplicas: number,
    desiredReplicas: number,
    metricStatuses: MetricStatus[] | null,
    rescaled: boolean,
  ): HpaStatus => {
    const status: HpaStatus = {
      currentReplicas,
      desiredReplicas,
      lastScaleTime: rescaled ? now : (originalStatus.lastScaleTime ?? null),
      currentMetrics: metricStatuses,
      conditions,
    };
    if (config.hpaGeneration && hpa.metadata.generation !== undefined) status.observedGeneration = hpa.metadata.generation;
    return status;
  };

  // 1. GET /scale
  const gvError = parseGroupVersion(hpa.spec.scaleTargetRef.apiVersion ?? '');
  const getScaleError = gvError ?? input.failures?.getScale;
  if (getScaleError !== undefined) {
    events.push({ type: 'Warning', reason: 'FailedGetScale', message: getScaleError });
    setCondition(
      conditions,
      'AbleToScale',
      'False',
      'FailedGetScale',
      `the HPA controller was unable to get the target's current scale: ${getScaleError}`,
      now,
    );
    explanation.push(
      `could not read the /scale subresource of ${hpa.spec.scaleTargetRef.kind} ${hpa.spec.scaleTargetRef.name}: ${getScaleError} → nothing else is evaluated (AbleToScale/FailedGetScale)`,
    );
    const status = cloneStatus(hpa.status);
    status.conditions = conditions;
    return result(status, false);
  }
  setCondition(
    conditions,
    'AbleToScale',
    'True',
    'SucceededGetScale',
    "the HPA controller was able to get the target's current scale",
    now,
  );

  // 2. current replicas come from scale.spec.replicas
  const currentReplicas = input.scale.specReplicas;
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  const behavior: ResolvedBehavior | null = resolveBehavior(hpa.spec.behavior);

  // 3. recordInitialRecommendation
  if (recommendations === null) {
    const window = behavior
      ? (behavior.scaleDown.stabilizationWindowSeconds ?? config.downscaleStabilizationSeconds)
      : config.downscaleStabilizationSeconds;
    if (window === 0) {
      // upstream reads the clock twice: the seed's time.Now() comes before stabilizeRecommendation's
      // `cutoff := time.Now().Add(-window)`, so with a 0 s window the seed is always older than the cutoff. One
      // `now` for both would make it count; the seed is taken 1 ms before instead.
      recommendations = [{ replicas: currentReplicas, timestampMs: nowMs - 1 }];
      explanation.push(
        `controller history unknown: assumed a fresh controller seeded with ${currentReplicas} replicas just before this sync; ` +
          'with a 0s downscale stabilization window that seed is already older than the cutoff, so it holds nothing and a scale-down happens at once',
      );
    } else {
      recommendations = [{ replicas: currentReplicas, timestampMs: nowMs }];
      explanation.push(
        `controller history unknown: assumed a fresh controller seeded with ${currentReplicas} replicas now, so a scale-down is held by the ${window}s stabilization window`,
      );
    }
  }
  if (behavior && !stateIn) explanation.push('no scale events known: the behavior rate limits assume nothing was scaled recently');

  let desiredReplicas = 0;
  let rescaleReason = '';
  let metricStatuses: MetricStatus[] | null = null;
  let rescale = true;

  if (currentReplicas === 0 && minReplicas !== 0) {
    rescale = false;
    setCondition(
      conditions,
      'ScalingActive',
      'False',
      'ScalingDisabled',
      'scaling is disabled since the replica count of the target is zero',
      now,
    );
    explanation.push(
      'the target has 0 replicas and minReplicas is not 0: autoscaling is disabled (ScalingActive/ScalingDisabled) until someone scales it up',
    );
  } else if (currentReplicas > maxReplicas) {
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
    desiredReplicas = maxReplicas;
    explanation.push(`${currentReplicas} replicas is above maxReplicas ${maxReplicas}: scale to ${maxReplicas} without evaluating metrics`);
  } else if (currentReplicas < minReplicas) {
    rescaleReason = 'Current number of replicas below Spec.MinReplicas';
    desiredReplicas = minReplicas;
    explanation.push(`${currentReplicas} replicas is below minReplicas ${minReplicas}: scale to ${minReplicas} without evaluating metrics`);
  } else {
    const computed = computeReplicasForMetrics(input, config, conditions, events, explanation, namespace, nowMs, now);
    metricStatuses = computed.statuses;
    if (computed.fatal !== null) {
      events.push({ type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: computed.fatal });
      explanation.push(`no scaling decision this sync: ${computed.fatal}; status.desiredReplicas stays ${oldDesired}`);
      return result(rebuiltStatus(currentReplicas, oldDesired, metricStatuses, false), false);
    }
    let rescaleMetric = '';
    if (computed.replicas > desiredReplicas) {
      desiredReplicas = computed.replicas;
      rescaleMetric = computed.metric;
    }
    if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
    if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
    const proposal = desiredReplicas;
    if (!behavior) {
      const window = config.downscaleStabilizationSeconds;
      const stabilized = stabilizeRecommendation(recommendations, proposal, nowMs, window * 1000);
      recommendations = stabilized.recommendations;
      if (stabilized.stabilized !== proposal) {
        setCondition(
          conditions,
          'AbleToScale',
          'True',
          'ScaleDownStabilized',
          'recent recommendations were higher than current one, applying the highest recent recommendation',
          now,
        );
        explanation.push(
          `downscale stabilization (${window}s window, no behavior): highest recent recommendation ${stabilized.stabilized} wins over ${proposal} (AbleToScale/ScaleDownStabilized)`,
        );
      } else {
        setCondition(conditions, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size', now);
      }
      const limited = convertDesiredReplicasWithRules(
        currentReplicas,
        stabilized.stabilized,
        minReplicas,
        maxReplicas,
        config.scaleUpLimitFactor,
        config.scaleUpLimitMinimum,
      );
      const clamped = limited.replicas !== stabilized.stabilized;
      setCondition(conditions, 'ScalingLimited', clamped ? 'True' : 'False', limited.reason, limited.message, now);
      if (clamped)
        explanation.push(
          limitText(limited.reason, stabilized.stabilized, limited.replicas, minReplicas, maxReplicas, currentReplicas, config),
        );
      desiredReplicas = limited.replicas;
    } else {
      const downWindow = behavior.scaleDown.stabilizationWindowSeconds ?? config.downscaleStabilizationSeconds;
      const upWindow = behavior.scaleUp.stabilizationWindowSeconds ?? 0;
      const stabilized = stabilizeRecommendationWithBehaviors(recommendations, currentReplicas, proposal, upWindow, downWindow, nowMs);
      recommendations = stabilized.recommendations;
      if (stabilized.stabilized !== proposal) {
        setCondition(conditions, 'AbleToScale', 'True', stabilized.reason, stabilized.message, now);
        explanation.push(
          stabilized.reason === 'ScaleUpStabilized'
            ? `scale-up stabilization (${upWindow}s window): lowest recent recommendation holds ${stabilized.stabilized} instead of ${proposal} (AbleToScale/ScaleUpStabilized)`
            : `scale-down stabilization (${downWindow}s window): highest recent recommendation holds ${stabilized.stabilized} instead of ${proposal} (AbleToScale/ScaleDownStabilized)`,
        );
      } else {
        setCondition(conditions, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size', now);
      }
      const limited = convertDesiredReplicasWithBehaviorRate(
        currentReplicas,
        stabilized.stabilized,
        minReplicas,
        maxReplicas,
        behavior,
        scaleUpEvents,
        scaleDownEvents,
        nowMs,
      );
      const clamped = limited.replicas !== stabilized.stabilized;
      setCondition(conditions, 'ScalingLimited', clamped ? 'True' : 'False', limited.reason, limited.message, now);
      if (clamped)
        explanation.push(behaviorLimitText(limited.reason, stabilized.stabilized, limited.replicas, minReplicas, maxReplicas, behavior));
      desiredReplicas = limited.replicas;
    }
    rescale = desiredReplicas !== currentReplicas;
  }

  if (rescale) {
    const updateError = input.failures?.updateScale;
    if (updateError !== undefined) {
      events.push({
        type: 'Warning',
        reason: 'FailedRescale',
        message: `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${updateError}`,
      });
      setCondition(
        conditions,
        'AbleToScale',
        'False',
        'FailedUpdateScale',
        `the HPA controller was unable to update the target scale: ${updateError}`,
        now,
      );
      explanation.push(
        `scaling ${currentReplicas} → ${desiredReplicas} failed (FailedRescale): ${updateError}; status.desiredReplicas stays ${oldDesired}`,
      );
      return result(rebuiltStatus(currentReplicas, oldDesired, metricStatuses, false), false);
    }
    setCondition(
      conditions,
      'AbleToScale',
      'True',
      'SucceededRescale',
      `the HPA controller was able to update the target scale to ${desiredReplicas}`,
      now,
    );
    events.push({ type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${desiredReplicas}; reason: ${rescaleReason}` });
    const stored = storeScaleEvent(behavior, scaleUpEvents, scaleDownEvents, currentReplicas, desiredReplicas, nowMs);
    scaleUpEvents = stored.scaleUpEvents;
    scaleDownEvents = stored.scaleDownEvents;
    explanation.push(`scale ${currentReplicas} → ${desiredReplicas} (SuccessfulRescale: ${rescaleReason})`);
    return result(rebuiltStatus(currentReplicas, desiredReplicas, metricStatuses, true), true);
  }
  if (currentReplicas !== 0 || minReplicas === 0) explanation.push(`no change: stay at ${currentReplicas} replicas`);
  return result(rebuiltStatus(currentReplicas, currentReplicas, metricStatuses, false), false);
}

function limitText(
  reason: string,
  from: number,
  to: number,
  min: number,
  max: number,
  current: number,
  config: Required<HpaControllerConfig>,
): string {
  switch (reason) {
    case 'TooManyReplicas':
      return `${from} replicas capped at maxReplicas ${max} (ScalingLimited/TooManyReplicas)`;
    case 'TooFewReplicas':
      return `${from} replicas raised to minReplicas ${min} (ScalingLimited/TooFewReplicas)`;
    default:
      return `${from} replicas capped at ${to} = max(${config.scaleUpLimitFactor} × ${current}, ${config.scaleUpLimitMinimum}), the per-sync scale-up limit without behavior (ScalingLimited/ScaleUpLimit)`;
  }
}

function behaviorLimitText(reason: string, from: number, to: number, min: number, max: number, behavior: ResolvedBehavior): string {
  const policies = (rules: ResolvedBehavior['scaleUp']): string =>
    `selectPolicy ${rules.selectPolicy}, ${rules.policies.map((p) => `${p.type} ${p.value}/${p.periodSeconds}s`).join(', ') || 'no policies'}`;
  switch (reason) {
    case 'TooManyReplicas':
      return `${from} replicas capped at maxReplicas ${max} (ScalingLimited/TooManyReplicas)`;
    case 'TooFewReplicas':
      return `${from} replicas raised to minReplicas ${min} (ScalingLimited/TooFewReplicas)`;
    case 'ScaleUpLimit':
      return `${from} replicas limited to ${to} by behavior.scaleUp (${policies(behavior.scaleUp)}) (ScalingLimited/ScaleUpLimit)`;
    default:
      return `${from} replicas limited to ${to} by behavior.scaleDown (${policies(behavior.scaleDown)}) (ScalingLimited/ScaleDownLimit)`;
  }
}

interface ComputedReplicas {
  replicas: number;
  metric: string;
  statuses: MetricStatus[] | null;
  /** The error that stops this sync (FailedComputeMetricsReplicas), or null. */
  fatal: string | null;
}

function otherSelectors(input: HpaSyncInput): { name: string; selector: ParsedSelector }[] {
  const namespace = input.hpa.metadata.namespace ?? 'default';
  const out: { name: string; selector: ParsedSelector }[] = [];
  (input.otherHpaSelectors ?? []).forEach((entry, i) => {
    const { name, selector } = typeof entry === 'string' ? { name: `other-hpa-${i + 1}`, selector: entry } : entry;
    // upstream registers an HPA with labels.Nothing() until it has reconciled a parsable, non-empty selector
    if (selector === '') return;
    try {
      out.push({ name: `${namespace}/${name}`, selector: parseSelector(selector) });
    } catch (error) {
      if (!(error instanceof SelectorParseError)) throw error;
    }
  });
  return out;
}

/** upstream: computeReplicasForMetrics (with validateAndParseSelector). */
function computeReplicasForMetrics(
  input: HpaSyncInput,
  config: Required<HpaControllerConfig>,
  conditions: Condition[],
  events: HpaEvent[],
  explanation: string[],
  namespace: string,
  nowMs: number,
  now: string,
): ComputedReplicas {
  const rawSelector = input.scale.selector;
  if (rawSelector === '') {
    const errMsg = 'selector is required';
    events.push({ type: 'Warning', reason: 'SelectorRequired', message: errMsg });
    setCondition(conditions, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", now);
    explanation.push("the target's /scale has no selector, so no pods can be found (ScalingActive/InvalidSelector)");
    return { replicas: -1, metric: '', statuses: null, fatal: errMsg };
  }
  let selector: ParsedSelector;
  try {
    selector = parseSelector(rawSelector);
  } catch (error) {
    if (!(error instanceof SelectorParseError)) throw error;
    const errMsg = `couldn't convert selector into a corresponding internal selector object: ${error.message}`;
    events.push({ type: 'Warning', reason: 'InvalidSelector', message: errMsg });
    setCondition(conditions, 'ScalingActive', 'False', 'InvalidSelector', errMsg, now);
    explanation.push(`the target's selector ${JSON.stringify(rawSelector)} does not parse (ScalingActive/InvalidSelector)`);
    return { replicas: -1, metric: '', statuses: null, fatal: errMsg };
  }
  const pods = input.pods.filter((p) => matchesSelector(selector, p.metadata.labels));
  const selfKey = `${namespace}/${input.hpa.metadata.name}`;
  const selecting = new Set<string>();
  if (pods.length > 0) selecting.add(selfKey);
  for (const other of otherSelectors(input)) {
    if (other.name !== selfKey && pods.some((p) => matchesSelector(other.selector, p.metadata.labels))) selecting.add(other.name);
  }
  if (selecting.size > 1) {
    const errMsg = `pods by selector ${rawSelector} are controlled by multiple HPAs: [${[...selecting].sort().join(' ')}]`;
    events.push({ type: 'Warning', reason: 'AmbiguousSelector', message: errMsg });
    setCondition(conditions, 'ScalingActive', 'False', 'AmbiguousSelector', errMsg, now);
    explanation.push(`another HPA selects the same pods (ScalingActive/AmbiguousSelector): ${errMsg}`);
    return { replicas: -1, metric: '', statuses: null, fatal: errMsg };
  }

  const ctx: SyncContext = {
    input,
    config,
    namespace,
    nowMs,
    specReplicas: input.scale.specReplicas,
    statusReplicas: input.scale.statusReplicas,
    pods,
    selector,
    tolerances: tolerancesForHpa(input, config),
    calc: {
      nowMs,
      cpuInitializationPeriodMs: config.cpuInitializationPeriodSeconds * 1000,
      delayOfInitialReadinessStatusMs: config.initialReadinessDelaySeconds * 1000,
      podLevelResources: config.podLevelResources,
      missingPodsOnScaleDown: config.missingPodsOnScaleDown,
      ignoreSucceededPods: config.ignoreSucceededPods,
    },
  };
  const specs = input.hpa.spec.metrics && input.hpa.spec.metrics.length > 0 ? input.hpa.spec.metrics : DEFAULT_METRICS;
  if (!input.hpa.spec.metrics || input.hpa.spec.metrics.length === 0)
    explanation.push('spec.metrics is empty: the API default (cpu at 80% utilization) applies');

  const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
  const successes: MetricSuccess[] = [];
  let firstFailure: MetricFailure | null = null;
  let invalidCount = 0;
  specs.forEach((spec, i) => {
    const outcome = computeMetric(ctx, spec);
    explanation.push(outcome.line);
    if (!outcome.ok) {
      events.push({ type: 'Warning', reason: outcome.reason, message: outcome.eventMessage });
      if (invalidCount <= 0) firstFailure = outcome;
      invalidCount++;
      return;
    }
    statuses[i] = outcome.status;
    successes.push(outcome);
  });
  const { replicas, metric } = aggregate(successes, config.replicasAggregator);
  if (successes.length > 1) {
    const how = config.replicasAggregator === 'max' ? 'max' : `${config.replicasAggregator} (preview option; the controller takes the max)`;
    explanation.push(`${how} over ${successes.length} metrics → ${replicas} replicas from ${metric}`);
  }

  const failed = firstFailure as MetricFailure | null;
  const invalidMetricError = failed
    ? `invalid metrics (${invalidCount} invalid out of ${specs.length}), first error is: ${failed.error}`
    : null;
  const blocking =
    invalidCount >= specs.length || (config.partialFailure === 'refuseScaleDown' && invalidCount > 0 && replicas < ctx.specReplicas);
  if (blocking && failed) {
    setCondition(
      conditions,
      'ScalingActive',
      'False',
      failed.reason,
      `the HPA was unable to compute the replica count: ${failed.eventMessage}`,
      now,
    );
    if (invalidCount < specs.length) {
      explanation.push(
        `${invalidCount} of ${specs.length} metrics failed and the others would scale down to ${replicas}: the controller refuses to act on partial data (ScalingActive/${failed.reason})`,
      );
    }
    return { replicas: -1, metric: '', statuses, fatal: invalidMetricError };
  }
  setCondition(
    conditions,
    'ScalingActive',
    'True',
    'ValidMetricFound',
    `the HPA was able to successfully calculate a replica count from ${metric}`,
    now,
  );
  if (failed)
    explanation.push(`${invalidCount} of ${specs.length} metrics failed, but the valid ones scale up, so the controller acts on them`);
  return { replicas, metric, statuses, fatal: null };
}
