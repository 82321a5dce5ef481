import { describe, expect, it } from 'vitest';
import { capiMirror, mapiMachineSet, WORKER_1A } from './__fixtures__/builders';
import { indexMachineSetsByName, toMachineSetCopies, toMachineSetCopy } from './machine-set-copy';

describe('toMachineSetCopy: one copy of a MachineSet for the detail page, through toMachineSetView', () => {
  it('reads the Machine API copy: authority, counts, owner and its machine.openshift.io min/max keys', () => {
    expect(toMachineSetCopy(mapiMachineSet(), 'machine.openshift.io')).toMatchObject({
      apiVersion: 'machine.openshift.io/v1beta1',
      namespace: 'openshift-machine-api',
      name: WORKER_1A,
      authoritativeAPI: 'MachineAPI',
      paused: false,
      owner: 'openshift-machine-api/worker-us-east-1a',
      minAnnotation: '1',
      maxAnnotation: '6',
    });
  });

  it('reads the Cluster API mirror: no authority of its own, paused by the cluster.x-k8s.io/paused key', () => {
    const copy = toMachineSetCopy(capiMirror(), 'cluster.x-k8s.io');
    expect(copy).toMatchObject({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      namespace: 'openshift-cluster-api',
      authoritativeAPI: null,
      requestedAuthoritativeAPI: null,
      paused: true,
    });
  });

  it('a Machine API copy is paused by its Paused condition (machine-api-operator), never by the CAPI key that cluster-capi-operator strips from it', () => {
    const standingAside = mapiMachineSet((m) => {
      m.status = {
        ...m.status,
        authoritativeAPI: 'ClusterAPI',
        conditions: [{ type: 'Paused', status: 'True', reason: 'AuthoritativeAPINotMachineAPI' }],
      };
    });
    expect(toMachineSetCopy(standingAside, 'machine.openshift.io')).toMatchObject({ authoritativeAPI: 'ClusterAPI', paused: true });
    const keyOnly = mapiMachineSet((m) => {
      m.metadata.annotations = { ...m.metadata.annotations, 'cluster.x-k8s.io/paused': '' };
    });
    expect(toMachineSetCopy(keyOnly, 'machine.openshift.io').paused).toBe(false);
  });

  it('lists the copies that exist, Machine API first', () => {
    expect(toMachineSetCopies({ machineAPI: mapiMachineSet(), clusterAPI: capiMirror() }).map((c) => c.apiVersion)).toEqual([
      'machine.openshift.io/v1beta1',
      'cluster.x-k8s.io/v1beta2',
    ]);
    expect(toMachineSetCopies({ machineAPI: null, clusterAPI: capiMirror() })).toHaveLength(1);
    expect(toMachineSetCopies({ machineAPI: null, clusterAPI: null })).toEqual([]);
  });
});

describe('indexMachineSetsByName', () => {
  it('keys sets by name; the one in the preferred namespace wins over an earlier one elsewhere', () => {
    const stray = mapiMachineSet((m) => {
      m.metadata.namespace = 'default';
    });
    const home = mapiMachineSet();
    expect(indexMachineSetsByName([stray, home], 'openshift-machine-api').get(WORKER_1A)).toBe(home);
    expect(indexMachineSetsByName([home, stray], 'openshift-machine-api').get(WORKER_1A)).toBe(home);
    expect(indexMachineSetsByName([stray], 'openshift-machine-api').get(WORKER_1A)).toBe(stray);
  });
});
