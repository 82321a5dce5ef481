import { AssignReplicasInputSchema, type AssignReplicasInput, type AssignReplicasResult, type TargetCluster } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { runDivide, type DivideOutcome, type NamedReplicas } from '@/lib/federation/divide-replicas';
import { describeRandomTie, runTakeByWeight } from '@/lib/federation/take-by-weight-legacy';
import { compareNames, runWebster, tieDirectionForUid } from '@/lib/federation/webster';

/** upstream: `removeZeroReplicasCluster` (pkg/scheduler/core/common.go), then sorted by name for a stable display. */
function toClusters(replicas: Iterable<readonly [string, number]>): TargetCluster[] {
  return [...replicas]
    .filter(([, n]) => n > 0)
    .map(([name, n]) => ({ name, replicas: n }))
    .sort((a, b) => compareNames(a.name, b.name));
}

function describe(clusters: readonly { name: string; replicas: number }[]): string {
  return clusters.length ? clusters.map((c) => `${c.name} ${c.replicas}`).join(', ') : '(none)';
}

/**
 * Where karmada-scheduler puts `replicas` (pkg/scheduler/core/assignment.go, `assignFuncMap`):
 * - Duplicated: every candidate gets all replicas.
 * - StaticWeight: a fresh division of `replicas` by the candidates' static weights (weight 0 is ignored; all
 *   zero means weight 1 for everyone).
 * - DynamicWeight / Aggregated (`assignByDynamicStrategy`), Steady mode: scale-up divides only the increase by
 *   the estimator headroom and adds it onto the previous result (v1.16+ Webster and legacy alike); scale-down
 *   divides the new total by the previous split (v1.17+: of the still-candidate clusters; legacy: all of
 *   spec.clusters); equal keeps the previous result. Fresh mode divides the total by headroom + previous replicas.
 * Zero entries are dropped like `spec.clusters`. Failure returns Karmada's error text.
 */
