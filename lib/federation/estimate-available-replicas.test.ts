import { describe, expect, it } from 'vitest';

import type { KarmadaCluster } from '@/lib/api/federation';
import { estimateAvailableReplicas } from '@/lib/federation/estimate-available-replicas';

import member1 from './__fixtures__/cluster-member1.json';

const cluster = member1 as KarmadaCluster;

function withSummary(summary: Record<string, Record<string, string | number>> | undefined): KarmadaCluster {
  return { ...cluster, status: summary ? { resourceSummary: summary } : {} };
}

// upstream: pkg/estimator/client/general.go maxAvailableReplicas / getAllowedPodNumber / getMaximumReplicasBasedOnClusterSummary.
describe('estimateAvailableReplicas (general estimator, resourceSummary path)', () => {
  it.each([
    // pods: 330 − 29 − 1 = 300.
    ['no request: allowed pods', {}, 300],
    // cpu: 11800m − 3150m − 250m = 8400m; 8400 / 500 = 16.
    ['cpu 500m', { cpu: '500m' }, 16],
    // cpu 8400m / 1000m = 8 (milli-units, not whole cores).
    ['cpu 1', { cpu: '1' }, 8],
    // memory: 47003376Ki − 5896Mi − 256Mi = 41680617472 bytes ≈ 38.82Gi; / 2Gi = 19.
    ['memory 2Gi', { memory: '2Gi' }, 19],
    // min(cpu 8400/600 = 14, memory 38.82Gi/3Gi = 12, pods 300) = 12.
    ['cpu 600m and memory 3Gi', { cpu: '600m', memory: '3Gi' }, 12],
    // A resource the cluster does not report fits 0 (upstream: allocatable[key] missing → 0).
    ['nvidia.com/gpu 1 on a cluster without GPUs', { 'nvidia.com/gpu': '1' }, 0],
    // A zero request is skipped.
    ['cpu 0 and memory 1Gi', { cpu: '0', memory: '1Gi' }, 38],
    // A tiny request is limited by pods.
    ['cpu 1m', { cpu: '1m' }, 300],
  ])('%s', (_name, request, expected) => {
    expect(estimateAvailableReplicas(cluster, request)).toBe(expected);
  });

  it('returns 0 without a resourceSummary', () => {
    expect(estimateAvailableReplicas(withSummary(undefined), { cpu: '100m' })).toBe(0);
  });

  it('returns 0 when allocated and allocating pods use up the allowance', () => {
    expect(
      estimateAvailableReplicas(
        withSummary({ allocatable: { pods: '110', cpu: '4' }, allocated: { pods: '100' }, allocating: { pods: '12' } }),
        {},
      ),
    ).toBe(0);
  });

  it('returns 0 when a requested resource is exhausted (available ≤ 0)', () => {
    expect(estimateAvailableReplicas(withSummary({ allocatable: { pods: 110, cpu: '2' }, allocated: { cpu: '2' } }), { cpu: '100m' })).toBe(
      0,
    );
  });

  it('rounds a fractional available quantity up before dividing (Quantity.Value())', () => {
    // 1.5 GB available, 1 GB requests: Value() of 1.5G is 1500000000, so one replica fits.
    expect(estimateAvailableReplicas(withSummary({ allocatable: { pods: 10, memory: '1.5G' } }), { memory: '1G' })).toBe(1);
  });

  it('rejects a malformed quantity, naming the field', () => {
    expect(() => estimateAvailableReplicas(cluster, { cpu: 'lots' })).toThrow(/cpu/);
  });
});
