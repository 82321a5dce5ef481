import type { SeedPolicy } from '@/lib/api/federation';
import { formatQuotas, formatSplit } from '@/lib/federation/format-split';
import { compareNames, runWebster, type TieDirection } from '@/lib/federation/webster';

/** What the seed's policies read from a cluster. */
export interface PolicyCluster {
  name: string;
  availableReplicas?: number;
  staticWeight?: number;
  priority?: number;
  /** Replicas the cluster already runs for this workload (Aggregated's fill order puts those first). */
  prevReplicas?: number;
}

export interface ExcludedCluster {
  name: string;
  reason: string;
}

/** How one seed policy splits a number over the selected clusters (docs/engines/federation.md §5 step 1). */
export interface SeedSplitPlan {
  policy: SeedPolicy;
  /** The clusters the policy splits over, in the policy's order (fill order, or name order). */
  participants: string[];
  excluded: ExcludedCluster[];
  /** Webster votes (StaticWeighted, DynamicWeighted). */
  weights: Map<string, number>;
  /** availableReplicas per cluster: the cap of a fill (Aggregated, Prioritized), Duplicated's scale-up target. */
  caps: Map<string, number>;
  direction: TieDirection;
  /** One line on how the split works, for the explanation. */
  rule: string;
  /** The clusters that line names. */
  ruleClusters: string[];
}

export interface SplitResult {
  values: Map<string, number>;
  /** How the numbers came about, for the explanation. */
  how: string;
  /** The clusters `how` names. */
  clusters: string[];
  /** Fill only: what did not fit in the caps and went to the first cluster. */
  leftover: number;
}

function byName(a: PolicyCluster, b: PolicyCluster): number {
  return compareNames(a.name, b.name);
}

/** Aggregated's fill order: clusters already running replicas first, then availableReplicas descending, then name. */
function aggregatedOrder(clusters: readonly PolicyCluster[]): PolicyCluster[] {
  return clusters.slice().sort((a, b) => {
    const aBound = (a.prevReplicas ?? 0) > 0 ? 0 : 1;
    const bBound = (b.prevReplicas ?? 0) > 0 ? 0 : 1;
    if (aBound !== bBound) return aBound - bBound;
    const byAvailable = (b.availableReplicas ?? 0) - (a.availableReplicas ?? 0);
    return byAvailable !== 0 ? byAvailable : byName(a, b);
  });
}

/** Prioritized's order: priority descending (larger = higher), then availableReplicas descending, then name. */
function priorityOrder(clusters: readonly PolicyCluster[]): PolicyCluster[] {
  return clusters.slice().sort((a, b) => {
    const byPriority = (b.priority ?? 0) - (a.priority ?? 0);
    if (byPriority !== 0) return byPriority;
    const byAvailable = (b.availableReplicas ?? 0) - (a.availableReplicas ?? 0);
    return byAvailable !== 0 ? byAvailable : byName(a, b);
  });
}

/** Builds the split plan of `policy` over `clusters` (§5 step 1), including the exclusions it implies. */
export function planSeedSplit(policy: SeedPolicy, clusters: readonly PolicyCluster[], direction: TieDirection): SeedSplitPlan {
  const sorted = clusters.slice().sort(byName);
  const weights = new Map<string, number>();
  const caps = new Map<string, number>();
  const excluded: ExcludedCluster[] = [];
  let participants: PolicyCluster[] = sorted;
  let rule: string;
  let ruleClusters: string[] = [];
  for (const c of sorted) caps.set(c.name, c.availableReplicas ?? 0);

  switch (policy) {
    case 'Duplicated':
      rule = 'Duplicated: every selected cluster gets the federated bounds unchanged.';
      break;
    case 'StaticWeighted': {
      const weighted = sorted.filter((c) => (c.staticWeight ?? 0) > 0);
      if (weighted.length === 0) {
        for (const c of sorted) weights.set(c.name, 1);
        rule = 'StaticWeighted: no cluster has a static weight, so every cluster weighs 1 (as Karmada does); split with Webster.';
      } else {
        participants = weighted;
        for (const c of weighted) weights.set(c.name, c.staticWeight ?? 0);
        for (const c of sorted)
          if (!weights.has(c.name)) excluded.push({ name: c.name, reason: 'no static weight (Karmada ignores unweighted clusters)' });
        rule = `StaticWeighted: Webster over static weights ${formatSplit(
          participants.map((c) => c.name),
          weights,
        )}.`;
        ruleClusters = participants.map((c) => c.name);
      }
      break;
    }
    case 'DynamicWeighted': {
      const anyAvailable = sorted.some((c) => (c.availableReplicas ?? 0) > 0);
      for (const c of sorted) weights.set(c.name, anyAvailable ? (c.availableReplicas ?? 0) : 1);
      rule = anyAvailable
        ? `DynamicWeighted: Webster over availableReplicas ${formatSplit(
            sorted.map((c) => c.name),
            weights,
          )}.`
        : 'DynamicWeighted: no cluster reports availableReplicas, so every cluster weighs 1; split with Webster.';
      if (anyAvailable) ruleClusters = sorted.map((c) => c.name);
      break;
    }
    case 'Aggregated':
      participants = aggregatedOrder(sorted);
      rule = `Aggregated: fill in order ${participants.map((c) => c.name).join(' → ')} (running clusters first, then availableReplicas descending, then name), each up to its availableReplicas; any leftover goes to the first.`;
      ruleClusters = participants.map((c) => c.name);
      break;
    case 'Prioritized': {
      const withPriority = sorted.filter((c) => c.priority !== undefined);
      if (withPriority.length > 0) {
        for (const c of sorted) if (c.priority === undefined) excluded.push({ name: c.name, reason: 'no priority entry matches it' });
        participants = priorityOrder(withPriority);
      } else {
        participants = priorityOrder(sorted);
      }
      rule = `Prioritized: fill in order ${participants.map((c) => `${c.name} (priority ${c.priority ?? 'none'})`).join(' → ')}, each up to its availableReplicas; any leftover goes to the highest priority.`;
      ruleClusters = participants.map((c) => c.name);
      break;
    }
  }
  return { policy, participants: participants.map((c) => c.name), excluded, weights, caps, direction, rule, ruleClusters };
}

