import { TriggerOptimizationInputSchema, type TriggerOptimizationInput, type TriggerOptimizationPreview } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { planSeedSplit, splitByPlan } from '@/lib/federation/policy-split';
import { compareNames, resolveTieDirection } from '@/lib/federation/webster';

/**
 * The seed's trigger optimization, in the reading that keeps Σmax (docs/engines/federation.md §4.9, §5): a cluster with
 * pending pods gets maxReplicas = its running count (never below its minReplicas, default 1), and the freed
 * `oldMax − newMax` is split among the other clusters by the policy.
 */
export function previewTriggerOptimization(input: TriggerOptimizationInput): TriggerOptimizationPreview {
  const parsed = TriggerOptimizationInputSchema.parse(input);
  const { policy, blockedCluster: blocked, otherClusters } = parsed;
  const running = blocked.currentReplicas - blocked.pendingReplicas;
  const floor = Math.max(blocked.minReplicas ?? 1, 1);
  // With no other cluster to take the capacity, lowering the blocked max would only shrink Σmax.
  const blockedNewMax = otherClusters.length === 0 ? blocked.maxReplicas : Math.min(Math.max(running, floor), blocked.maxReplicas);
  const freed = Math.max(0, blocked.maxReplicas - blockedNewMax);
  const steps = [
    step(
      'freed',
      `${blocked.name}: running = current ${blocked.currentReplicas} − pending ${blocked.pendingReplicas} = ${running}; new maxReplicas ${blockedNewMax}` +
        (blockedNewMax !== running ? ` (kept ≥ minReplicas ${floor} and ≤ the old max)` : '') +
        `; freed ${blocked.maxReplicas} − ${blockedNewMax} = ${freed}.`,
      [blocked.name],
    ),
  ];
  const names = otherClusters.map((c) => c.name).sort(compareNames);
  const notes: string[] =
    otherClusters.length === 0
      ? [`No other cluster can take ${blocked.name}'s capacity, so its maxReplicas stays ${blocked.maxReplicas}.`]
      : [];
  let shares = new Map(names.map((name) => [name, 0]));
  if (policy === 'Duplicated') {
    notes.push('Under Duplicated every cluster has the full bounds, so the freed maxReplicas is not handed to the others.');
  } else {
    const plan = planSeedSplit(
      policy,
      otherClusters.map((c) => ({ ...c, prevReplicas: undefined })),
      resolveTieDirection(parsed.tieBreak, parsed.uid),
    );
    const split = splitByPlan(plan, freed);
    shares = new Map(names.map((name) => [name, split.values.get(name) ?? 0]));
    steps.push(step('rule', plan.rule, plan.ruleClusters), step('freed', `Freed ${freed}: ${split.how}.`, split.clusters));
  }
  const newMax = new Map(otherClusters.map((c) => [c.name, c.maxReplicas + (shares.get(c.name) ?? 0)]));
  const sumMaxBefore = blocked.maxReplicas + otherClusters.reduce((acc, c) => acc + c.maxReplicas, 0);
  const sumMaxAfter = blockedNewMax + [...newMax.values()].reduce((acc, n) => acc + n, 0);
  steps.push(
    step(
      'newMax',
      `New maxReplicas: ${blocked.name} ${blockedNewMax}, ${formatSplit(names, newMax)}; Σmax ${sumMaxBefore} → ${sumMaxAfter}.`,
      [blocked.name, ...names],
    ),
  );

  // The proposal's prose also says to keep the blocked max at the current count and hand out max − running.
  const literalHandOut = Math.max(0, blocked.maxReplicas - running);
  const literalSum =
    blocked.currentReplicas + otherClusters.reduce((acc, c) => acc + c.maxReplicas, 0) + (policy === 'Duplicated' ? 0 : literalHandOut);
  if (literalSum !== sumMaxAfter) {
    notes.push(
      `The proposal's prose contradicts itself: read literally (${blocked.name} keeps maxReplicas = current ${blocked.currentReplicas} while ${blocked.maxReplicas} − ${running} = ${literalHandOut} is handed out), ` +
        `Σmax would go from ${sumMaxBefore} to ${literalSum}. Autoscope sets the blocked max to the running count, which keeps Σmax.`,
    );
  }
  return {
    blockedNewMax,
    freed,
    shares: Object.fromEntries(shares),
    newMax: Object.fromEntries(newMax),
    sumMaxBefore,
    sumMaxAfter,
    notes,
    explanation: textsOf(steps),
    steps,
  };
}
