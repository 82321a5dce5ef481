import {
  InitialAssignmentInputSchema,
  type MemberHpaBounds,
  type InitialAssignmentInput,
  type InitialAssignmentPreview,
  type SeedPolicy,
} from '@/lib/api/federation';
import { runDivide } from '@/lib/federation/divide-replicas';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSlash, formatSplit } from '@/lib/federation/format-split';
import { largestRemainder } from '@/lib/federation/largest-remainder';
import {
  planSeedSplit,
  splitByPlan,
  type ExcludedCluster,
  type PolicyCluster,
  type SeedSplitPlan,
  type SplitResult,
} from '@/lib/federation/policy-split';
import { runTakeByWeight } from '@/lib/federation/take-by-weight-legacy';
import { compareNames, resolveTieDirection } from '@/lib/federation/webster';

interface NotesContext {
  policy: SeedPolicy;
  fmin: number;
  fmax: number;
  clusters: PolicyCluster[];
  plan: SeedSplitPlan;
  rawMin: SplitResult;
  rawMax: SplitResult;
  hpa: Map<string, MemberHpaBounds>;
  included: string[];
  binding: Map<string, number>;
  scaleToZero: boolean;
  previousBinding: { name: string; replicas: number }[];
}

/** Numbers of `clusters` sorted by name: the signature a documented seed example is recognised by. */
function signature(clusters: readonly PolicyCluster[], pick: (c: PolicyCluster) => number | undefined): string {
  return clusters
    .slice()
    .sort((a, b) => compareNames(a.name, b.name))
    .map((c) => pick(c) ?? '-')
    .join(',');
}

function sameSplit(names: readonly string[], a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return names.every((name) => (a.get(name) ?? 0) === (b.get(name) ?? 0));
}

