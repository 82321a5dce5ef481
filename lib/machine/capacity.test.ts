import { describe, expect, it } from 'vitest';
import { awsMachineTemplate } from './__fixtures__/builders';
import { hasMachineAPIGpuCapacity, isValidGpuAcceleratorLabel, toMachineSetCapacity } from './capacity';
import type { InfrastructureTemplateLookup } from './capacity';

const NO_TEMPLATE: InfrastructureTemplateLookup = { describedAs: null, template: null };
const GPU_TEMPLATE: InfrastructureTemplateLookup = {
  describedAs: 'AWSMachineTemplate openshift-cluster-api/prod-east-7k2xq-gpu-us-east-1b',
  template: awsMachineTemplate(),
};

describe('toMachineSetCapacity for Machine API sets (openshift provider: upstream keys, then deprecated)', () => {
  const table: {
    name: string;
    annotations: Record<string, string>;
    cpu: string | null;
    memory: string | null;
    canScaleFromZero: boolean;
    extra?: Record<string, unknown>;
  }[] = [
    {
      name: 'machinetarget_test.go TestUpdatingScaleFromZeroAnnotations "Supplying new CPU and Memory annotations"',
      annotations: { 'capacity.cluster-autoscaler.kubernetes.io/cpu': '1', 'capacity.cluster-autoscaler.kubernetes.io/memory': '4Gi' },
      cpu: '1',
      memory: '4Gi',
      canScaleFromZero: true,
    },
    {
      name: 'machinetarget_test.go TestUpdatingScaleFromZeroAnnotations "Supplying old CPU annotation and adding upstream annotations"',
      annotations: { 'machine.openshift.io/vCPU': '1' },
      cpu: '1',
      memory: null,
      canScaleFromZero: false,
    },
    {
      name: 'machinetarget_test.go TestUpdatingScaleFromZeroAnnotations "Supplying old GPU annotation and adding upstream annotations"',
      annotations: { 'machine.openshift.io/GPU': '1', 'capacity.cluster-autoscaler.kubernetes.io/gpu-type': 'nvidia.com/gpu' },
      cpu: null,
      memory: null,
      canScaleFromZero: false,
      extra: {
        gpuCount: { value: '1', source: 'deprecated-annotation', key: 'machine.openshift.io/GPU' },
        gpuType: { value: 'nvidia.com/gpu', source: 'annotation', key: 'capacity.cluster-autoscaler.kubernetes.io/gpu-type' },
      },
    },
    {
      name: 'machinetarget_test.go TestUpdatingScaleFromZeroAnnotations "Supplying old max pods annotation and adding upstream annotations"',
      annotations: { 'machine.openshift.io/maxPods': '1' },
      cpu: null,
      memory: null,
      canScaleFromZero: false,
      extra: { maxPods: { value: '1', source: 'deprecated-annotation', key: 'machine.openshift.io/maxPods' } },
    },
    {
      name: 'memoryMb is MiB (checkScaleFromZeroAnnotations converts it)',
      annotations: { 'machine.openshift.io/vCPU': '4', 'machine.openshift.io/memoryMb': '16384' },
      cpu: '4',
      memory: '16384Mi',
      canScaleFromZero: true,
    },
    {
      name: 'a zero vCPU is no capacity',
      annotations: { 'machine.openshift.io/vCPU': '0', 'machine.openshift.io/memoryMb': '16384' },
      cpu: '0',
      memory: '16384Mi',
      canScaleFromZero: false,
    },
    {
      name: 'a zero upstream cpu key falls through to the deprecated vCPU',
      annotations: {
        'capacity.cluster-autoscaler.kubernetes.io/cpu': '0',
        'machine.openshift.io/vCPU': '2',
        'machine.openshift.io/memoryMb': '8192',
      },
      cpu: '2',
      memory: '8192Mi',
      canScaleFromZero: true,
    },
    {
      name: 'the upstream key wins over the deprecated one',
      annotations: {
        'capacity.cluster-autoscaler.kubernetes.io/memory': '15Gi',
        'machine.openshift.io/vCPU': '4',
        'machine.openshift.io/memoryMb': '16384',
      },
      cpu: '4',
      memory: '15Gi',
      canScaleFromZero: true,
    },
    {
      name: 'an unparsable memoryMb counts as absent and is listed',
      annotations: { 'machine.openshift.io/vCPU': '4', 'machine.openshift.io/memoryMb': '16Gi' },
      cpu: '4',
      memory: null,
      canScaleFromZero: false,
      extra: { invalidKeys: ['machine.openshift.io/memoryMb'] },
    },
  ];

  it.each(table)('$name', ({ annotations, cpu, memory, canScaleFromZero, extra }) => {
    const capacity = toMachineSetCapacity('machine.openshift.io', annotations, NO_TEMPLATE);
    expect([capacity.cpu?.value ?? null, capacity.memory?.value ?? null, capacity.canScaleFromZero]).toEqual([
      cpu,
      memory,
      canScaleFromZero,
    ]);
    if (extra) expect(capacity).toMatchObject(extra);
  });
});

