import type { ExplanationField, ExplanationStep } from '@/lib/api';

/** The sentences of the steps that compute one of `fields` (a fact's trace). */
export function stepsOf(steps: readonly ExplanationStep[], ...fields: ExplanationField[]): string[] {
  return steps.filter((s) => fields.includes(s.field)).map((s) => s.text);
}

/**
 * The explanation steps behind one cluster's numbers: those about it, narrowed to the ones computing `field` when
 * any does (so an HPA max traces to the maxReplicas split, not to the binding clamp). Read from the steps' data, never
 * from their wording.
 */
export function tracesFor(steps: readonly ExplanationStep[], cluster: string, field?: ExplanationField): string[] {
  const own = steps.filter((s) => s.clusters.includes(cluster));
  const narrowed = field ? own.filter((s) => s.field === field) : [];
  return (narrowed.length ? narrowed : own).map((s) => s.text);
}
