import { fnv32a } from '@/lib/federation/fnv32a';

/**
 * Which replica owns which cluster: rendezvous (highest random weight) hashing with balanced quotas and
 * stickiness. Every replica computes it from the same inputs (the clusters, the live replicas, who holds a live
 * lease now) and acts only on its own share, so no coordinator is needed; the lease table stays the arbiter.
 *
 * - Even: loads differ by at most one (`floor(n/r)` each, the first `n mod r` replicas one more).
 * - Few moves: a cluster stays with its current live owner while that owner is within its quota; the `n mod r`
 *   larger quotas go to the replicas holding the most already. So a leaving replica moves only its own clusters,
 *   and a joining one takes only what brings it to its quota.
 * - Deterministic: ties break on the hash score, then on the name.
 */
export interface AssignClustersInput {
  clusters: readonly string[];
  /** The live replicas (heartbeat within the lease time). */
  replicas: readonly string[];
  /** cluster → replica holding a live lease on it now (entries naming a replica that is not live are ignored). */
  current: Readonly<Record<string, string>>;
}

/** Rendezvous weight of `replica` for `cluster`: FNV-1a, then murmur3's finalizer so near-identical names spread. */
export function rendezvousScore(cluster: string, replica: string): number {
  let h = fnv32a(`${cluster}\u0000${replica}`);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

function byPreference(cluster: string): (a: string, b: string) => number {
  return (a, b) => rendezvousScore(cluster, b) - rendezvousScore(cluster, a) || (a < b ? -1 : a > b ? 1 : 0);
}

/** cluster → owning replica; empty when no replica is live. */
export function assignClusters({ clusters, replicas, current }: AssignClustersInput): Record<string, string> {
  const live = [...new Set(replicas)].sort();
  const all = [...new Set(clusters)].sort();
  const result: Record<string, string> = {};
  if (live.length === 0) return result;
  const liveSet = new Set(live);

  const kept = new Map<string, string[]>(live.map((r) => [r, []]));
  for (const cluster of all) {
    const owner = current[cluster];
    if (owner !== undefined && liveSet.has(owner)) kept.get(owner)?.push(cluster);
  }

  const base = Math.floor(all.length / live.length);
  const extra = all.length % live.length;
  const quotaOrder = [...live].sort((a, b) => (kept.get(b)?.length ?? 0) - (kept.get(a)?.length ?? 0) || (a < b ? -1 : 1));
  const quota = new Map<string, number>(quotaOrder.map((r, i) => [r, base + (i < extra ? 1 : 0)]));

  const load = new Map<string, number>(live.map((r) => [r, 0]));
  for (const replica of live) {
    const mine = kept.get(replica) ?? [];
    // Over quota (a replica joined): keep the clusters this replica scores highest on.
    mine.sort((a, b) => rendezvousScore(b, replica) - rendezvousScore(a, replica) || (a < b ? -1 : 1));
    for (const cluster of mine.slice(0, quota.get(replica) ?? 0)) {
      result[cluster] = replica;
      load.set(replica, (load.get(replica) ?? 0) + 1);
    }
  }

  for (const cluster of all) {
    if (result[cluster] !== undefined) continue;
    const target = [...live].sort(byPreference(cluster)).find((r) => (load.get(r) ?? 0) < (quota.get(r) ?? 0));
    if (target === undefined) continue; // unreachable: the quotas add up to the number of clusters
    result[cluster] = target;
    load.set(target, (load.get(target) ?? 0) + 1);
  }
  return result;
}
