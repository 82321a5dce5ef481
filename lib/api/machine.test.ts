import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  awsMachineTemplate,
  capiMirror,
  capiV1beta1MachineSet,
  clusterAutoscaler,
  CONTEXT,
  coreEvents,
  eventsV1,
  machineAutoscaler,
  mapiMachineSet,
  pr402MachineAutoscaler,
} from '@/lib/machine/__fixtures__/builders';
import { assessMachineAutoscalers, toMachineSetView } from '@/lib/machine';
import type * as machine from '@/lib/machine/types';
import { MachineAutoscalerVerdictSchema, MachineSetViewSchema } from './machine';
import type { MachineAutoscalerVerdict, MachineSetView } from './machine';

describe('lib/api/machine schemas', () => {
  it('describe exactly the types lib/machine returns', () => {
    expectTypeOf<MachineAutoscalerVerdict>().toEqualTypeOf<machine.MachineAutoscalerVerdict>();
    expectTypeOf<MachineSetView>().toEqualTypeOf<machine.MachineSetView>();
  });

  it('accept every verdict of a real fleet unchanged', () => {
    const verdicts = assessMachineAutoscalers({
      machineAutoscalers: [machineAutoscaler(), pr402MachineAutoscaler()],
      machineSets: { machineAPI: [mapiMachineSet()], clusterAPI: [capiMirror(), capiV1beta1MachineSet()] },
      clusterAutoscalers: [clusterAutoscaler()],
      infrastructureTemplates: [awsMachineTemplate()],
      events: [...coreEvents(), ...eventsV1()],
      context: CONTEXT,
    });
    expect(verdicts).toHaveLength(2);
    for (const verdict of verdicts) expect(MachineAutoscalerVerdictSchema.parse(verdict)).toEqual(verdict);
  });

  it('accept the views of all three MachineSet shapes', () => {
    for (const view of [toMachineSetView(mapiMachineSet()), toMachineSetView(capiMirror()), toMachineSetView(capiV1beta1MachineSet())]) {
      expect(MachineSetViewSchema.parse(view)).toEqual(view);
    }
  });

  it('reject an unknown finding code and a Ready status outside True/False/Unknown', () => {
    const base = {
      machineAutoscaler: 'openshift-machine-api/worker-us-east-1a',
      operatorReady: null,
      derivedReady: { status: 'True', reason: 'MachineAutoscalerReady', message: 'MachineAutoscaler ready for autoscaling' },
      findings: [],
      target: {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineSet',
        name: 'prod-east-7k2xq-worker-us-east-1a',
        expectedNamespace: 'openshift-machine-api',
        found: true,
        authoritativeAPI: 'MachineAPI',
        refIsAuthoritative: true,
        authoritativeCopy: null,
        mirror: null,
      },
      events: [],
    };
    expect(MachineAutoscalerVerdictSchema.safeParse(base).success).toBe(true);
    expect(
      MachineAutoscalerVerdictSchema.safeParse({ ...base, findings: [{ code: 'TargetOnFire', severity: 'error', message: '' }] }).success,
    ).toBe(false);
    expect(MachineAutoscalerVerdictSchema.safeParse({ ...base, derivedReady: { ...base.derivedReady, status: 'Yes' } }).success).toBe(
      false,
    );
  });
});
