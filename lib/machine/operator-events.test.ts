import { describe, expect, it } from 'vitest';
import { coreEvents, eventsV1 } from './__fixtures__/builders';
import { eventsAbout, indexOperatorEvents } from './operator-events';

const MA_UID = 'e4d2b6f0-8c1a-4f37-b5e9-03a7c9d12f68';

describe('indexOperatorEvents / eventsAbout', () => {
  const index = indexOperatorEvents([...coreEvents(), ...eventsV1()]);

  it('keeps only the reasons of the operator (docs/engines/machine.md §2), keyed by the object they are about', () => {
    const about = eventsAbout(index, [
      { kind: 'MachineSet', namespace: 'openshift-machine-api', name: 'prod-east-7k2xq-worker-us-east-1a' },
    ]);
    expect(about).toEqual([]);
  });

  it('without a uid on the subject, also returns the events of a deleted namesake', () => {
    const about = eventsAbout(index, [{ kind: 'MachineAutoscaler', namespace: 'openshift-machine-api', name: 'worker-us-east-1a' }]);
    expect(about.map((event) => event.reason)).toEqual(['SuccessfulUpdate', 'FailedGetTarget', 'FailedValidation']);
  });

  it('with the uid, drops the events of the deleted namesake', () => {
    const about = eventsAbout(index, [
      { kind: 'MachineAutoscaler', namespace: 'openshift-machine-api', name: 'worker-us-east-1a', uid: MA_UID },
    ]);
    expect(about.map((event) => event.reason)).toEqual(['SuccessfulUpdate', 'FailedGetTarget']);
  });

  it('reads an events.k8s.io/v1 event through regarding/note/series', () => {
    const [event] = eventsAbout(index, [
      { kind: 'MachineSet', namespace: 'openshift-machine-api', name: 'prod-east-7k2xq-gpu-us-east-1c' },
    ]);
    expect(event).toEqual({
      type: 'Warning',
      reason: 'InvalidOrMissingGPUAcceleratorLabel',
      regardingKind: 'MachineSet',
      message:
        'GPU accelerator label not found on MachineSet prod-east-7k2xq-gpu-us-east-1c. This is not an error but may cause issues when using GPU resource limits with the Cluster Autoscaler. For more information on the proper use of these values, please see https://access.redhat.com/solutions/6055181',
      timestamp: '2026-08-04T07:15:22.530617Z',
      count: 1,
    });
  });

  it('merges several subjects newest first and filters reasons per subject', () => {
    const about = eventsAbout(index, [
      { kind: 'MachineAutoscaler', namespace: 'openshift-machine-api', name: 'worker-us-east-1a-copy' },
      { kind: 'MachineAutoscaler', namespace: 'openshift-machine-api', name: 'gpu-us-east-1b', reasons: new Set(['FailedUpdateTarget']) },
    ]);
    expect(about.map((event) => [event.reason, event.timestamp])).toEqual([
      ['FailedUpdateTarget', '2026-08-03T11:51:40.118204Z'],
      ['FailedSetOwner', '2026-04-18T22:44:58Z'],
    ]);
  });

  it('falls back to metadata.creationTimestamp when an event has no event time', () => {
    const [raw] = coreEvents();
    if (!raw) throw new Error('fixture has events');
    const bare = { ...raw, lastTimestamp: null, firstTimestamp: null, eventTime: null };
    const [event] = eventsAbout(indexOperatorEvents([bare]), [
      { kind: 'MachineAutoscaler', namespace: 'openshift-machine-api', name: 'worker-us-east-1a' },
    ]);
    expect(event?.timestamp).toBe('2026-03-10T14:02:11Z');
  });
});
