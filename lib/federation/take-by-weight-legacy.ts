import {
  LegacyTakeByWeightInputSchema,
  type LegacyTakeByWeightInput,
  type LegacyTakeByWeightResult,
  type LegacyVariant,
  type SeatMap,
} from '@/lib/api/federation';
import { compareNames } from '@/lib/federation/webster';

/** One `ClusterWeightInfo` of the legacy divider. */
export interface LegacyWeight {
  name: string;
  weight: number;
  /** v1.8+ only: the replicas this cluster had in the last schedule. */
  lastReplicas: number;
}

export interface LegacyOutcome {
  /** `MergeTargetClusters(init, result)`: initial plus new replicas, in first-seen order. */
  replicas: Map<string, number>;
  /**
   * Outcomes upstream can produce, as the replicas of the tied clusters only (the rest is the same in every
   * outcome); empty when nothing was left to chance.
   */
  tieOutcomes: Map<string, number>[];
  alternativeCount: number;
  /** Set when v1.8–v1.15 would break a tie at random. */
  randomTie: { clusters: string[]; winners: number } | null;
}

/** At most this many alternatives are spelled out; `alternativeCount` still counts them all. */
const MAX_LISTED_ALTERNATIVES = 16;

function mergeTargetClusters(
  initial: readonly (readonly [string, number])[],
  added: readonly (readonly [string, number])[],
): Map<string, number> {
  const merged = new Map<string, number>();
  for (const [name, replicas] of initial) merged.set(name, (merged.get(name) ?? 0) + replicas);
  for (const [name, replicas] of added) merged.set(name, (merged.get(name) ?? 0) + replicas);
  return merged;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) {
    result = (result * (n - k + i)) / i;
    if (result > Number.MAX_SAFE_INTEGER) return Number.MAX_SAFE_INTEGER;
  }
  return Math.round(result);
}

function* combinations(size: number, choose: number): Generator<number[]> {
  const picked = Array.from({ length: choose }, (_, i) => i);
  for (;;) {
    yield picked.slice();
    let i = choose - 1;
    while (i >= 0 && picked[i] === size - choose + i) i--;
    if (i < 0) return;
    picked[i] = (picked[i] ?? 0) + 1;
    for (let j = i + 1; j < choose; j++) picked[j] = (picked[j - 1] ?? 0) + 1;
  }
}

/**
 * upstream: pkg/util/helper/binding.go `Dispenser.TakeByWeight` (v1.5.0 through v1.15): floor every quota
 * `weight·N/Σweight` (int64 division), then hand the remainder out one by one in sorted order — not by
 * largest fraction (upstream's own "TODO(Garrybest): take rest replicas by fraction part").
 * Sort order (`ClusterWeightInfoList.Less`): weight descending, then v1.5–v1.7 name ascending; v1.8–v1.15
 * lastReplicas descending, then a `crypto/rand` coin flip. For v1.8 the reported `replicas` breaks that flip by
 * name ascending, and `alternatives` lists the other outcomes.
 */