/** Notes on rules that disagree or on the proposal's own numbers (docs/engines/federation.md §4.1–§4.5). */
function initialAssignmentNotes(ctx: NotesContext): string[] {
  const notes: string[] = [];
  const { policy, fmin, fmax, plan, rawMin, rawMax, included, binding } = ctx;
  const names = plan.participants.slice().sort(compareNames);
  const votes = names.map((name) => [name, plan.weights.get(name) ?? 0] as const);
  const byName = new Map(ctx.clusters.map((c) => [c.name, c]));
  const prevOf = (name: string): number => byName.get(name)?.prevReplicas ?? 0;

  // Class: the divider matters. Legacy TakeByWeight is neither Webster nor house-monotone.
  if (policy === 'StaticWeighted' || policy === 'DynamicWeighted') {
    const legacy = (n: number): Map<string, number> =>
      runTakeByWeight(
        n,
        votes.map(([name, weight]) => ({ name, weight, lastReplicas: 0 })),
        [],
        'v1.5',
      ).replicas;
    const legacyMax = legacy(fmax);
    const legacyMin = legacy(fmin);
    for (const [label, n, ours, theirs] of [
      ['maxReplicas', fmax, rawMax.values, legacyMax],
      ['minReplicas', fmin, rawMin.values, legacyMin],
    ] as const) {
      if (!sameSplit(names, ours, theirs)) {
        notes.push(
          `Karmada's legacy TakeByWeight (v1.5–v1.15) would split ${label} ${n} as ${formatSlash(names, theirs)} (${names.join('/')}); ` +
            `Webster, Karmada's divider since v1.16, gives ${formatSlash(names, ours)}.`,
        );
      }
    }
    const inverted = names.filter((name) => (legacyMin.get(name) ?? 0) > (legacyMax.get(name) ?? 0));
    if (inverted.length > 0) {
      notes.push(
        `With legacy TakeByWeight ${inverted.map((n) => `${n} would get minReplicas ${legacyMin.get(n)} > maxReplicas ${legacyMax.get(n)}`).join('; ')}: ` +
          'it is not house-monotone, which is why the preview splits with Webster.',
      );
    }
  }

  for (const name of included) {
    const prev = prevOf(name);
    const bounds = ctx.hpa.get(name);
    if (bounds && prev > bounds.maxReplicas) {
      notes.push(
        `${name} ran ${prev} replicas, above its new maxReplicas ${bounds.maxReplicas}: the binding clamps it to ${binding.get(name)}.`,
      );
    }
  }

  const sumMin = included.reduce((acc, name) => acc + (ctx.hpa.get(name)?.minReplicas ?? 0), 0);
  if (policy === 'Duplicated') {
    if (included.length > 1) {
      notes.push(
        `Under Duplicated the bounds apply per cluster: Σ minReplicas is ${sumMin} for federatedMinReplicas ${fmin}, as with shipped Karmada's Duplicated placement.`,
      );
    }
  } else if (sumMin > fmin) {
    notes.push(`Σ minReplicas ${sumMin} exceeds federatedMinReplicas ${fmin}: every member HPA needs minReplicas ≥ 1.`);
  }

  if ((policy === 'Aggregated' || policy === 'Prioritized') && rawMax.leftover > 0) {
    const first = plan.participants[0] ?? '';
    const sumAvailable = plan.participants.reduce((acc, name) => acc + (plan.caps.get(name) ?? 0), 0);
    notes.push(
      `Σ availableReplicas ${sumAvailable} is below federatedMaxReplicas ${fmax}: the ${rawMax.leftover} that do not fit go to ${first}` +
        `${policy === 'Prioritized' ? ", the highest priority (the proposal's own rule)" : ', the first in fill order'}, beyond its availableReplicas ${plan.caps.get(first) ?? 0}.`,
    );
  }

  // Class: the proposal splits bounds; Karmada's scheduler divides replicas and refuses what does not fit.
  if (policy === 'Aggregated' || policy === 'DynamicWeighted') {
    const strategy = policy === 'Aggregated' ? 'Aggregated' : 'DynamicWeight';
    const available = plan.participants.map((name) => ({ name, replicas: plan.caps.get(name) ?? 0 }));
    const shipped = (n: number): string => {
      const outcome = runDivide({
        strategy,
        targetReplicas: n,
        availableClusters: available,
        scheduledClusters: [],
        divider: 'webster',
        legacyVariant: 'v1.8',
        uid: '',
      });
      if (!outcome.ok) return `refuse ${n} (${outcome.error})`;
      const placed = [...outcome.replicas].filter(([, r]) => r > 0).map(([name]) => name);
      return `place ${n} as ${formatSplit(placed, outcome.replicas)}`;
    };
    const sumAvailable = available.reduce((acc, c) => acc + c.replicas, 0);
    if (sumAvailable < fmax || policy === 'Aggregated') {
      notes.push(
        `Karmada's real ${strategy} scheduler would ${shipped(fmin)} and ${shipped(fmax)}. The proposal splits HPA bounds, not replicas, so the preview keeps going.`,
      );
    }
  }

  if (ctx.scaleToZero && policy !== 'Duplicated') {
    const dormant = included.filter((name) => binding.get(name) === 0 && prevOf(name) === 0);
    if (dormant.length > 0) {
      notes.push(
        `${dormant.join(', ')} ${dormant.length === 1 ? 'is' : 'are'} new to the binding and start${dormant.length === 1 ? 's' : ''} dormant (0 replicas) under ScaleToZero.`,
      );
      if (policy === 'StaticWeighted') {
        const lightest = included.slice().sort((a, b) => (plan.weights.get(a) ?? 0) - (plan.weights.get(b) ?? 0) || compareNames(a, b))[0];
        if (lightest !== undefined && dormant.some((name) => name !== lightest)) {
          notes.push(
            `The proposal's scale-to-zero rule would put the smallest static weight (${lightest}) to sleep; Autoscope makes clusters that are new to the binding dormant instead and keeps the smallest-weight rule for clusters already running (§4.2, §4.10).`,
          );
        }
      }
    }
  }

  notes.push(...documentedExampleNotes(ctx, names, votes));
  return notes;
}

