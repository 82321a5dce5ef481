import type { Pod } from '@/lib/k8s/types';
import { milliValue } from '@/lib/k8s/quantity';
import { GO_ZERO_TIME_MS, parseTimeMs } from '@/lib/hpa/time';

/**
 * The replica calculator, ported from pkg/controller/podautoscaler/replica_calculator.go and
 * metrics/utilization.go. All values are int64 milli-units held as BigInt with int64 wrap-around where Go
 * would wrap; ratios are float64 exactly as upstream computes them.
 */

export const INT64_MAX = (1n << 63n) - 1n;
export const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

export { GO_ZERO_TIME_MS };

const wrap64 = (x: bigint): bigint => BigInt.asIntN(64, x);

/** Go's int32(float64) on amd64: truncation, and 0x80000000 for NaN and out-of-range values. */
export function goInt32(x: number): number {
  if (!Number.isFinite(x) || x >= 2147483648 || x <= -2147483649) return INT32_MIN;
  return Math.trunc(x);
}

/** An error message as upstream formats it; callers wrap it as Go's fmt.Errorf("...: %v") does. */
export class CalcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalcError';
  }
}

export interface PodMetric {
  value: bigint;
  timestampMs: number;
  windowMs: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export interface Tolerances {
  scaleDown: number;
  scaleUp: number;
  /** 'legacy' is the pre-1.33 rule |1 - r| ≤ tolerance, with one tolerance for both directions. */
  rule: 'interval' | 'legacy';
}

/** upstream: Tolerances.isWithin */
export function isWithinTolerance(t: Tolerances, usageRatio: number): boolean {
  if (t.rule === 'legacy') return Math.abs(1.0 - usageRatio) <= t.scaleDown;
  return 1.0 - t.scaleDown <= usageRatio && usageRatio <= 1.0 + t.scaleUp;
}

export interface CalculatorOptions {
  nowMs: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
  podLevelResources: boolean;
  missingPodsOnScaleDown: 'maxOf100AndTarget' | 'request';
  ignoreSucceededPods: boolean;
}

export interface PodGroups {
  readyPodCount: number;
  unreadyPods: Set<string>;
  missingPods: Set<string>;
  ignoredPods: Set<string>;
}

function timeMs(value: string | null | undefined): number | null {
  return value === null || value === undefined ? null : parseTimeMs(value);
}

function readyCondition(pod: Pod): { status: string; lastTransitionMs: number } | null {
  const condition = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (!condition) return null;
  return { status: condition.status, lastTransitionMs: timeMs(condition.lastTransitionTime) ?? GO_ZERO_TIME_MS };
}

/** upstream: podutil.IsPodReady */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** upstream: groupPods. CPU samples of pods still initializing, or never ready, are set aside as unready. */
export function groupPods(pods: readonly Pod[], metrics: PodMetricsInfo, resource: string, options: CalculatorOptions): PodGroups {
  const unreadyPods = new Set<string>();
  const missingPods = new Set<string>();
  const ignoredPods = new Set<string>();
  let readyPodCount = 0;
  for (const pod of pods) {
    const name = pod.metadata.name;
    const phase = pod.status?.phase;
    if (pod.metadata.deletionTimestamp || phase === 'Failed' || (options.ignoreSucceededPods && phase === 'Succeeded')) {
      ignoredPods.add(name);
      continue;
    }
    if (phase === 'Pending') {
      unreadyPods.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      missingPods.add(name);
      continue;
    }
    if (resource === 'cpu') {
      let unready: boolean;
      const condition = readyCondition(pod);
      const startMs = timeMs(pod.status?.startTime);
      if (condition === null || startMs === null) {
        unready = true;
      } else if (startMs + options.cpuInitializationPeriodMs > options.nowMs) {
        // still initializing: ignore the sample if unready or no full metric window since the last transition
        unready = condition.status === 'False' || metric.timestampMs < condition.lastTransitionMs + metric.windowMs;
      } else {
        // ignore the sample if the pod is unready and never became ready after the initial delay
        unready = condition.status === 'False' && startMs + options.delayOfInitialReadinessStatusMs > condition.lastTransitionMs;
      }
      if (unready) {
        unreadyPods.add(name);
        continue;
      }
    }
    readyPodCount++;
  }
  return { readyPodCount, unreadyPods, missingPods, ignoredPods };
}

const POD_LEVEL_RESOURCES = new Set(['cpu', 'memory']);

/** upstream: calculateRequests (container sum incl. restartable init containers, or pod-level requests). */
export function calculateRequests(
  pods: readonly Pod[],
  container: string,
  resource: string,
  podLevelResources: boolean,
): Map<string, bigint> {
  const requests = new Map<string, bigint>();
  for (const pod of pods) {
    const podRequests = pod.spec?.resources?.requests;
    const podLevelSet = !!podRequests && Object.keys(podRequests).some((r) => POD_LEVEL_RESOURCES.has(r));
    if (podLevelResources && podLevelSet && container === '') {
      const value = podRequests[resource];
      if (value === undefined) throw new CalcError(`missing pod-level request for ${resource} in Pod ${pod.metadata.name}`);
      requests.set(pod.metadata.name, milliValue(value));
      continue;
    }
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let request = 0n;
    let found = false;
    for (const c of containers) {
      if (container === '' || container === c.name) {
        const value = c.resources?.requests?.[resource];
        if (value === undefined) throw new CalcError(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
        request = wrap64(request + milliValue(value));
      }
      if (container === c.name) {
        found = true;
        break;
      }
    }
    if (container !== '' && !found) throw new CalcError(`container ${container} not found in Pod ${pod.metadata.name}`);
    requests.set(pod.metadata.name, request);
  }
  return requests;
}

/** upstream: metrics.GetResourceUtilizationRatio (utilization is truncated to an int before the ratio). */
export function getResourceUtilizationRatio(
  metrics: PodMetricsInfo,
  requests: Map<string, bigint>,
  targetUtilization: number,
): { ratio: number; utilization: number; rawAverage: bigint } {
  let metricsTotal = 0n;
  let requestsTotal = 0n;
  let entries = 0n;
  for (const [podName, metric] of metrics) {
    const request = requests.get(podName);
    // requests are checked elsewhere: a metric without a request is an extraneous metric
    if (request === undefined) continue;
    metricsTotal = wrap64(metricsTotal + metric.value);
    requestsTotal = wrap64(requestsTotal + request);
    entries++;
  }
  if (requestsTotal === 0n) throw new CalcError('no metrics returned matched known pods');
  const utilization = Number(BigInt.asIntN(32, wrap64(metricsTotal * 100n) / requestsTotal));
  return { ratio: utilization / targetUtilization, utilization, rawAverage: metricsTotal / entries };
}

/** upstream: metrics.GetMetricUsageRatio (average by integer division over every sample, known pod or not). */
export function getMetricUsageRatio(metrics: PodMetricsInfo, targetUsage: bigint): { ratio: number; usage: bigint } {
  let total = 0n;
  for (const metric of metrics.values()) total = wrap64(total + metric.value);
  const usage = total / BigInt(metrics.size);
  return { ratio: Number(usage) / Number(targetUsage), usage };
}

/** Why the second (rebalanced) pass kept the current count, or that it applied. */
export type RebalanceOutcome = 'within-tolerance' | 'direction-flip' | 'count-flip' | 'applied';

export interface PodsProposalDetail {
  ratio: number;
  withinTolerance: boolean;
  readyPodCount: number;
  unreadyPods: number;
  missingPods: number;
  ignoredPods: number;
  rebalancedRatio?: number;
  rebalance?: RebalanceOutcome;
  /** Missing pods were filled at this value (milli) on a scale-down, 0 on a scale-up. */
  missingFill?: 'target' | 'request' | 'zero';
  /** `len(metrics)` in the rebalanced pass, which may include samples for pods no longer listed. */
  rebalancedSamples?: number;
}

export interface ResourceReplicasResult {
  replicas: number;
  utilization: number;
  rawUtilization: bigint;
  detail: PodsProposalDetail;
}

function detailOf(ratio: number, withinTolerance: boolean, groups: PodGroups): PodsProposalDetail {
  return {
    ratio,
    withinTolerance,
    readyPodCount: groups.readyPodCount,
    unreadyPods: groups.unreadyPods.size,
    missingPods: groups.missingPods.size,
    ignoredPods: groups.ignoredPods.size,
  };
}

/** upstream: ReplicaCalculator.GetResourceReplicas, after the metrics client returned `metrics`. */
export function getResourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  resource: string,
  tolerances: Tolerances,
  pods: readonly Pod[],
  fetched: PodMetricsInfo,
  container: string,
  options: CalculatorOptions,
): ResourceReplicasResult {
  if (pods.length === 0) throw new CalcError('no pods returned by selector while calculating replica count');
  const metrics = new Map(fetched);
  const groups = groupPods(pods, metrics, resource, options);
  for (const name of groups.ignoredPods) metrics.delete(name);
  for (const name of groups.unreadyPods) metrics.delete(name);
  if (metrics.size === 0) throw new CalcError('did not receive metrics for targeted pods (pods might be unready)');

  const requests = calculateRequests(pods, container, resource, options.podLevelResources);
  const { ratio: usageRatio, utilization, rawAverage } = getResourceUtilizationRatio(metrics, requests, targetUtilization);

  const scaleUpWithUnready = groups.unreadyPods.size > 0 && usageRatio > 1.0;
  if (!scaleUpWithUnready && groups.missingPods.size === 0) {
    const within = isWithinTolerance(tolerances, usageRatio);
    const replicas = within ? currentReplicas : goInt32(Math.ceil(usageRatio * groups.readyPodCount));
    return { replicas, utilization, rawUtilization: rawAverage, detail: detailOf(usageRatio, within, groups) };
  }

  const detail = detailOf(usageRatio, false, groups);
  if (groups.missingPods.size > 0) {
    if (usageRatio < 1.0) {
      // on a scale-down, missing pods use 100% of request, or the target when it is above 100%
      const fallback = options.missingPodsOnScaleDown === 'request' ? 100n : BigInt(Math.max(100, targetUtilization));
      for (const name of groups.missingPods)
        metrics.set(name, { value: wrap64((requests.get(name) ?? 0n) * fallback) / 100n, timestampMs: 0, windowMs: 0 });
      detail.missingFill = 'request';
    } else if (usageRatio > 1.0) {
      for (const name of groups.missingPods) metrics.set(name, { value: 0n, timestampMs: 0, windowMs: 0 });
      detail.missingFill = 'zero';
    }
  }
  if (scaleUpWithUnready) {
    for (const name of groups.unreadyPods) metrics.set(name, { value: 0n, timestampMs: 0, windowMs: 0 });
  }

  const { ratio: newUsageRatio } = getResourceUtilizationRatio(metrics, requests, targetUtilization);
  detail.rebalancedRatio = newUsageRatio;
  detail.rebalancedSamples = metrics.size;
  return {
    ...finishRebalance(currentReplicas, usageRatio, newUsageRatio, metrics.size, tolerances, detail),
    utilization,
    rawUtilization: rawAverage,
  };
}

function finishRebalance(
  currentReplicas: number,
  usageRatio: number,
  newUsageRatio: number,
  samples: number,
  tolerances: Tolerances,
  detail: PodsProposalDetail,
): { replicas: number; detail: PodsProposalDetail } {
  if (isWithinTolerance(tolerances, newUsageRatio))
    return { replicas: currentReplicas, detail: { ...detail, rebalance: 'within-tolerance' } };
  if ((usageRatio < 1.0 && newUsageRatio > 1.0) || (usageRatio > 1.0 && newUsageRatio < 1.0)) {
    return { replicas: currentReplicas, detail: { ...detail, rebalance: 'direction-flip' } };
  }
  const newReplicas = goInt32(Math.ceil(newUsageRatio * samples));
  if ((newUsageRatio < 1.0 && newReplicas > currentReplicas) || (newUsageRatio > 1.0 && newReplicas < currentReplicas)) {
    // e.g. a rollout with maxSurge: more samples than replicas would flip the direction
    return { replicas: currentReplicas, detail: { ...detail, rebalance: 'count-flip' } };
  }
  return { replicas: newReplicas, detail: { ...detail, rebalance: 'applied' } };
}

export interface PlainReplicasResult {
  replicas: number;
  usage: bigint;
  detail: PodsProposalDetail;
}

/** upstream: calcPlainMetricReplicas, for Pods metrics and Resource AverageValue targets. */
export function calcPlainMetricReplicas(
  fetched: PodMetricsInfo,
  currentReplicas: number,
  targetUsage: bigint,
  tolerances: Tolerances,
  pods: readonly Pod[],
  resource: string,
  options: CalculatorOptions,
): PlainReplicasResult {
  if (pods.length === 0) throw new CalcError('no pods returned by selector while calculating replica count');
  const metrics = new Map(fetched);
  const groups = groupPods(pods, metrics, resource, options);
  for (const name of groups.ignoredPods) metrics.delete(name);
  for (const name of groups.unreadyPods) metrics.delete(name);
  if (metrics.size === 0) throw new CalcError('did not receive metrics for targeted pods (pods might be unready)');

  const { ratio: usageRatio, usage } = getMetricUsageRatio(metrics, targetUsage);
  const scaleUpWithUnready = groups.unreadyPods.size > 0 && usageRatio > 1.0;
  if (!scaleUpWithUnready && groups.missingPods.size === 0) {
    const within = isWithinTolerance(tolerances, usageRatio);
    const replicas = within ? currentReplicas : goInt32(Math.ceil(usageRatio * groups.readyPodCount));
    return { replicas, usage, detail: detailOf(usageRatio, within, groups) };
  }

  const detail = detailOf(usageRatio, false, groups);
  if (groups.missingPods.size > 0) {
    if (usageRatio < 1.0) {
      // on a scale-down, missing pods use exactly the target
      for (const name of groups.missingPods) metrics.set(name, { value: targetUsage, timestampMs: 0, windowMs: 0 });
      detail.missingFill = 'target';
    } else if (usageRatio > 1.0) {
      for (const name of groups.missingPods) metrics.set(name, { value: 0n, timestampMs: 0, windowMs: 0 });
      detail.missingFill = 'zero';
    }
  }
  if (scaleUpWithUnready) {
    for (const name of groups.unreadyPods) metrics.set(name, { value: 0n, timestampMs: 0, windowMs: 0 });
  }
  const { ratio: newUsageRatio } = getMetricUsageRatio(metrics, targetUsage);
  detail.rebalancedRatio = newUsageRatio;
  detail.rebalancedSamples = metrics.size;
  return { ...finishRebalance(currentReplicas, usageRatio, newUsageRatio, metrics.size, tolerances, detail), usage };
}

/** upstream: getReadyPodsCount (Running and Ready; deletion timestamps are not consulted). */
export function getReadyPodsCount(pods: readonly Pod[]): number {
  if (pods.length === 0) throw new CalcError('no pods returned by selector while calculating replica count');
  return pods.filter((pod) => pod.status?.phase === 'Running' && isPodReady(pod)).length;
}

export interface UsageRatioDetail {
  ratio: number;
  withinTolerance: boolean;
  readyPods?: number;
  fromZero?: boolean;
}

/** upstream: getUsageRatioReplicaCount (Object and External Value targets). */
export function getUsageRatioReplicaCount(
  currentReplicas: number,
  usageRatio: number,
  tolerances: Tolerances,
  pods: readonly Pod[],
): { replicas: number; detail: UsageRatioDetail } {
  if (currentReplicas !== 0) {
    if (isWithinTolerance(tolerances, usageRatio))
      return { replicas: currentReplicas, detail: { ratio: usageRatio, withinTolerance: true } };
    let readyPods: number;
    try {
      readyPods = getReadyPodsCount(pods);
    } catch (error) {
      if (error instanceof CalcError) throw new CalcError(`unable to calculate ready pods: ${error.message}`);
      throw error;
    }
    const replicaCountFloat = usageRatio * readyPods;
    const replicas = replicaCountFloat > INT32_MAX ? INT32_MAX : goInt32(Math.ceil(replicaCountFloat));
    return { replicas, detail: { ratio: usageRatio, withinTolerance: false, readyPods } };
  }
  // scale from zero: tolerance and readiness are not consulted
  return { replicas: goInt32(Math.ceil(usageRatio)), detail: { ratio: usageRatio, withinTolerance: false, fromZero: true } };
}

/** upstream: GetObjectMetricReplicas, after the custom metrics API returned `usage`. */
export function getObjectMetricReplicas(
  currentReplicas: number,
  targetUsage: bigint,
  usage: bigint,
  tolerances: Tolerances,
  pods: readonly Pod[],
): { replicas: number; usage: bigint; detail: UsageRatioDetail } {
  const usageRatio = Number(usage) / Number(targetUsage);
  return { ...getUsageRatioReplicaCount(currentReplicas, usageRatio, tolerances, pods), usage };
}

/** upstream: getPerPodUsage (MaxInt64 on overflow, 0 for zero replicas instead of dividing by zero). */
export function getPerPodUsage(usage: bigint, statusReplicas: number): bigint {
  if (Number(usage) >= Number(INT64_MAX)) return INT64_MAX;
  if (statusReplicas === 0) return 0n;
  return BigInt(Math.ceil(Number(usage) / statusReplicas));
}

/** upstream: GetObjectPerPodMetricReplicas. Divides by `scale.status.replicas`; readiness is not consulted. */
export function getObjectPerPodMetricReplicas(
  statusReplicas: number,
  targetAverageUsage: bigint,
  usage: bigint,
  tolerances: Tolerances,
): { replicas: number; usage: bigint; detail: UsageRatioDetail } {
  let replicas = statusReplicas;
  const usageRatio = Number(usage) / (Number(targetAverageUsage) * replicas);
  const within = isWithinTolerance(tolerances, usageRatio);
  if (!within) replicas = goInt32(Math.ceil(Number(usage) / Number(targetAverageUsage)));
  return { replicas, usage: getPerPodUsage(usage, statusReplicas), detail: { ratio: usageRatio, withinTolerance: within } };
}

/** The sum of an external metric's series as GetExternalMetricReplicas adds them (positive overflow capped). */
export function sumExternalValue(values: readonly bigint[]): bigint {
  let usage = 0n;
  for (const val of values) {
    if (val > 0n && usage > INT64_MAX - val) return INT64_MAX;
    usage = wrap64(usage + val);
  }
  return usage;
}

/** The sum as GetExternalPerPodMetricReplicas adds them (a wrap to negative reads as overflow). */
export function sumExternalPerPodValue(values: readonly bigint[]): bigint {
  let usage = 0n;
  for (const val of values) {
    usage = wrap64(usage + val);
    if (usage < 0n) return INT64_MAX;
  }
  return usage;
}

/** upstream: GetExternalMetricReplicas, after the external metrics API returned `values`. */
export function getExternalMetricReplicas(
  currentReplicas: number,
  targetUsage: bigint,
  values: readonly bigint[],
  tolerances: Tolerances,
  pods: readonly Pod[],
): { replicas: number; usage: bigint; detail: UsageRatioDetail } {
  const usage = sumExternalValue(values);
  const usageRatio = Number(usage) / Number(targetUsage);
  return { ...getUsageRatioReplicaCount(currentReplicas, usageRatio, tolerances, pods), usage };
}

/** upstream: GetExternalPerPodMetricReplicas. Divides by `scale.status.replicas`; readiness is not consulted. */
export function getExternalPerPodMetricReplicas(
  statusReplicas: number,
  targetUsagePerPod: bigint,
  values: readonly bigint[],
  tolerances: Tolerances,
): { replicas: number; usage: bigint; detail: UsageRatioDetail } {
  const usage = sumExternalPerPodValue(values);
  let replicas = statusReplicas;
  const usageRatio = Number(usage) / (Number(targetUsagePerPod) * replicas);
  const within = isWithinTolerance(tolerances, usageRatio);
  if (!within) {
    const result = Math.ceil(Number(usage) / Number(targetUsagePerPod));
    replicas = result > INT32_MAX ? INT32_MAX : goInt32(result);
  }
  return { replicas, usage: getPerPodUsage(usage, statusReplicas), detail: { ratio: usageRatio, withinTolerance: within } };
}
