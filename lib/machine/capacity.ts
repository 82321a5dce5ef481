import { asApproximateFloat64, tryParseQuantity } from '@/lib/k8s/quantity';
import type { CapacityValue, MachineSetCapacity, MachineSetGroup } from './types';
import type { InfrastructureTemplateObject } from './wire-types';
import {
  CAPACITY_CPU_ANNOTATION,
  CAPACITY_EPHEMERAL_DISK_ANNOTATION,
  CAPACITY_GPU_COUNT_ANNOTATION,
  CAPACITY_GPU_TYPE_ANNOTATION,
  CAPACITY_MAX_PODS_ANNOTATION,
  CAPACITY_MEMORY_ANNOTATION,
  CLUSTER_API_GROUP,
  MACHINE_API_GPU_ANNOTATION,
  MACHINE_API_MAX_PODS_ANNOTATION,
  MACHINE_API_MEMORY_MB_ANNOTATION,
  MACHINE_API_VCPU_ANNOTATION,
} from './keys';
import { parseAtoi } from './parse-int';

export interface InfrastructureTemplateLookup {
  /** `Kind namespace/name` of the referenced template, for messages; null when the set has no reference. */
  describedAs: string | null;
  /** The template when the caller had it; null when it was referenced but not supplied (not found). */
  template: InfrastructureTemplateObject | null;
}

interface Candidate {
  key: string;
  source: CapacityValue['source'];
  /** Converts the raw value to the quantity shown; null when it does not parse. */
  read: (raw: string) => { value: string; amount: number } | null;
}

/** upstream: `resource.ParseQuantity`; only the sign matters here, so the approximate float is enough. */
function quantityReader(raw: string): { value: string; amount: number } | null {
  const parsed = tryParseQuantity(raw);
  return parsed === null ? null : { value: raw, amount: asApproximateFloat64(parsed) };
}

/** upstream: checkScaleFromZeroAnnotations (machinetarget.go) reads memoryMb with ParseInt and converts MiB. */
function memoryMbReader(raw: string): { value: string; amount: number } | null {
  const mib = parseAtoi(raw);
  return mib === null ? null : { value: `${mib}Mi`, amount: mib * 2 ** 20 };
}

function annotation(key: string): Candidate {
  return { key, source: 'annotation', read: quantityReader };
}

function deprecated(key: string, read: Candidate['read'] = quantityReader): Candidate {
  return { key, source: 'deprecated-annotation', read };
}

type CandidateTable = Record<'cpu' | 'memory' | 'gpuCount' | 'maxPods', readonly Candidate[]>;

/** The `clusterapi` provider reads only the upstream `capacity.*` keys. */
const CLUSTER_API_CANDIDATES: CandidateTable = {
  cpu: [annotation(CAPACITY_CPU_ANNOTATION)],
  memory: [annotation(CAPACITY_MEMORY_ANNOTATION)],
  gpuCount: [annotation(CAPACITY_GPU_COUNT_ANNOTATION)],
  maxPods: [annotation(CAPACITY_MAX_PODS_ANNOTATION)],
};

/** The `openshift` provider reads upstream `capacity.*` keys first, then the deprecated `machine.openshift.io/*` (docs/engines/machine.md §4). */
const MACHINE_API_CANDIDATES: CandidateTable = {
  cpu: [annotation(CAPACITY_CPU_ANNOTATION), deprecated(MACHINE_API_VCPU_ANNOTATION)],
  memory: [annotation(CAPACITY_MEMORY_ANNOTATION), deprecated(MACHINE_API_MEMORY_MB_ANNOTATION, memoryMbReader)],
  gpuCount: [annotation(CAPACITY_GPU_COUNT_ANNOTATION), deprecated(MACHINE_API_GPU_ANNOTATION)],
  maxPods: [annotation(CAPACITY_MAX_PODS_ANNOTATION), deprecated(MACHINE_API_MAX_PODS_ANNOTATION)],
};

interface Resolved {
  value: CapacityValue | null;
  /** Parsed and non-zero: what InstanceCapacity keeps from an annotation. */
  positive: boolean;
}

type Annotations = Readonly<Record<string, unknown>>;

function stringAt(annotations: Annotations, key: string): string | undefined {
  const value = annotations[key];
  return typeof value === 'string' ? value : undefined;
}

function resolve(annotations: Annotations, candidates: readonly Candidate[], invalidKeys: string[]): Resolved {
  let zero: CapacityValue | null = null;
  for (const candidate of candidates) {
    const raw = stringAt(annotations, candidate.key);
    if (raw === undefined) continue;
    const parsed = candidate.read(raw);
    if (parsed === null) {
      invalidKeys.push(candidate.key);
      continue;
    }
    const value: CapacityValue = { value: parsed.value, source: candidate.source, key: candidate.key };
    // upstream: InstanceCapacity drops zero-valued annotations (`!cpu.IsZero()`), so a later source may still answer.
    if (parsed.amount > 0) return { value, positive: true };
    zero ??= value;
  }
  return { value: zero, positive: false };
}

function fromTemplate(template: InfrastructureTemplateObject | null, resource: string): CapacityValue | null {
  const raw = template?.status?.capacity?.[resource];
  if (typeof raw !== 'string' || tryParseQuantity(raw) === null) return null;
  return { value: raw, source: 'infrastructure-template', key: `status.capacity.${resource}` };
}