export function runTakeByWeight(
  numReplicas: number,
  weights: readonly LegacyWeight[],
  initial: readonly (readonly [string, number])[],
  variant: LegacyVariant,
): LegacyOutcome {
  const unchanged = (): LegacyOutcome => {
    const replicas = mergeTargetClusters(initial, []);
    return { replicas, tieOutcomes: [], alternativeCount: 1, randomTie: null };
  };
  // upstream: Dispenser.Done() — nothing to dispense once a result exists.
  if (numReplicas === 0 && initial.length !== 0) return unchanged();
  const sum = weights.reduce((acc, w) => acc + BigInt(w.weight), 0n);
  if (sum === 0n) return unchanged();

  const sorted = weights.slice().sort((a, b) => {
    if (a.weight !== b.weight) return b.weight - a.weight;
    if (variant === 'v1.8' && a.lastReplicas !== b.lastReplicas) return b.lastReplicas - a.lastReplicas;
    return compareNames(a.name, b.name);
  });
  const base = sorted.map((w) => Number((BigInt(w.weight) * BigInt(numReplicas)) / sum));
  const remain = numReplicas - base.reduce((acc, r) => acc + r, 0);

  const replicas = mergeTargetClusters(
    initial,
    sorted.map((w, i) => [w.name, (base[i] ?? 0) + (i < remain ? 1 : 0)] as const),
  );

  const sameRank = (i: number, j: number): boolean => {
    const a = sorted[i];
    const b = sorted[j];
    return a !== undefined && b !== undefined && a.weight === b.weight && a.lastReplicas === b.lastReplicas;
  };
  // Only a tie group that straddles the remainder boundary changes the outcome.
  if (variant !== 'v1.8' || remain === 0 || remain >= sorted.length || !sameRank(remain - 1, remain)) {
    return { replicas, tieOutcomes: [], alternativeCount: 1, randomTie: null };
  }
  let start = remain - 1;
  while (start > 0 && sameRank(start - 1, start)) start--;
  let end = remain + 1;
  while (end < sorted.length && sameRank(end - 1, end)) end++;
  const groupSize = end - start;
  const winners = remain - start;
  const group = sorted.slice(start, end).map((w) => w.name);
  const tieOutcomes: Map<string, number>[] = [];
  for (const pick of combinations(groupSize, winners)) {
    if (tieOutcomes.length === MAX_LISTED_ALTERNATIVES) break;
    const chosen = new Set(pick);
    // Every tied cluster has the same floor; `replicas` gave the bonus to the first `winners` of them.
    tieOutcomes.push(
      new Map(group.map((name, offset) => [name, (replicas.get(name) ?? 0) - (offset < winners ? 1 : 0) + (chosen.has(offset) ? 1 : 0)])),
    );
  }
  return {
    replicas,
    tieOutcomes,
    alternativeCount: binomial(groupSize, winners),
    randomTie: { clusters: sorted.slice(start, end).map((w) => w.name), winners },
  };
}

/** The note that says a legacy result was left to chance upstream, and what the other outcomes are. */
export function describeRandomTie(outcome: LegacyOutcome): string[] {
  if (!outcome.randomTie) return [];
  const { clusters, winners } = outcome.randomTie;
  const listed = outcome.tieOutcomes.map((alt) => clusters.map((name) => `${name} ${alt.get(name) ?? 0}`).join(', '));
  const more = outcome.alternativeCount > listed.length ? ` (and ${outcome.alternativeCount - listed.length} more)` : '';
  return [
    `Karmada v1.8–v1.15 break the tie between ${clusters.join(', ')} (same weight and lastReplicas) at random ` +
      `(crypto/rand in ClusterWeightInfoList.Less): ${winners} of these ${clusters.length} clusters get one of the remaining replicas. ` +
      `Shown: the first by name. Possible outcomes: ${listed.join(' | ')}${more}.`,
  ];
}

function toSeatMap(replicas: Map<string, number>): SeatMap {
  return Object.fromEntries(replicas);
}

/** Karmada v1.5–v1.15's `TakeByWeight` on its own: initial plus new replicas, with the random ties spelled out. */
export function takeByWeightLegacy(input: LegacyTakeByWeightInput): LegacyTakeByWeightResult {
  const parsed = LegacyTakeByWeightInputSchema.parse(input);
  const initial = Object.entries(parsed.initial ?? {});
  const last = parsed.lastReplicas ?? parsed.initial ?? {};
  const weights = Object.entries(parsed.weights).map(([name, weight]) => ({ name, weight, lastReplicas: last[name] ?? 0 }));
  const outcome = runTakeByWeight(parsed.numReplicas, weights, initial, parsed.variant ?? 'v1.8');
  const alternatives = outcome.tieOutcomes.length
    ? outcome.tieOutcomes.map((tie) => toSeatMap(new Map([...outcome.replicas, ...tie])))
    : [toSeatMap(outcome.replicas)];
  return {
    replicas: toSeatMap(outcome.replicas),
    alternatives,
    alternativeCount: outcome.alternativeCount,
    notes: describeRandomTie(outcome),
  };
}