/** Fills `order` up to each cap; what is left goes to the first cluster when `leftoverToFirst`. */
function fillInOrder(
  total: number,
  order: readonly string[],
  caps: ReadonlyMap<string, number>,
  leftoverToFirst: boolean,
): { values: Map<string, number>; leftover: number } {
  const values = new Map<string, number>();
  let remaining = total;
  for (const name of order) {
    const take = Math.min(remaining, caps.get(name) ?? 0);
    values.set(name, take);
    remaining -= take;
  }
  const first = order[0];
  if (leftoverToFirst && remaining > 0 && first !== undefined) {
    values.set(first, (values.get(first) ?? 0) + remaining);
  }
  return { values, leftover: remaining };
}

/** Splits `total` by the plan (§5 step 1): Duplicated copies it, weights use Webster, the rest fill in order. */
export function splitByPlan(plan: SeedSplitPlan, total: number): SplitResult {
  switch (plan.policy) {
    case 'Duplicated':
      return {
        values: new Map(plan.participants.map((name) => [name, total])),
        how: `${total} in every cluster`,
        clusters: [],
        leftover: 0,
      };
    case 'StaticWeighted':
    case 'DynamicWeighted': {
      const votes = plan.participants.map((name) => [name, plan.weights.get(name) ?? 0] as const);
      const values = runWebster(total, votes, [], plan.direction);
      return {
        values,
        how: `Webster(${total}) → ${formatSplit(plan.participants, values)} (exact quotas ${formatQuotas(total, votes)})`,
        clusters: plan.participants,
        leftover: 0,
      };
    }
    case 'Aggregated':
    case 'Prioritized': {
      const { values, leftover } = fillInOrder(total, plan.participants, plan.caps, true);
      const first = plan.participants[0];
      const tail = leftover > 0 && first !== undefined ? `; ${leftover} did not fit in availableReplicas and went to ${first}` : '';
      return { values, how: `fill ${total} → ${formatSplit(plan.participants, values)}${tail}`, clusters: plan.participants, leftover };
    }
  }
}

/**
 * Splits `total` under per-cluster room (§5 scale-up): weights use Webster and re-split any overflow among
 * clusters that still have room; fills stop at each cluster's room; nothing is forced past room.
 */
export function splitWithRoom(plan: SeedSplitPlan, total: number, room: ReadonlyMap<string, number>): Map<string, number> {
  const given = new Map(plan.participants.map((name) => [name, 0]));
  switch (plan.policy) {
    case 'StaticWeighted':
    case 'DynamicWeighted': {
      let remaining = total;
      let active = plan.participants.filter((name) => (room.get(name) ?? 0) > 0 && (plan.weights.get(name) ?? 0) > 0);
      while (remaining > 0 && active.length > 0) {
        const seats = runWebster(
          remaining,
          active.map((name) => [name, plan.weights.get(name) ?? 0] as const),
          [],
          plan.direction,
        );
        remaining = 0;
        for (const name of active) {
          const free = (room.get(name) ?? 0) - (given.get(name) ?? 0);
          const seat = seats.get(name) ?? 0;
          const take = Math.min(seat, free);
          given.set(name, (given.get(name) ?? 0) + take);
          remaining += seat - take;
        }
        active = active.filter((name) => (given.get(name) ?? 0) < (room.get(name) ?? 0));
      }
      return given;
    }
    case 'Aggregated':
    case 'Prioritized':
      return fillInOrder(total, plan.participants, room, false).values;
    case 'Duplicated': {
      const target = plan.participants.slice().sort((a, b) => (plan.caps.get(b) ?? 0) - (plan.caps.get(a) ?? 0) || compareNames(a, b))[0];
      if (target !== undefined) given.set(target, Math.min(total, room.get(target) ?? 0));
      return given;
    }
  }
}
