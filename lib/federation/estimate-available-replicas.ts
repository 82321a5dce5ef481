import {
  KarmadaClusterSchema,
  ReplicaRequestSchema,
  type KarmadaCluster,
  type FederationQuantity,
  type ReplicaRequest,
} from '@/lib/api/federation';
import { ceilMilliValue, ceilValue, subtract, toRational, type Rational } from '@/lib/federation/quantity';

const INT32_MAX = 2_147_483_647n;
const ZERO: Rational = { numerator: 0n, denominator: 1n };

function quantityOf(list: Record<string, FederationQuantity> | undefined, resource: string): Rational | undefined {
  const value = list?.[resource];
  return value === undefined ? undefined : toRational(value);
}

/**
 * How many more replicas with `request` fit in `cluster`, as Karmada's general estimator computes it from
 * `status.resourceSummary` (pkg/estimator/client/general.go `maxAvailableReplicas`):
 * `min(allocatable.pods − allocated.pods − allocating.pods, ⌊(allocatable_r − allocated_r − allocating_r) / request_r⌋)`
 * over the requested resources, cpu in millicores. A cluster without a summary, or that does not report a
 * requested resource, fits 0. The `CustomizedClusterResourceModeling` path (resource models) is not modelled.
 */
export function estimateAvailableReplicas(cluster: KarmadaCluster, request: ReplicaRequest = {}): number {
  const parsedCluster = KarmadaClusterSchema.parse(cluster);
  const parsedRequest = ReplicaRequestSchema.parse(request);
  const summary = parsedCluster.status?.resourceSummary;
  if (!summary) return 0;

  // upstream: getAllowedPodNumber — Pods().Value() of each list, a missing list counting as 0.
  const pods = (list: Record<string, FederationQuantity> | undefined): bigint => ceilValue(quantityOf(list, 'pods') ?? ZERO);
  let maximum = pods(summary.allocatable) - pods(summary.allocated) - pods(summary.allocating);
  if (maximum <= 0n) return 0;

  // upstream: getMaximumReplicasBasedOnClusterSummary.
  for (const [resource, requested] of Object.entries(parsedRequest)) {
    const request = toRational(requested);
    let requestedQuantity = ceilValue(request);
    if (requestedQuantity <= 0n) continue;
    const allocatable = quantityOf(summary.allocatable, resource);
    if (!allocatable) return 0;
    const available = subtract(
      subtract(allocatable, quantityOf(summary.allocated, resource) ?? ZERO),
      quantityOf(summary.allocating, resource) ?? ZERO,
    );
    let availableQuantity = ceilValue(available);
    if (availableQuantity <= 0n) return 0;
    if (resource === 'cpu') {
      requestedQuantity = ceilMilliValue(request);
      availableQuantity = ceilMilliValue(available);
    }
    const fit = availableQuantity / requestedQuantity;
    if (fit < maximum) maximum = fit;
  }
  return Number(maximum > INT32_MAX ? INT32_MAX : maximum);
}
