import {
  DivideReplicasInputSchema,
  type DivideReplicasInput,
  type DivideReplicasResult,
  type ExplanationStep,
  type LegacyVariant,
  type ReplicaDivider,
} from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { describeRandomTie, runTakeByWeight } from '@/lib/federation/take-by-weight-legacy';
import { runWebster, tieDirectionForUid } from '@/lib/federation/webster';

export interface NamedReplicas {
  name: string;
  replicas: number;
}

export interface DivideArgs {
  strategy: 'DynamicWeight' | 'Aggregated';
  targetReplicas: number;
  /** Available replicas per cluster, in candidate order; sorted here as `buildAvailableClusters` does. */
  availableClusters: readonly NamedReplicas[];
  /** The init result: previously scheduled clusters that are still candidates. */
  scheduledClusters: readonly NamedReplicas[];
  divider: ReplicaDivider;
  legacyVariant: LegacyVariant;
  uid: string;
}

export type DivideOutcome =
  { ok: true; replicas: Map<string, number>; notes: string[]; steps: ExplanationStep[] } | { ok: false; error: string };

/** upstream: pkg/util/binding.go `MergeTargetClusters` — per-cluster sums; clusters only in `previous` are kept. */
function mergeTargetClusters(previous: readonly (readonly [string, number])[], delta: Map<string, number>): Map<string, number> {
  const merged = new Map(delta);
  for (const [name, replicas] of previous) merged.set(name, (merged.get(name) ?? 0) + replicas);
  return merged;
}

const describeList = (list: readonly NamedReplicas[]): string =>
  list.length ? list.map((c) => `${c.name} ${c.replicas}`).join(', ') : '(none)';

/** upstream: Go's sort.Sort falls back to insertion sort (stable) only for up to 12 elements. */
const GO_INSERTION_SORT_LIMIT = 12;

/**
 * upstream: pkg/scheduler/core/division_algorithm.go `dynamicDivideReplicas`, preceded by the descending sort
 * of `TargetClustersList` that every caller applies to the available clusters.
 */
export function runDivide(args: DivideArgs): DivideOutcome {
  const notes: string[] = [];
  const steps: ExplanationStep[] = [];
  // TargetClustersList.Less is `a.Replicas > b.Replicas`; Array#sort is stable, like sort.Sort for ≤ 12 items.
  let available = args.availableClusters.slice().sort((a, b) => b.replicas - a.replicas);
  const availableReplicas = available.reduce((sum, c) => sum + c.replicas, 0);
  if (availableReplicas < args.targetReplicas) {
    // upstream: framework.UnschedulableError message, verbatim.
    return { ok: false, error: `Clusters available replicas ${availableReplicas} are not enough to schedule.` };
  }

  steps.push(
    step(
      'rule',
      `Available replicas, descending: ${describeList(available)} (Σ ${availableReplicas} ≥ target ${args.targetReplicas}).`,
      available.map((c) => c.name),
    ),
  );
  if (args.strategy === 'Aggregated') {
    if (available.length > GO_INSERTION_SORT_LIMIT && new Set(available.map((c) => c.replicas)).size < available.length) {
      notes.push(
        `With more than ${GO_INSERTION_SORT_LIMIT} candidates upstream's sort.Sort is not stable, so clusters with equal available replicas may be tried in another order than shown.`,
      );
    }
    // upstream: assignState.resortAvailableClusters — clusters that already run replicas go first, in available order.
    const prior = new Set(args.scheduledClusters.filter((c) => c.replicas > 0).map((c) => c.name));
    if (prior.size > 0) {
      available = [...available.filter((c) => prior.has(c.name)), ...available.filter((c) => !prior.has(c.name))];
    }
    let sum = 0;
    for (let i = 0; i < available.length; i++) {
      sum += available[i]?.replicas ?? 0;
      if (sum >= args.targetReplicas) {
        available = available.slice(0, i + 1);
        break;
      }
    }
    steps.push(
      step(
        'rule',
        `Aggregated keeps the shortest prefix that covers ${args.targetReplicas} (previously scheduled clusters first): ${describeList(available)}.`,
        available.map((c) => c.name),
      ),
    );
  }

  const initial = args.scheduledClusters.map((c) => [c.name, c.replicas] as const);
  if (args.divider === 'webster') {
    // upstream (v1.16+, d698ee591): util.MergeTargetClusters(scheduledClusters,
    //   helper.SpreadReplicasByTargetClusters(target, availableClusters, nil, uid)) — "Since the dynamic weight
    // calculation is based on delta replicas, there's no need to pass in the previous scheduling result."
    // With a nil init, Dispenser.Done() is never true and a zero weight sum leaves the delta empty.
    const weightSum = available.reduce((sum, c) => sum + c.replicas, 0);
    const delta =
      weightSum === 0
        ? new Map<string, number>()
        : runWebster(
            args.targetReplicas,
            available.map((c) => [c.name, c.replicas] as const),
            [],
            tieDirectionForUid(args.uid),
          );
    const merged = mergeTargetClusters(initial, delta);
    const describeMap = (m: Map<string, number>): string => describeList([...m].map(([name, replicas]) => ({ name, replicas })));
    steps.push(
      weightSum === 0
        ? step('shares', 'Nothing to divide: the previous result stays.')
        : step(
            'shares',
            `Webster divides the ${args.targetReplicas} replicas by available replicas alone (the previous result is not a starting seat count): ${describeMap(delta)}` +
              (initial.length ? `; added onto the previous result ${describeList(args.scheduledClusters)}: ${describeMap(merged)}.` : '.'),
            [...delta.keys(), ...merged.keys()],
          ),
    );
    return { ok: true, replicas: merged, notes, steps };
  }
  const last = new Map(initial);
  const outcome = runTakeByWeight(
    args.targetReplicas,
    available.map((c) => ({ name: c.name, weight: c.replicas, lastReplicas: last.get(c.name) ?? 0 })),
    initial,
    args.legacyVariant,
  );
  steps.push(
    step(
      'shares',
      `Legacy TakeByWeight (${args.legacyVariant}) floors ${args.targetReplicas} × available / Σ and hands the remainder out in weight order, then adds the previous result ${describeList(args.scheduledClusters)}: ` +
        `${describeList([...outcome.replicas].map(([name, replicas]) => ({ name, replicas })))}.`,
      [...args.scheduledClusters.map((c) => c.name), ...outcome.replicas.keys()],
    ),
  );
  return { ok: true, replicas: outcome.replicas, notes: [...notes, ...describeRandomTie(outcome)], steps };
}

/**
 * The scheduler's `dynamicDivideReplicas` step on its own: Aggregated keeps the shortest prefix of clusters
 * (previously scheduled ones first) whose available replicas cover the target, then both strategies divide the
 * target by available replicas and add the result onto the scheduled clusters. Returns the merged replicas per cluster
 * (zero entries included) or Karmada's unschedulable message.
 */
export function divideReplicas(input: DivideReplicasInput): DivideReplicasResult {
  const parsed = DivideReplicasInputSchema.parse(input);
  const outcome = runDivide({
    strategy: parsed.strategy,
    targetReplicas: parsed.targetReplicas,
    availableClusters: parsed.availableClusters,
    scheduledClusters: parsed.scheduledClusters,
    divider: parsed.divider,
    legacyVariant: parsed.legacyVariant ?? 'v1.8',
    uid: parsed.uid ?? '',
  });
  if (!outcome.ok) return { error: outcome.error };
  return {
    replicas: Object.fromEntries(outcome.replicas),
    notes: outcome.notes,
    explanation: textsOf(outcome.steps),
    steps: outcome.steps,
  };
}
