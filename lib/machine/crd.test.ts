import { describe, expect, it } from 'vitest';
import { pr402Crd, shippedCrd } from './__fixtures__/builders';
import { operatorSupportsClusterAPITargetsFromCrd } from './crd';
import type { CustomResourceDefinitionObject } from './wire-types';

describe('operatorSupportsClusterAPITargetsFromCrd (docs/engines/machine.md §7)', () => {
  const table: { name: string; crd: () => CustomResourceDefinitionObject | null; expected: boolean }[] = [
    { name: 'the shipped CRD (status has only lastTargetRef)', crd: shippedCrd, expected: false },
    { name: 'the PR #402 CRD (status.properties.conditions)', crd: pr402Crd, expected: true },
    { name: 'no CRD (not an OpenShift cluster)', crd: () => null, expected: false },
    {
      name: 'another CRD that happens to have status conditions',
      crd: () => {
        const crd = pr402Crd();
        crd.metadata.name = 'clusterautoscalers.autoscaling.openshift.io';
        return crd;
      },
      expected: false,
    },
    {
      name: 'conditions only in a version that is no longer served',
      crd: () => {
        const crd = pr402Crd();
        const version = crd.spec?.versions?.[0];
        if (version) version.served = false;
        return crd;
      },
      expected: false,
    },
  ];

  it.each(table)('$name', ({ crd, expected }) => {
    expect(operatorSupportsClusterAPITargetsFromCrd(crd())).toBe(expected);
  });
});