/** Notes for the proposal's own worked examples, recognised by their inputs (§4.1–§4.5). */
function documentedExampleNotes(ctx: NotesContext, names: string[], votes: readonly (readonly [string, number])[]): string[] {
  const { policy, fmin, fmax, clusters, rawMax, rawMin, included } = ctx;
  const available = signature(clusters, (c) => c.availableReplicas);
  const prevSig = ctx.previousBinding
    .map((c) => c.replicas)
    .sort((a, b) => a - b)
    .join(',');
  const ours = (split: SplitResult): string => formatSlash(names, split.values);

  if (policy === 'Duplicated' && fmin === 3 && fmax === 10 && clusters.length === 4 && prevSig === '1,4,5,20') {
    return [
      `The proposal's Duplicated example (§4.1) labels its HPAs "member 1/2/3" although ${included.length} clusters are selected; its numbers match this preview.`,
    ];
  }
  if (policy === 'StaticWeighted' && fmin === 2 && fmax === 10 && signature(clusters, (c) => c.staticWeight) === '1,2,3') {
    const hamilton = largestRemainder(fmax, votes);
    const legacy = runTakeByWeight(
      fmax,
      votes.map(([name, weight]) => ({ name, weight, lastReplicas: 0 })),
      [],
      'v1.5',
    ).replicas;
    return [
      `The proposal's StaticWeighted example (§4.2) prints maxReplicas 1/4/5; no standard rounding rule yields that: Webster gives ${ours(rawMax)}, ` +
        `largest remainder ${formatSlash(names, hamilton)}, legacy TakeByWeight ${formatSlash(names, legacy)}. ` +
        'Only "prefer the cluster already running more replicas" fits, a rule the proposal never states.',
      'The proposal keeps the 4 replicas of its second cluster in the binding; with maxReplicas from Webster the binding is clamped to the new max.',
    ];
  }
  if (policy === 'DynamicWeighted' && fmin === 8 && fmax === 24 && available === '1,5,2') {
    const matches = ours(rawMin) === '1/5/2' && ours(rawMax) === '3/15/6';
    return [
      matches
        ? "This matches the proposal's DynamicWeighted example (§4.3): min 1/5/2, max 3/15/6 (the proposal does not print the binding)."
        : `The proposal's DynamicWeighted example (§4.3) prints min 1/5/2, max 3/15/6; this preview gives ${ours(rawMin)} and ${ours(rawMax)}.`,
    ];
  }
  if (policy === 'Aggregated' && fmin === 8 && fmax === 24 && available === '8,2,2') {
    const placed = [...rawMax.values.values()].reduce((acc, v) => acc + v, 0) - rawMax.leftover;
    return [
      `The proposal's Aggregated example (§4.4) prints maxReplicas 18/2/2, whose sum 22 ≠ ${fmax}; its comment "10 replicas is left" is wrong: ` +
        `the first cycle places ${placed}, leaving ${fmax} − ${placed} = ${rawMax.leftover}. This preview gives ${ours(rawMax)}.`,
    ];
  }
  if (
    policy === 'Prioritized' &&
    fmin === 8 &&
    fmax === 24 &&
    signature(clusters, (c) => c.priority).startsWith('2,1') &&
    available.startsWith('20,1')
  ) {
    return [
      `The proposal's Prioritized example (§4.5) prints maxReplicas 20/4: it gives the ${rawMax.leftover} left over to the lowest priority, beyond its availableReplicas 1, ` +
        'contradicting its own sentence ("the left will be assigned to the cluster with the highest priority"); with availableReplicas 4 for the second cluster its numbers are reproduced exactly. ' +
        `This preview follows the sentence: ${ours(rawMax)}.`,
    ];
  }
  return [];
}

/**
 * The seed proposal's initial HPA assignment (docs/engines/federation.md §5): split federatedMin/MaxReplicas by the
 * policy (Webster for weights, fill for Aggregated/Prioritized), give every cluster with maxReplicas ≥ 1 an
 * HPA [max(min,1), max], and rewrite the ResourceBinding: running clusters are clamped into their bounds,
 * new ones start at their min (or dormant at 0 with ScaleToZero, woken in policy order until Σ ≥ federatedMin).
 */
