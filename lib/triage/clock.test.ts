import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { EU, FRESH, hpa, hpas, NOW, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { assessmentMovesWithClock } from '@/lib/triage/assess-hpa';
import { CONDITION_MEANINGS } from '@/lib/triage/condition-meaning';
import type { MapperContext } from '@/lib/triage/mapper-context';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

/**
 * `assessmentMovesWithClock` says when an HPA's DTO can change with nothing but the clock; FleetIndex's minute
 * re-map skips the rest. The claim checked here: whenever it says no, mapping the same object with the same
 * context later (a second, a minute, past the 15-minute mismatch, past the hour a stabilization may hold, days)
 * gives the same DTO. And it is not vacuous: among the objects it says yes to, some do change.
 */
const NOW_MS = Date.parse(NOW);
const later = [1_000, 61_000, 15 * 60_000 + 1_000, 3600_000 + 1_000, 3 * 86_400_000];
const at = (offsetMs: number): string => new Date(NOW_MS + offsetMs).toISOString();

/** Every (type, status, reason) the meaning table knows for HPAs, plus the default rows' statuses with another reason. */
const knownConditions = CONDITION_MEANINGS.filter((r) => r.kinds.includes('HorizontalPodAutoscaler') && r.type !== '*').map((r) => ({
  type: r.type,
  status: r.status === '*' ? 'True' : r.status,
  reason: r.reason === '*' ? 'SomethingElse' : r.reason,
}));

const condition = fc.record({
  pick: fc.constantFrom(...knownConditions),
  sinceAgoS: fc.integer({ min: 0, max: 5 * 86_400 }),
  status: fc.option(fc.constantFrom('True', 'False', 'Unknown'), { nil: undefined }),
});

const arbitraryCase = fc.record({
  base: fc.constantFrom(...hpas(EU), ...hpas(US), ...hpas(STAGING)),
  conditions: fc.uniqueArray(condition, { selector: (c) => c.pick.type, maxLength: 4 }),
  current: fc.integer({ min: 0, max: 6 }),
  desired: fc.integer({ min: 0, max: 6 }),
  createdAgoS: fc.integer({ min: 0, max: 86_400 }),
  mismatchSinceAgoS: fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: null }),
  withSince: fc.boolean(),
});

type Case = typeof arbitraryCase extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case): { object: HorizontalPodAutoscaler; context: MapperContext } {
  const object = structuredClone(c.base);
  object.metadata.creationTimestamp = at(-c.createdAgoS * 1000);
  const conditions: Condition[] = c.conditions.map(({ pick, sinceAgoS, status }) => ({
    type: pick.type,
    status: status ?? pick.status,
    reason: pick.reason,
    message: `${pick.type} ${pick.reason}`,
    lastTransitionTime: at(-sinceAgoS * 1000),
  }));
  object.status = { ...object.status, conditions, currentReplicas: c.current, desiredReplicas: c.desired };
  const context: MapperContext = {
    ...FRESH,
    ...(c.withSince ? { conditionSince: Object.fromEntries(conditions.map((x) => [x.type, x.lastTransitionTime ?? NOW])) } : {}),
    replicasMismatchSince: c.mismatchSinceAgoS === null ? null : at(-c.mismatchSinceAgoS * 1000),
  };
  return { object, context };
}

function sameAtEveryLaterInstant(object: HorizontalPodAutoscaler, context: MapperContext): boolean {
  const first = JSON.stringify(toHpaAutoscaler(EU, object, context, NOW));
  return later.every((offset) => JSON.stringify(toHpaAutoscaler(EU, object, context, at(offset))) === first);
}

describe('assessmentMovesWithClock: an HPA it calls clock-free maps the same at every later instant', () => {
  it('every fixture HPA, as it is', () => {
    for (const object of [...hpas(EU), ...hpas(US), ...hpas(STAGING)]) {
      if (!assessmentMovesWithClock('HorizontalPodAutoscaler', object))
        expect(sameAtEveryLaterInstant(object, FRESH), `${object.metadata.namespace}/${object.metadata.name}`).toBe(true);
    }
  });

  it('generated HPAs: any known conditions, replica counts, ages and observed times', () => {
    let moved = 0;
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        const { object, context } = build(c);
        const same = sameAtEveryLaterInstant(object, context);
        if (!assessmentMovesWithClock('HorizontalPodAutoscaler', object)) return same;
        if (!same) moved += 1;
        return true;
      }),
      { numRuns: 2000 },
    );
    expect(moved).toBeGreaterThan(0);
  });

  it('names each rule that reads the clock', () => {
    // A replicas mismatch (prod-us has one), ScaleDownStabilized (heldLong), and conditions without ScalingActive.
    const mismatch = hpas(US).find((h) => (h.status?.currentReplicas ?? 0) !== (h.status?.desiredReplicas ?? 0));
    expect(mismatch && assessmentMovesWithClock('HorizontalPodAutoscaler', mismatch)).toBe(true);
    const stabilized = hpa(EU, 'search', 'query');
    stabilized.status = {
      ...stabilized.status,
      currentReplicas: 3,
      desiredReplicas: 3,
      conditions: [
        { type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: 'm', lastTransitionTime: NOW },
        { type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'm', lastTransitionTime: NOW },
      ],
    };
    expect(assessmentMovesWithClock('HorizontalPodAutoscaler', stabilized)).toBe(true);
    stabilized.status.conditions = stabilized.status.conditions?.slice(0, 1).map((c) => ({ ...c, reason: 'ReadyForNewScale' }));
    expect(assessmentMovesWithClock('HorizontalPodAutoscaler', stabilized)).toBe(true);
    stabilized.status.conditions = [];
    expect(assessmentMovesWithClock('HorizontalPodAutoscaler', stabilized)).toBe(false);
  });
});
