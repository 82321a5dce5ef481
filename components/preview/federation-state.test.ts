import { describe, expect, it } from 'vitest';
import { InitialAssignmentInputSchema, ScaleUpInputSchema } from '@/lib/api';
import { federationPresets, formFromPreset } from './federation-presets';
import type { FederationForm } from './federation-state';
import {
  blankForm,
  decodeClusters,
  encodeClusters,
  federationFormParams,
  federationRequest,
  formFromLive,
  readFederationForm,
} from './federation-state';

function roundTrip(form: FederationForm): FederationForm {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(federationFormParams(form))) if (v !== null && v !== '') params.set(k, v);
  return readFederationForm(new URLSearchParams(params.toString()));
}

describe('federation form URL codec', () => {
  it('keeps every cluster field, the candidate flag and odd names', () => {
    const clusters = [
      {
        name: 'member1',
        replicas: 4,
        min: 1,
        max: 10,
        available: 5,
        allocatable: 7,
        weight: 2,
        priority: -3,
        utilization: 87.5,
        pending: 2,
      },
      { name: 'a~b,c', off: true },
      { name: '' },
    ];
    expect(decodeClusters(encodeClusters(clusters))).toEqual(clusters);
  });

  it('round-trips every worked example through the URL', () => {
    for (const preset of federationPresets) {
      const form = formFromPreset(preset);
      expect(roundTrip(form)).toEqual(form);
    }
  });

  it('starts blank when the URL has no form, keeping the live id', () => {
    const form = readFederationForm(new URLSearchParams('id=karmada%2FFederatedHPA%2Fns%2Fx'));
    expect(form).toEqual({ ...blankForm(), id: 'karmada/FederatedHPA/ns/x' });
  });
});

describe('federationRequest', () => {
  it('builds the seed DynamicWeighted example as the API expects it', () => {
    const form: FederationForm = {
      ...blankForm(),
      fmin: 8,
      fmax: 24,
      clusters: [
        { name: 'member1', available: 1 },
        { name: 'member2', available: 5 },
        { name: 'member3', available: 2 },
      ],
    };
    const { operation, body } = federationRequest(form);
    expect(operation).toBe('initial-assignment');
    expect(InitialAssignmentInputSchema.parse(body)).toEqual({
      policy: 'DynamicWeighted',
      federatedMinReplicas: 8,
      federatedMaxReplicas: 24,
      scaleToZero: false,
      clusters: [
        { name: 'member1', availableReplicas: 1 },
        { name: 'member2', availableReplicas: 5 },
        { name: 'member3', availableReplicas: 2 },
      ],
    });
  });

  it('sends a non-candidate only as a previous binding entry, and maps issue paths back to its row', () => {
    const form: FederationForm = {
      ...blankForm(),
      clusters: [
        { name: 'a', replicas: 2 },
        { name: 'b', replicas: 3, off: true },
        { name: 'C', available: 1 },
      ],
    };
    const { body, locate } = federationRequest(form);
    expect(body.clusters).toEqual([
      { name: 'a', prevReplicas: 2 },
      { name: 'C', availableReplicas: 1 },
    ]);
    expect(body.previousBinding).toEqual([
      { name: 'a', replicas: 2 },
      { name: 'b', replicas: 3 },
    ]);
    expect(locate('clusters.1.name')).toEqual({ kind: 'cell', row: 2, field: 'name' });
    expect(locate('previousBinding.1.replicas')).toEqual({ kind: 'cell', row: 1, field: 'replicas' });
    expect(locate('federatedMinReplicas')).toEqual({ kind: 'scalar', key: 'fmin' });
  });

  it('splits the blocked cluster from the eligible ones for a scale-up', () => {
    const form = formFromPreset(federationPresets.find((p) => p.key === 'scale-up-static') ?? federationPresets[0]!);
    const { operation, body, locate } = federationRequest({ ...form, blocked: 1 });
    expect(operation).toBe('scale-up');
    const parsed = ScaleUpInputSchema.parse(body);
    expect(parsed.blockedCluster.name).toBe('cluster2');
    expect(parsed.eligibleClusters.map((c) => c.name)).toEqual(['cluster1', 'cluster3']);
    expect(locate('eligibleClusters.1.maxReplicas')).toEqual({ kind: 'cell', row: 2, field: 'max' });
    expect(locate('blockedCluster.pendingReplicas')).toEqual({ kind: 'cell', row: 1, field: 'pending' });
  });

  it('fills the shipped scheduler from a live FederatedHPA, and asks for its previous result as "before"', () => {
    const form = formFromLive(
      {
        id: 'k/FederatedHPA/ns/web',
        fetchedAt: '2026-01-01T00:00:00Z',
        assignReplicas: {
          strategy: 'DynamicWeight',
          replicas: 17,
          candidates: [
            { name: 'm1', allocatableReplicas: 30 },
            { name: 'm2', allocatableReplicas: 80 },
          ],
          previousClusters: [
            { name: 'm1', replicas: 2 },
            { name: 'gone', replicas: 1 },
          ],
          uid: 'u',
          divider: 'webster',
        },
        initialAssignment: {
          policy: 'DynamicWeighted',
          federatedMinReplicas: 3,
          federatedMaxReplicas: 30,
          clusters: [
            { name: 'm1', availableReplicas: 30 },
            { name: 'm2', availableReplicas: 80 },
          ],
        },
        notes: [],
      },
      blankForm(),
    );
    expect(form.model).toBe('karmada');
    expect(form.clusters).toEqual([
      { name: 'm1', replicas: 2, available: 30, allocatable: 30 },
      { name: 'm2', available: 80, allocatable: 80 },
      { name: 'gone', off: true, replicas: 1 },
    ]);
    const { operation, body } = federationRequest(form);
    expect(operation).toBe('assign-replicas');
    expect(body.candidates).toEqual([
      { name: 'm1', allocatableReplicas: 30 },
      { name: 'm2', allocatableReplicas: 80 },
    ]);
    expect(body.previousClusters).toEqual([
      { name: 'm1', replicas: 2 },
      { name: 'gone', replicas: 1 },
    ]);
  });
});
