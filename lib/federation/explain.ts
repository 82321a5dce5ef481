import type { ExplanationField, ExplanationStep } from '@/lib/api/federation';

/** One explanation step: its sentence, the quantity it computes and the member clusters it is about. */
export function step(field: ExplanationField, text: string, clusters: Iterable<string> = []): ExplanationStep {
  return { text, clusters: [...new Set(clusters)], field };
}

/** The sentences of the steps, in order: the `explanation` every result also carries as plain lines. */
export function textsOf(steps: readonly ExplanationStep[]): string[] {
  return steps.map((s) => s.text);
}