/**
 * The capacity the autoscaler would see for one copy of a MachineSet, and whether it can scale that node group
 * from zero. upstream: kubernetes-autoscaler clusterapi_unstructured.go `InstanceCapacity`/`CanScaleFromZero`
 * (annotations win over the infrastructure template's `status.capacity`; any unparsable capacity annotation
 * makes InstanceCapacity fail, so the set cannot scale from zero).
 */
export function toMachineSetCapacity(
  group: MachineSetGroup,
  annotations: Annotations,
  infrastructure: InfrastructureTemplateLookup,
): MachineSetCapacity {
  const invalidKeys: string[] = [];
  const candidates = group === CLUSTER_API_GROUP ? CLUSTER_API_CANDIDATES : MACHINE_API_CANDIDATES;
  const cpu = resolve(annotations, candidates.cpu, invalidKeys);
  const memory = resolve(annotations, candidates.memory, invalidKeys);
  const gpuCount = resolve(annotations, candidates.gpuCount, invalidKeys);
  const maxPods = resolve(annotations, candidates.maxPods, invalidKeys);
  const gpuTypeRaw = stringAt(annotations, CAPACITY_GPU_TYPE_ANNOTATION);
  const gpuType: CapacityValue | null =
    gpuTypeRaw === undefined ? null : { value: gpuTypeRaw, source: 'annotation', key: CAPACITY_GPU_TYPE_ANNOTATION };

  if (group !== CLUSTER_API_GROUP) {
    return {
      cpu: cpu.value,
      memory: memory.value,
      gpuCount: gpuCount.value,
      gpuType,
      maxPods: maxPods.value,
      canScaleFromZero: cpu.positive && memory.positive,
      invalidKeys,
      checked: describeChecked(group, invalidKeys, annotations, infrastructure),
    };
  }

  const disk = stringAt(annotations, CAPACITY_EPHEMERAL_DISK_ANNOTATION);
  if (disk !== undefined && tryParseQuantity(disk) === null) invalidKeys.push(CAPACITY_EPHEMERAL_DISK_ANNOTATION);
  const cpuValue = cpu.positive ? cpu.value : (fromTemplate(infrastructure.template, 'cpu') ?? cpu.value);
  const memoryValue = memory.positive ? memory.value : (fromTemplate(infrastructure.template, 'memory') ?? memory.value);
  return {
    cpu: cpuValue,
    memory: memoryValue,
    gpuCount: gpuCount.value,
    gpuType,
    maxPods: maxPods.value,
    canScaleFromZero: invalidKeys.length === 0 && isKnown(cpuValue, cpu.positive) && isKnown(memoryValue, memory.positive),
    invalidKeys,
    checked: describeChecked(group, invalidKeys, annotations, infrastructure),
  };
}

/** A template value counts even when zero (upstream keeps any parsable status.capacity entry). */
function isKnown(value: CapacityValue | null, positive: boolean): boolean {
  return positive || value?.source === 'infrastructure-template';
}

function describeChecked(
  group: MachineSetGroup,
  invalidKeys: string[],
  annotations: Annotations,
  infrastructure: InfrastructureTemplateLookup,
): string {
  const parts: string[] = [];
  if (group === CLUSTER_API_GROUP) {
    parts.push(`checked annotations ${CAPACITY_CPU_ANNOTATION} and ${CAPACITY_MEMORY_ANNOTATION}`);
    if (infrastructure.describedAs === null) parts.push('no spec.template.spec.infrastructureRef');
    else if (infrastructure.template === null) parts.push(`infrastructure template ${infrastructure.describedAs} not found`);
    else parts.push(`status.capacity of ${infrastructure.describedAs}`);
  } else {
    parts.push(
      `checked annotations ${CAPACITY_CPU_ANNOTATION}, ${CAPACITY_MEMORY_ANNOTATION}, ${MACHINE_API_VCPU_ANNOTATION} and ${MACHINE_API_MEMORY_MB_ANNOTATION}`,
    );
  }
  if (invalidKeys.length > 0) {
    parts.push(`unparsable: ${invalidKeys.map((key) => `${key}=${JSON.stringify(stringAt(annotations, key) ?? '')}`).join(', ')}`);
  }
  return parts.join('; ');
}

/**
 * upstream: machinetarget.go `HasGPUCapacity`: only the deprecated `machine.openshift.io/GPU` key counts, and only
 * when it converts to a whole number of at least 1 (`AsInt64`).
 */
export function hasMachineAPIGpuCapacity(annotations: Annotations): boolean {
  const raw = stringAt(annotations, MACHINE_API_GPU_ANNOTATION);
  if (raw === undefined) return false;
  const parsed = tryParseQuantity(raw);
  if (parsed === null) return false;
  const count = asApproximateFloat64(parsed);
  return Number.isInteger(count) && count >= 1;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * upstream: machinetarget.go `WarningForInvalidGPUAcceleratorLabel` + util `IsValidGPUAcceleratorLabel`: the
 * operator warns when the label is absent, empty, or not a valid label value (apimachinery `IsValidLabelValue`).
 */
export function isValidGpuAcceleratorLabel(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0) return false;
  return value.length <= 63 && LABEL_VALUE.test(value);
}
