import {
  ScaleToZeroInputSchema,
  type ScaleToZeroInput,
  type ScaleToZeroPreview,
  type SeedPolicy,
  type ExplanationStep,
} from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { compareNames } from '@/lib/federation/webster';

interface ZeroCluster {
  name: string;
  replicas: number;
  staticWeight?: number;
  availableReplicas?: number;
  priority?: number;
}

/** The key the seed sends clusters to sleep by, smallest first (§4.10). */
function sleepKey(policy: SeedPolicy, cluster: ZeroCluster): number {
  switch (policy) {
    case 'StaticWeighted':
      return cluster.staticWeight ?? 0;
    case 'DynamicWeighted':
      return cluster.availableReplicas ?? 0;
    case 'Aggregated':
      return cluster.replicas;
    case 'Prioritized':
      return cluster.priority ?? Number.NEGATIVE_INFINITY;
    case 'Duplicated':
      return 0;
  }
}

const SLEEP_KEY_LABEL: Record<SeedPolicy, string> = {
  StaticWeighted: 'static weight',
  DynamicWeighted: 'availableReplicas',
  Aggregated: 'replicas',
  Prioritized: 'priority',
  Duplicated: '',
};

/**
 * The seed's scale to zero (docs/engines/federation.md §4.10, §5): clusters go to 0 in ascending order of the policy's
 * key (ties by name descending) while the rest still covers federatedMinReplicas, i.e. while
 * Σ replicas − replicas_k ≥ federatedMin. Duplicated never scales to zero.
 */
export function previewScaleToZero(input: ScaleToZeroInput): ScaleToZeroPreview {
  const parsed = ScaleToZeroInputSchema.parse(input);
  const { policy, clusters } = parsed;
  const fmin = parsed.federatedMinReplicas;
  const binding = new Map(clusters.map((c) => [c.name, c.replicas]));
  const names = clusters.map((c) => c.name).sort(compareNames);
  const steps: ExplanationStep[] = [];
  const notes = [
    'The proposal gives no stopping rule for scaling to zero; Autoscope zeroes clusters while the others still cover federatedMinReplicas.',
  ];
  const zeroed: string[] = [];

  if (policy === 'Duplicated') {
    steps.push(step('order', 'Duplicated: the proposal scales nothing to zero.'));
  } else {
    const order = clusters
      .filter((c) => c.replicas > 0)
      .sort((a, b) => sleepKey(policy, a) - sleepKey(policy, b) || compareNames(b.name, a.name));
    steps.push(
      step(
        'order',
        `Order (${SLEEP_KEY_LABEL[policy]} ascending, ties by name descending): ${order.map((c) => c.name).join(' → ') || '(none)'}.`,
        order.map((c) => c.name),
      ),
    );
    let total = clusters.reduce((acc, c) => acc + c.replicas, 0);
    for (const c of order) {
      if (total - c.replicas < fmin) {
        steps.push(
          step('binding', `${c.name} stays: Σ ${total} − ${c.replicas} = ${total - c.replicas} < federatedMinReplicas ${fmin}.`, [c.name]),
        );
        break;
      }
      steps.push(step('binding', `${c.name} → 0: Σ ${total} − ${c.replicas} = ${total - c.replicas} ≥ ${fmin}.`, [c.name]));
      total -= c.replicas;
      binding.set(c.name, 0);
      zeroed.push(c.name);
    }
  }
  steps.push(step('result', `Binding: ${formatSplit(names, binding)}.`, names));
  return {
    zeroed,
    resourceBinding: names.map((name) => ({ name, replicas: binding.get(name) ?? 0 })),
    notes,
    explanation: textsOf(steps),
    steps,
  };
}