describe('toMachineSetCapacity for Cluster API sets (clusterapi_unstructured.go InstanceCapacity/CanScaleFromZero)', () => {
  const table: {
    name: string;
    annotations: Record<string, string>;
    infrastructure: InfrastructureTemplateLookup;
    cpuSource: string | null;
    canScaleFromZero: boolean;
    checked?: string;
  }[] = [
    {
      name: 'template status.capacity alone is enough',
      annotations: {},
      infrastructure: GPU_TEMPLATE,
      cpuSource: 'infrastructure-template',
      canScaleFromZero: true,
    },
    {
      name: 'annotations win over the template',
      annotations: { 'capacity.cluster-autoscaler.kubernetes.io/cpu': '6', 'capacity.cluster-autoscaler.kubernetes.io/memory': '24Gi' },
      infrastructure: GPU_TEMPLATE,
      cpuSource: 'annotation',
      canScaleFromZero: true,
    },
    {
      name: 'annotations alone without a template',
      annotations: { 'capacity.cluster-autoscaler.kubernetes.io/cpu': '6', 'capacity.cluster-autoscaler.kubernetes.io/memory': '24Gi' },
      infrastructure: NO_TEMPLATE,
      cpuSource: 'annotation',
      canScaleFromZero: true,
    },
    {
      name: 'the deprecated MAPI keys are not read by the clusterapi provider',
      annotations: { 'machine.openshift.io/vCPU': '4', 'machine.openshift.io/memoryMb': '16384' },
      infrastructure: { describedAs: 'AWSMachineTemplate openshift-cluster-api/gone', template: null },
      cpuSource: null,
      canScaleFromZero: false,
      checked:
        'checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory; infrastructure template AWSMachineTemplate openshift-cluster-api/gone not found',
    },
    {
      name: 'an unparsable capacity annotation makes InstanceCapacity fail despite the template',
      annotations: { 'capacity.cluster-autoscaler.kubernetes.io/cpu': 'eight' },
      infrastructure: GPU_TEMPLATE,
      cpuSource: 'infrastructure-template',
      canScaleFromZero: false,
      checked:
        'checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory; status.capacity of AWSMachineTemplate openshift-cluster-api/prod-east-7k2xq-gpu-us-east-1b; unparsable: capacity.cluster-autoscaler.kubernetes.io/cpu="eight"',
    },
    {
      name: 'a set without infrastructureRef and without annotations',
      annotations: {},
      infrastructure: NO_TEMPLATE,
      cpuSource: null,
      canScaleFromZero: false,
      checked:
        'checked annotations capacity.cluster-autoscaler.kubernetes.io/cpu and capacity.cluster-autoscaler.kubernetes.io/memory; no spec.template.spec.infrastructureRef',
    },
  ];

  it.each(table)('$name', ({ annotations, infrastructure, cpuSource, canScaleFromZero, checked }) => {
    const capacity = toMachineSetCapacity('cluster.x-k8s.io', annotations, infrastructure);
    expect([capacity.cpu?.source ?? null, capacity.canScaleFromZero]).toEqual([cpuSource, canScaleFromZero]);
    if (checked !== undefined) expect(capacity.checked).toBe(checked);
  });
});

describe('hasMachineAPIGpuCapacity: machinetarget_test.go TestHasGPUCapacity', () => {
  it.each([
    { name: 'TestHasGPUCapacity "GPU capacity 1 has capacity"', value: '1', expected: true },
    { name: 'TestHasGPUCapacity "GPU capacity 0 has no capacity"', value: '0', expected: false },
    { name: 'TestHasGPUCapacity "GPU capacity -1 has no capacity"', value: '-1', expected: false },
    { name: 'a fractional count does not convert to int64 (AsInt64)', value: '500m', expected: false },
    { name: 'eight GPUs', value: '8', expected: true },
  ])('$name', ({ value, expected }) => {
    expect(hasMachineAPIGpuCapacity({ 'machine.openshift.io/GPU': value })).toBe(expected);
  });

  it('no GPU annotation, no GPUs', () => {
    expect(hasMachineAPIGpuCapacity({ 'machine.openshift.io/vCPU': '4' })).toBe(false);
  });
});

describe('isValidGpuAcceleratorLabel: machinetarget_test.go TestWarningForInvalidGPUAcceleratorLabel', () => {
  it.each([
    { name: 'TestWarningForInvalidGPUAcceleratorLabel "Well formatted label produces no warning"', value: 'nvidia.com', valid: true },
    { name: 'TestWarningForInvalidGPUAcceleratorLabel "Empty string produces a warning"', value: '', valid: false },
    { name: 'TestWarningForInvalidGPUAcceleratorLabel "Poorly formatted label produces a warning"', value: 'nvidia.com/gpu', valid: false },
    {
      name: 'TestWarningForInvalidGPUAcceleratorLabel "Missing .spec.template.spec.metadata.labels produces a warning"',
      value: undefined,
      valid: false,
    },
    { name: 'a label value longer than 63 characters', value: `a${'b'.repeat(63)}`, valid: false },
  ])('$name', ({ value, valid }) => {
    expect(isValidGpuAcceleratorLabel(value)).toBe(valid);
  });
});
