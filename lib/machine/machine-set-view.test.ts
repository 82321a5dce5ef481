import { describe, expect, it } from 'vitest';
import { awsMachineTemplate, capiMirror, capiV1beta1MachineSet, GPU_1B, mapiMachineSet, WORKER_1A } from './__fixtures__/builders';
import { toMachineSetView } from './machine-set-view';
import type { ClusterAPIMachineSetObject } from './wire-types';

describe('toMachineSetView', () => {
  it('normalises the AWS Machine API MachineSet', () => {
    const view = toMachineSetView(mapiMachineSet());
    expect(view).toMatchObject({
      group: 'machine.openshift.io',
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      namespace: 'openshift-machine-api',
      name: WORKER_1A,
      uid: '7c1f6a0e-3b5d-4c52-9e0b-2f4d8a91c6e3',
      creationTimestamp: '2026-03-02T09:14:27Z',
      deletionTimestamp: null,
      clusterName: 'prod-east-7k2xq',
      replicas: { desired: 2, current: 2, ready: 2, available: 2, upToDate: null },
      paused: false,
      templateLabels: {},
      authoritativeAPI: 'MachineAPI',
      requestedAuthoritativeAPI: 'MachineAPI',
      synchronizedAPI: 'MachineAPI',
      synchronizedGeneration: 7,
      synchronized: {
        status: 'True',
        reason: 'ResourceSynchronized',
        message: 'Successfully synchronized MAPI MachineSet to CAPI',
        lastTransitionTime: '2026-04-18T22:41:05Z',
      },
      infrastructureRef: null,
    });
    expect(view.capacity).toMatchObject({
      cpu: { value: '4', source: 'deprecated-annotation', key: 'machine.openshift.io/vCPU' },
      memory: { value: '16384Mi', source: 'deprecated-annotation', key: 'machine.openshift.io/memoryMb' },
      gpuCount: { value: '0', source: 'deprecated-annotation', key: 'machine.openshift.io/GPU' },
      canScaleFromZero: true,
      invalidKeys: [],
    });
    expect(view.annotations['machine.openshift.io/cluster-api-autoscaler-node-group-max-size']).toBe('6');
  });

  it('reads the MAPI Paused condition (set when the authority is not MachineAPI) and defaults replicas to 1', () => {
    const view = toMachineSetView(
      mapiMachineSet((ms) => {
        const spec = { ...ms.spec };
        delete spec.replicas;
        ms.spec = spec;
        ms.status = {
          ...ms.status,
          authoritativeAPI: 'ClusterAPI',
          conditions: [
            {
              type: 'Paused',
              status: 'True',
              reason: 'AuthoritativeAPINotMachineAPI',
              message: "The AuthoritativeAPI status is set to 'ClusterAPI'",
              lastTransitionTime: '2026-08-01T10:00:00Z',
            },
          ],
        };
      }),
    );
    expect([view.paused, view.replicas.desired, view.authoritativeAPI, view.synchronized]).toEqual([true, 1, 'ClusterAPI', null]);
  });

  it('normalises the v1beta2 CAPI mirror: paused by annotation, infrastructureRef by apiGroup', () => {
    const view = toMachineSetView(capiMirror(), { infrastructureTemplate: null });
    expect(view).toMatchObject({
      group: 'cluster.x-k8s.io',
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      namespace: 'openshift-cluster-api',
      clusterName: 'prod-east-7k2xq',
      replicas: { desired: 2, current: 2, ready: 2, available: 2, upToDate: 2 },
      paused: true,
      authoritativeAPI: null,
      synchronized: null,
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachineTemplate',
        name: 'prod-east-7k2xq-worker-us-east-1a-5f9c2',
        namespace: 'openshift-cluster-api',
      },
    });
    // The clusterapi provider never reads the deprecated machine.openshift.io keys the mirror carries.
    expect(view.capacity).toMatchObject({ cpu: null, memory: null, canScaleFromZero: false });
  });

  it('normalises the v1beta1 CAPI set: new-semantics counters from status.v1beta2, template capacity', () => {
    const view = toMachineSetView(capiV1beta1MachineSet(), { infrastructureTemplate: awsMachineTemplate() });
    expect(view).toMatchObject({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      name: GPU_1B,
      replicas: { desired: 0, current: 0, ready: 0, available: 0, upToDate: 0 },
      paused: false,
      templateLabels: {
        'cluster.x-k8s.io/cluster-name': 'prod-east-7k2xq',
        'cluster.x-k8s.io/set-name': GPU_1B,
        'node-role.kubernetes.io/gpu': '',
      },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachineTemplate',
        name: GPU_1B,
        namespace: 'openshift-cluster-api',
      },
    });
    expect(view.capacity).toMatchObject({
      cpu: { value: '8', source: 'infrastructure-template', key: 'status.capacity.cpu' },
      memory: { value: '32Gi', source: 'infrastructure-template', key: 'status.capacity.memory' },
      canScaleFromZero: true,
    });
  });

  it('gives the same replicas for one set served as v1beta2 and as v1beta1', () => {
    const v1beta2 = capiMirror();
    const status = v1beta2.status ?? {};
    const v1beta1: ClusterAPIMachineSetObject = {
      ...v1beta2,
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      status: {
        replicas: status.replicas,
        readyReplicas: status.deprecated?.v1beta1?.readyReplicas,
        availableReplicas: status.deprecated?.v1beta1?.availableReplicas,
        fullyLabeledReplicas: status.deprecated?.v1beta1?.fullyLabeledReplicas,
        conditions: status.deprecated?.v1beta1?.conditions,
        v1beta2: {
          readyReplicas: status.readyReplicas,
          availableReplicas: status.availableReplicas,
          upToDateReplicas: status.upToDateReplicas,
          conditions: status.conditions,
        },
      },
    };
    expect(toMachineSetView(v1beta1).replicas).toEqual(toMachineSetView(v1beta2).replicas);
  });

  it('falls back to the legacy v1beta1 counters when a v1beta1 set has no status.v1beta2 block yet', () => {
    const view = toMachineSetView(
      capiV1beta1MachineSet((ms) => {
        ms.status = { replicas: 3, readyReplicas: 2 };
      }),
    );
    expect(view.replicas).toEqual({ desired: 0, current: 3, ready: 2, available: 0, upToDate: null });
  });

  it('tells the group of a list item without apiVersion/kind from its shape', () => {
    const bare = capiV1beta1MachineSet((ms) => {
      delete ms.apiVersion;
      delete ms.kind;
    });
    expect([toMachineSetView(bare).group, toMachineSetView(bare).apiVersion, toMachineSetView(bare).kind]).toEqual([
      'cluster.x-k8s.io',
      'cluster.x-k8s.io/v1beta1',
      'MachineSet',
    ]);
    const mapi = mapiMachineSet((ms) => delete ms.apiVersion);
    expect(toMachineSetView(mapi).group).toBe('machine.openshift.io');
  });

  it('reports a deleting set and no status at all', () => {
    const view = toMachineSetView(
      mapiMachineSet((ms) => {
        ms.metadata.deletionTimestamp = '2026-08-05T10:00:00Z';
        delete ms.status;
      }),
    );
    expect([view.deletionTimestamp, view.replicas]).toEqual([
      '2026-08-05T10:00:00Z',
      { desired: 2, current: null, ready: null, available: null, upToDate: null },
    ]);
  });
});
