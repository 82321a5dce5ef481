import { ScaleFromZeroInputSchema, type ScaleFromZeroInput, type ScaleFromZeroPreview, type ExplanationStep } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { compareNames } from '@/lib/federation/webster';

/**
 * The seed's scale from zero (docs/engines/federation.md §4.10, §5): dormant clusters wake to their minReplicas.
 * Static/Dynamic/Aggregated wake every zero-replica cluster; Prioritized wakes one per trigger, the highest
 * priority first (the reverse of the zeroing order); Duplicated does nothing.
 */
export function previewScaleFromZero(input: ScaleFromZeroInput): ScaleFromZeroPreview {
  const parsed = ScaleFromZeroInputSchema.parse(input);
  const { policy, clusters } = parsed;
  const binding = new Map(clusters.map((c) => [c.name, c.replicas]));
  const names = clusters.map((c) => c.name).sort(compareNames);
  const dormant = clusters.filter((c) => c.replicas === 0);
  const steps: ExplanationStep[] = [];
  const notes: string[] = [];
  let woken: typeof dormant = [];

  switch (policy) {
    case 'Duplicated':
      steps.push(step('order', 'Duplicated: the proposal wakes nothing.'));
      break;
    case 'Prioritized': {
      const byPriority = dormant
        .slice()
        .sort(
          (a, b) => (b.priority ?? Number.NEGATIVE_INFINITY) - (a.priority ?? Number.NEGATIVE_INFINITY) || compareNames(a.name, b.name),
        );
      woken = byPriority.slice(0, 1);
      const literal = byPriority[byPriority.length - 1];
      steps.push(
        step(
          'order',
          `Prioritized: one cluster per trigger, highest priority first: ${woken.map((c) => `${c.name} (priority ${c.priority ?? 'none'})`).join('') || '(no dormant cluster)'}.`,
          woken.map((c) => c.name),
        ),
      );
      if (literal && woken[0] && literal.name !== woken[0].name) {
        notes.push(
          `The proposal says "select the one with the lowest priority", which would wake ${literal.name} (priority ${literal.priority ?? 'none'}) and contradicts the priority semantics; Autoscope wakes the highest priority first.`,
        );
      }
      break;
    }
    default:
      woken = dormant;
      steps.push(step('order', `${policy}: every zero-replica cluster wakes.`));
  }
  for (const c of woken) {
    binding.set(c.name, c.minReplicas);
    steps.push(step('binding', `${c.name}: 0 → minReplicas ${c.minReplicas}.`, [c.name]));
  }
  steps.push(step('result', `Binding: ${formatSplit(names, binding)}.`, names));
  return {
    woken: woken.map((c) => c.name).sort(compareNames),
    resourceBinding: names.map((name) => ({ name, replicas: binding.get(name) ?? 0 })),
    notes,
    explanation: textsOf(steps),
    steps,
  };
}
