import { describe, expect, it } from 'vitest';
import type { ScaleUpInput, ScaleUpPreview } from '@/lib/api';
import { previewInitialAssignment, previewScaleUp } from '@/lib/federation';
import { toFederationView } from './federation-view';

const scaleUpBody: ScaleUpInput = {
  policy: 'StaticWeighted',
  targetUtilization: 50,
  blockedCluster: { name: 'cluster1', currentReplicas: 4, maxReplicas: 4, currentUtilization: 100 },
  eligibleClusters: [
    { name: 'cluster2', currentReplicas: 2, maxReplicas: 10, staticWeight: 3 },
    { name: 'cluster3', currentReplicas: 2, maxReplicas: 10, staticWeight: 1 },
  ],
};

/** The same result with every sentence reworded: what a page traces must not move. */
function reworded(r: ScaleUpPreview): ScaleUpPreview {
  const steps = r.steps.map((s, i) => ({ ...s, text: `step ${i}` }));
  return { ...r, steps, explanation: steps.map((s) => s.text) };
}

describe('toFederationView traces numbers through the steps’ data, not their wording', () => {
  it('scale-up (docs/engines/federation.md §4.6): facts, rows and the Added column keep their steps when every sentence is reworded', () => {
    const result = previewScaleUp(scaleUpBody);
    const view = toFederationView({ operation: 'scale-up', body: scaleUpBody, result });
    const again = toFederationView({ operation: 'scale-up', body: scaleUpBody, result: reworded(result) });
    if (!view || !again) throw new Error('no view');
    const index = (lines: string[], all: string[]): number[] => lines.map((l) => all.indexOf(l));
    expect(again.facts.map((f) => index(f.trace, again.explanation))).toEqual(view.facts.map((f) => index(f.trace, view.explanation)));
    expect(again.rows.map((r) => index(r.trace, again.explanation))).toEqual(view.rows.map((r) => index(r.trace, view.explanation)));
    expect(view.facts.find((f) => f.label === 'Deficit')?.trace).toEqual([result.explanation[0]]);
    expect(view.rows.find((r) => r.cluster === 'cluster2')?.trace.length).toBeGreaterThan(0);
    expect(view.rows.find((r) => r.cluster === 'cluster1')?.trace).toEqual([result.explanation[0]]);
  });

  it('initial assignment: Σ HPA max traces to the maxReplicas split, Σ binding to the binding steps', () => {
    const body = {
      policy: 'StaticWeighted' as const,
      federatedMinReplicas: 2,
      federatedMaxReplicas: 10,
      clusters: [
        { name: 'member1', staticWeight: 1 },
        { name: 'member2', staticWeight: 2, prevReplicas: 4 },
        { name: 'member3', staticWeight: 3 },
      ],
    };
    const result = previewInitialAssignment(body);
    const view = toFederationView({ operation: 'initial-assignment', body, result });
    if (!view) throw new Error('no view');
    expect(view.facts.find((f) => f.label === 'Σ HPA max')?.trace).toEqual(
      result.steps.filter((s) => s.field === 'maxReplicas').map((s) => s.text),
    );
    expect(view.facts.find((f) => f.label === 'Σ binding')?.trace).toEqual(
      result.steps.filter((s) => s.field === 'binding').map((s) => s.text),
    );
    expect(result.steps.filter((s) => s.field === 'binding').map((s) => s.clusters)).toEqual([['member1'], ['member2'], ['member3']]);
  });
});