export function previewInitialAssignment(input: InitialAssignmentInput): InitialAssignmentPreview {
  const parsed = InitialAssignmentInputSchema.parse(input);
  const { policy } = parsed;
  const fmin = parsed.federatedMinReplicas;
  const fmax = parsed.federatedMaxReplicas;
  const scaleToZero = (parsed.scaleToZero ?? false) && policy !== 'Duplicated';
  const previousBinding = parsed.previousBinding ?? [];
  const previous = new Map(previousBinding.map((c) => [c.name, c.replicas]));
  const clusters: PolicyCluster[] = parsed.clusters.map((c) => ({ ...c, prevReplicas: c.prevReplicas ?? previous.get(c.name) ?? 0 }));
  const plan = planSeedSplit(policy, clusters, resolveTieDirection(parsed.tieBreak, parsed.uid));
  const rawMax = splitByPlan(plan, fmax);
  const rawMin = splitByPlan(plan, fmin);
  const steps = [
    step('rule', plan.rule, plan.ruleClusters),
    step('maxReplicas', `maxReplicas ${fmax}: ${rawMax.how}.`, rawMax.clusters),
    step('minReplicas', `minReplicas ${fmin}: ${rawMin.how}.`, rawMin.clusters),
  ];

  const excluded: ExcludedCluster[] = [...plan.excluded];
  const hpa = new Map<string, MemberHpaBounds>();
  const included: string[] = [];
  for (const name of plan.participants.slice().sort(compareNames)) {
    const max = rawMax.values.get(name) ?? 0;
    if (max === 0) {
      excluded.push({ name, reason: 'its maxReplicas share is 0 and an HPA needs maxReplicas ≥ 1' });
      continue;
    }
    const share = rawMin.values.get(name) ?? 0;
    const min = policy === 'Duplicated' ? share : Math.max(share, 1);
    if (min !== share)
      steps.push(step('minReplicas', `${name}: minReplicas share ${share} is lifted to 1 (the proposal's floor rule).`, [name]));
    hpa.set(name, { minReplicas: min, maxReplicas: max });
    included.push(name);
  }
  for (const { name, reason } of excluded) steps.push(step('excluded', `${name} is excluded: ${reason}.`, [name]));

  const binding = new Map<string, number>();
  const byName = new Map(clusters.map((c) => [c.name, c]));
  const prevOf = (name: string): number => byName.get(name)?.prevReplicas ?? 0;
  for (const name of included) {
    const bounds = hpa.get(name) ?? { minReplicas: 0, maxReplicas: 0 };
    const prev = prevOf(name);
    if (prev > 0) {
      const clamped = Math.min(Math.max(prev, bounds.minReplicas), bounds.maxReplicas);
      binding.set(name, clamped);
      steps.push(step('binding', `${name}: binding clamp(${prev}, ${bounds.minReplicas}, ${bounds.maxReplicas}) = ${clamped}.`, [name]));
    } else {
      binding.set(name, scaleToZero ? 0 : bounds.minReplicas);
      steps.push(
        step(
          'binding',
          `${name}: new to the binding → ${scaleToZero ? '0 (dormant, ScaleToZero)' : `its minReplicas ${bounds.minReplicas}`}.`,
          [name],
        ),
      );
    }
  }
  let total = [...binding.values()].reduce((acc, r) => acc + r, 0);
  if (scaleToZero && total < fmin) {
    for (const name of wakeOrder(plan, clusters, included)) {
      if (total >= fmin) break;
      if (binding.get(name) !== 0) continue;
      const min = hpa.get(name)?.minReplicas ?? 1;
      binding.set(name, min);
      total += min;
      steps.push(step('binding', `${name}: woken to ${min} so that Σ binding reaches federatedMinReplicas ${fmin}.`, [name]));
    }
  }

  const keep = new Set(included);
  const notes = initialAssignmentNotes({
    policy,
    fmin,
    fmax,
    clusters,
    plan,
    rawMin,
    rawMax,
    hpa,
    included,
    binding,
    scaleToZero,
    previousBinding,
  });
  return {
    hpa: Object.fromEntries(included.map((name) => [name, hpa.get(name) ?? { minReplicas: 0, maxReplicas: 0 }])),
    resourceBinding: included.map((name) => ({ name, replicas: binding.get(name) ?? 0 })),
    excludedClusters: excluded.map((c) => c.name).sort(compareNames),
    removedFromBinding: previousBinding.map((c) => c.name).filter((name) => !keep.has(name)),
    notes,
    explanation: textsOf(steps),
    steps,
  };
}

/** §5 step 3 wake order: Static by weight descending, Dynamic by availableReplicas descending, else the fill order. */
function wakeOrder(plan: SeedSplitPlan, clusters: readonly PolicyCluster[], included: readonly string[]): string[] {
  const byName = new Map(clusters.map((c) => [c.name, c]));
  const available = (name: string): number => byName.get(name)?.availableReplicas ?? 0;
  switch (plan.policy) {
    case 'StaticWeighted':
      return included.slice().sort((a, b) => (plan.weights.get(b) ?? 0) - (plan.weights.get(a) ?? 0) || compareNames(a, b));
    case 'DynamicWeighted':
      return included.slice().sort((a, b) => available(b) - available(a) || compareNames(a, b));
    default: {
      const keep = new Set(included);
      return plan.participants.filter((name) => keep.has(name));
    }
  }
}
