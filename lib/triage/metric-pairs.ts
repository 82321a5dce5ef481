import type { MetricCurrentDto, MetricPairDto, MetricTargetDto } from '@/lib/api/autoscaler';
import { pairMetrics } from '@/lib/hpa/pair-metrics';
import type { MetricPair } from '@/lib/hpa/pair-metrics';
import type { MetricSpec, MetricStatus, MetricTarget, MetricValueStatus, Quantity } from '@/lib/k8s/types';
import { milliValue, tryParseQuantity } from '@/lib/k8s/quantity';

type Basis = 'averageUtilization' | 'averageValue' | 'value';

function specTarget(spec: MetricSpec | null): MetricTarget | null {
  if (!spec) return null;
  return (
    spec.resource?.target ?? spec.containerResource?.target ?? spec.pods?.target ?? spec.object?.target ?? spec.external?.target ?? null
  );
}

function statusCurrent(status: MetricStatus | null): MetricValueStatus | null {
  if (!status) return null;
  return (
    status.resource?.current ??
    status.containerResource?.current ??
    status.pods?.current ??
    status.object?.current ??
    status.external?.current ??
    null
  );
}

/**
 * The target field the controller honours, which is not always `target.type` (docs/engines/hpa.md §2):
 * Resource/ContainerResource take averageValue when set, else averageUtilization
 * (computeStatusForResourceMetricGeneric); Pods takes averageValue; Object switches on target.type;
 * External takes averageValue when set, else value.
 */
function basisOf(type: string, target: MetricTarget): Basis | null {
  switch (type) {
    case 'Resource':
    case 'ContainerResource':
      if (target.averageValue !== undefined) return 'averageValue';
      return target.averageUtilization !== undefined ? 'averageUtilization' : null;
    case 'Pods':
      return target.averageValue !== undefined ? 'averageValue' : null;
    case 'Object':
      if (target.type === 'Value' && target.value !== undefined) return 'value';
      return target.type === 'AverageValue' && target.averageValue !== undefined ? 'averageValue' : null;
    case 'External':
      if (target.averageValue !== undefined) return 'averageValue';
      return target.value !== undefined ? 'value' : null;
    default:
      return null;
  }
}

function quantityString(q: Quantity | null | undefined): string | undefined {
  return q === undefined || q === null ? undefined : String(q);
}

/**
 * The fields that are set, in this order, in one object literal: V8 gives a literal exactly its fields' slots, while
 * an object grown field by field from `{}` has room for four (56 bytes for one field), and a field added to a literal
 * goes to a property array of its own. The index keeps a DTO's metric readings for each of up to 100,000 HPAs.
 */
function readingOf(value: string | undefined, averageValue: string | undefined, averageUtilization: number | undefined): MetricCurrentDto {
  if (value === undefined) {
    if (averageValue === undefined) return averageUtilization === undefined ? {} : { averageUtilization };
    return averageUtilization === undefined ? { averageValue } : { averageValue, averageUtilization };
  }
  if (averageValue === undefined) return averageUtilization === undefined ? { value } : { value, averageUtilization };
  return averageUtilization === undefined ? { value, averageValue } : { value, averageValue, averageUtilization };
}

/** `readingOf` with the target's type first, as one literal too. */
function targetOf(
  type: string,
  value: string | undefined,
  averageValue: string | undefined,
  averageUtilization: number | undefined,
): MetricTargetDto {
  if (value === undefined) {
    if (averageValue === undefined) return averageUtilization === undefined ? { type } : { type, averageUtilization };
    return averageUtilization === undefined ? { type, averageValue } : { type, averageValue, averageUtilization };
  }
  if (averageValue === undefined) return averageUtilization === undefined ? { type, value } : { type, value, averageUtilization };
  return averageUtilization === undefined ? { type, value, averageValue } : { type, value, averageValue, averageUtilization };
}

function toTargetDto(target: MetricTarget | null): MetricTargetDto | null {
  if (!target) return null;
  // A target field may be null in what a person wrote (YAML `averageValue: null`): absent, not "null".
  return targetOf(target.type, quantityString(target.value), quantityString(target.averageValue), target.averageUtilization ?? undefined);
}