export function assignReplicas(input: AssignReplicasInput): AssignReplicasResult {
  const parsed = AssignReplicasInputSchema.parse(input);
  const divider = parsed.divider ?? 'webster';
  const legacyVariant = parsed.legacyVariant ?? 'v1.8';
  const direction = tieDirectionForUid(parsed.uid);
  const { candidates, replicas } = parsed;
  const dividerLabel =
    divider === 'webster' ? 'Webster (v1.16+)' : `legacy TakeByWeight (${legacyVariant === 'v1.5' ? 'v1.5–v1.7' : 'v1.8–v1.15'})`;

  switch (parsed.strategy) {
    case 'Duplicated': {
      const clusters = toClusters(candidates.map((c) => [c.name, replicas] as const));
      const steps = [step('result', `Duplicated: every candidate gets spec.replicas ${replicas}.`)];
      return { clusters, notes: [], explanation: textsOf(steps), steps };
    }

    case 'StaticWeight': {
      // upstream: getStaticWeightInfoList — unmatched candidates (weight 0) are ignored unless nobody matched.
      let weighted = candidates.filter((c) => (c.staticWeight ?? 0) > 0).map((c) => ({ name: c.name, weight: c.staticWeight ?? 0 }));
      const steps = [
        weighted.length === 0
          ? step('rule', 'StaticWeight: no candidate matches a staticWeightList entry, so every candidate weighs 1.')
          : step(
              'rule',
              `StaticWeight: weights ${weighted.map((w) => `${w.name} ${w.weight}`).join(', ')}; candidates without a weight get nothing.`,
              weighted.map((w) => w.name),
            ),
      ];
      if (weighted.length === 0) weighted = candidates.map((c) => ({ name: c.name, weight: 1 }));
      if (divider === 'webster') {
        // upstream: NewDispenser(spec.Replicas, nil, uid).AllocateByWeight — a fresh division, no init result.
        const seats = runWebster(
          replicas,
          weighted.map((w) => [w.name, w.weight] as const),
          [],
          direction,
        );
        const clusters = toClusters(seats);
        steps.push(
          step(
            'result',
            `${dividerLabel} divides all ${replicas} replicas afresh: ${describe(clusters)}.`,
            clusters.map((c) => c.name),
          ),
        );
        return { clusters, notes: [], explanation: textsOf(steps), steps };
      }
      const last = new Map(parsed.previousClusters.map((c) => [c.name, c.replicas]));
      const outcome = runTakeByWeight(
        replicas,
        weighted.map((w) => ({ ...w, lastReplicas: last.get(w.name) ?? 0 })),
        [],
        legacyVariant,
      );
      const clusters = toClusters(outcome.replicas);
      steps.push(
        step(
          'result',
          `${dividerLabel} floors each quota and hands the remainder out in weight order: ${describe(clusters)}.`,
          clusters.map((c) => c.name),
        ),
      );
      return { clusters, notes: describeRandomTie(outcome), explanation: textsOf(steps), steps };
    }

    case 'DynamicWeight':
    case 'Aggregated': {
      const strategy: 'DynamicWeight' | 'Aggregated' = parsed.strategy;
      const candidateNames = new Set(candidates.map((c) => c.name));
      // upstream: assignState.buildScheduledClusters — previous entries that are no longer candidates are ignored.
      const scheduled = parsed.previousClusters.filter((c) => candidateNames.has(c.name));
      const assigned = scheduled.reduce((sum, c) => sum + c.replicas, 0);
      // upstream: calAvailableReplicas — an estimator answer of MaxInt32 (no bound) becomes spec.replicas.
      const headroom = (c: (typeof candidates)[number]): number => c.allocatableReplicas ?? replicas;
      const divide = (available: NamedReplicas[], init: NamedReplicas[], target: number): DivideOutcome =>
        runDivide({
          strategy,
          targetReplicas: target,
          availableClusters: available,
          scheduledClusters: init,
          divider,
          legacyVariant,
          uid: parsed.uid,
        });
      const steps = [
        step(
          'rule',
          `${strategy} with ${dividerLabel}; previous result on candidates: ${describe(scheduled)} (Σ ${assigned}).`,
          scheduled.map((c) => c.name),
        ),
      ];
      const finish = (outcome: DivideOutcome, failure: string, notes: string[] = []): AssignReplicasResult => {
        if (!outcome.ok) return { error: `${failure}: ${outcome.error}` };
        const clusters = toClusters(outcome.replicas);
        const all = [
          ...steps,
          ...outcome.steps,
          step(
            'result',
            `Result (zero entries dropped): ${describe(clusters)}.`,
            clusters.map((c) => c.name),
          ),
        ];
        return { clusters, notes: [...notes, ...outcome.notes], explanation: textsOf(all), steps: all };
      };

      if (parsed.mode === 'Fresh') {
        const previous = new Map(scheduled.map((c) => [c.name, c.replicas]));
        const available = candidates.map((c) => ({ name: c.name, replicas: headroom(c) + (previous.get(c.name) ?? 0) }));
        steps.push(
          step(
            'rule',
            `Fresh mode (rescheduleTriggeredAt): divide all ${replicas} by headroom + previous replicas, ignoring the previous split.`,
          ),
        );
        return finish(divide(available, [], replicas), 'failed to do fresh scale');
      }
      if (assigned > replicas) {
        const stale = parsed.previousClusters.filter((c) => !candidateNames.has(c.name) && c.replicas > 0);
        if (divider === 'webster') {
          // upstream (v1.17.0+, 799fa4b32): dynamicScaleDown weighs by the still-candidate scheduled clusters only.
          const notes = stale.map(
            (c) =>
              `${c.name} is no longer a candidate, so it gets nothing; Karmada v1.16.x (before 799fa4b32) still divided by the whole previous spec.clusters and could keep replicas there.`,
          );
          steps.push(step('rule', `Scale down ${assigned} → ${replicas}: divide the new total by the previous split on candidates.`));
          return finish(divide(scheduled, [], replicas), 'failed to scale down', notes);
        }
        // upstream (v1.5–v1.15): dynamicScaleDown weighs by the whole previous spec.clusters, not only the still-candidate ones.
        const notes = stale.map(
          (c) =>
            `${c.name} is no longer a candidate but upstream's dynamicScaleDown still divides by the whole previous spec.clusters, so it can keep replicas.`,
        );
        steps.push(step('rule', `Scale down ${assigned} → ${replicas}: divide the new total by the previous split.`));
        return finish(divide(parsed.previousClusters.slice(), [], replicas), 'failed to scale down', notes);
      }
      if (assigned < replicas) {
        // upstream: dynamicScaleUp divides only the increase, by headroom, and adds it onto the previous result, so
        // no cluster gains more than its estimated headroom.
        const available = candidates.map((c) => ({ name: c.name, replicas: headroom(c) }));
        steps.push(
          step(
            'rule',
            `Scale up ${assigned} → ${replicas}: divide the ${replicas - assigned} new replicas by estimator headroom and add them onto the previous result.`,
          ),
        );
        return finish(divide(available, scheduled, replicas - assigned), 'failed to scale up');
      }
      steps.push(step('result', `spec.replicas ${replicas} equals the previous total: the previous result stays.`));
      return { clusters: toClusters(scheduled.map((c) => [c.name, c.replicas] as const)), notes: [], explanation: textsOf(steps), steps };
    }
  }
}
