import { PeriodOptimizationInputSchema, type PeriodOptimizationInput, type PeriodOptimizationPreview } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { planSeedSplit, splitByPlan } from '@/lib/federation/policy-split';
import { compareNames, resolveTieDirection } from '@/lib/federation/webster';

/**
 * The seed's period optimization (docs/engines/federation.md §4.8, §5): every member HPA's max drops to its current
 * count, and the pool `Σ(max − current)` is split again by the policy, so Σmax is unchanged. Applies to every
 * policy except Duplicated (whose bounds are per cluster).
 */
export function previewPeriodOptimization(input: PeriodOptimizationInput): PeriodOptimizationPreview {
  const parsed = PeriodOptimizationInputSchema.parse(input);
  const { policy, clusters } = parsed;
  const names = clusters.map((c) => c.name).sort(compareNames);
  const headroom = new Map(clusters.map((c) => [c.name, Math.max(0, c.maxReplicas - c.currentReplicas)]));
  const pool = [...headroom.values()].reduce((acc, n) => acc + n, 0);
  const steps = [
    step(
      'pool',
      `Pool Σ(maxReplicas − currentReplicas) = ${clusters.map((c) => `(${c.maxReplicas}−${c.currentReplicas})`).join(' + ')} = ${pool}.`,
    ),
  ];
  const notes: string[] = [];
  for (const c of clusters) {
    if (c.currentReplicas > c.maxReplicas)
      notes.push(`${c.name} runs ${c.currentReplicas} replicas, above its maxReplicas ${c.maxReplicas}; it adds nothing to the pool.`);
  }

  if (policy === 'Duplicated') {
    notes.push('Period optimization does not apply to Duplicated: its bounds are per cluster, so nothing is pooled.');
    return {
      pool,
      shares: Object.fromEntries(names.map((name) => [name, 0])),
      newMax: Object.fromEntries(clusters.map((c) => [c.name, c.maxReplicas])),
      notes,
      explanation: textsOf(steps),
      steps,
    };
  }

  // The pool goes to running clusters, so Aggregated fills by availableReplicas alone.
  const plan = planSeedSplit(
    policy,
    clusters.map((c) => ({ ...c, prevReplicas: undefined })),
    resolveTieDirection(parsed.tieBreak, parsed.uid),
  );
  const split = splitByPlan(plan, pool);
  const shares = new Map(names.map((name) => [name, split.values.get(name) ?? 0]));
  const newMax = new Map(clusters.map((c) => [c.name, c.currentReplicas + (shares.get(c.name) ?? 0)]));
  steps.push(
    step('rule', plan.rule, plan.ruleClusters),
    step('pool', `Pool ${pool}: ${split.how}.`, split.clusters),
    step('newMax', `New maxReplicas = currentReplicas + share: ${formatSplit(names, newMax)}.`, names),
  );
  for (const { name, reason } of plan.excluded) {
    steps.push(step('excluded', `${name} is excluded (${reason}): its maxReplicas drops to its current count.`, [name]));
  }
  for (const c of clusters) {
    if ((newMax.get(c.name) ?? 0) === 0) notes.push(`${c.name} would get maxReplicas 0, which an HPA rejects; keep at least 1.`);
  }
  if (policy === 'StaticWeighted') {
    notes.push(
      'The proposal\'s optimization section says "This only works for Aggregated/DynamicWeighted/Prioritized policy", yet its own period-optimization example uses StaticWeighted; Autoscope applies it to every policy except Duplicated.',
    );
  }
  return { pool, shares: Object.fromEntries(shares), newMax: Object.fromEntries(newMax), notes, explanation: textsOf(steps), steps };
}