function toCurrentDto(current: MetricValueStatus | null): MetricCurrentDto | null {
  if (!current) return null;
  return readingOf(
    current.value !== undefined ? String(current.value) : undefined,
    current.averageValue !== undefined ? String(current.averageValue) : undefined,
    current.averageUtilization,
  );
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function ratioOn(basis: Basis, target: MetricTarget, current: MetricValueStatus | null): number | null {
  if (!current) return null;
  if (basis === 'averageUtilization') {
    if (current.averageUtilization === undefined || !target.averageUtilization) return null;
    return round2(current.averageUtilization / target.averageUtilization);
  }
  const cur = current[basis];
  const tgt = target[basis];
  const parsedCur = cur === undefined ? null : tryParseQuantity(cur);
  const parsedTgt = tgt === undefined || tgt === null ? null : tryParseQuantity(tgt);
  if (!parsedCur || !parsedTgt) return null;
  // upstream: the replica calculator compares MilliValue()s as float64 (replica_calculator.go).
  const targetMilli = milliValue(parsedTgt);
  return targetMilli === 0n ? null : round2(Number(milliValue(parsedCur)) / Number(targetMilli));
}

function display(basis: Basis, v: MetricTarget | MetricValueStatus | null): string {
  const x = basis === 'averageUtilization' ? v?.averageUtilization : quantityString(v?.[basis]);
  if (x === undefined || x === null) return '<unknown>';
  return basis === 'averageUtilization' ? `${x}%` : String(x);
}

function label(pair: MetricPair): string {
  const { type, name, container, describedObject, selector } = pair.identity;
  if (type === 'ContainerResource') return `${name} (container ${container ?? ''})`;
  if (type === 'Object' && describedObject) return `${name} on ${describedObject.split('/').slice(-2).join('/')}`;
  if ((type === 'External' || type === 'Pods') && selector) return `${name}{${selector}}`;
  return name || type;
}

/** e.g. "cpu 92% / 60%", "queue_depth{queue=a} 30 / 10 (avg)"; kubectl's `<unknown>` when there is no value. */
function summaryOf(pair: MetricPair, basis: Basis | null, target: MetricTarget | null, current: MetricValueStatus | null): string {
  if (!pair.spec) {
    const only =
      current?.averageUtilization !== undefined
        ? `${current.averageUtilization}%`
        : quantityString(current?.averageValue ?? current?.value);
    return `${label(pair)} ${only ?? '<unknown>'} (not in spec)`;
  }
  if (!basis || !target) return `${label(pair)} ${current ? '?' : '<unknown>'} / <no usable target>`;
  const avg = basis === 'averageValue' && (pair.identity.type === 'Object' || pair.identity.type === 'External') ? ' (avg)' : '';
  return `${label(pair)} ${display(basis, current)} / ${display(basis, target)}${avg}`;
}

/** The HPA's metrics paired by identity (lib/hpa/pair-metrics), with ratio and summary for the list views. */
export function toMetricPairs(
  specMetrics: readonly MetricSpec[] | null | undefined,
  currentMetrics: readonly MetricStatus[] | null | undefined,
  /** `pairMetrics` of the same two lists, when the caller has it already. */
  pairs: readonly MetricPair[] = pairMetrics(specMetrics, currentMetrics),
): MetricPairDto[] {
  return pairs.map((pair) => {
    const target = specTarget(pair.spec);
    const current = statusCurrent(pair.status);
    const basis = target ? basisOf(pair.identity.type, target) : null;
    const dto: MetricPairDto = {
      key: pair.key,
      type: pair.identity.type,
      name: pair.identity.name,
      target: toTargetDto(target),
      current: toCurrentDto(current),
      ratio: basis && target ? ratioOn(basis, target, current) : null,
      summary: summaryOf(pair, basis, target, current),
    };
    if (pair.identity.container) dto.container = pair.identity.container;
    if (pair.identity.selector) dto.selector = pair.identity.selector;
    if (pair.identity.describedObject) dto.describedObject = pair.identity.describedObject;
    return dto;
  });
}
