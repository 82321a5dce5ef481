import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { EU, FRESH, hpa, hpas, NOW, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { nextClockChange } from '@/lib/triage/assess-hpa';
import { CONDITION_MEANINGS } from '@/lib/triage/condition-meaning';
import type { MapperContext } from '@/lib/triage/mapper-context';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

/**
 * `nextClockChange` says when an HPA's DTO can next change with nothing but the clock; FleetIndex's minute re-map
 * re-maps an HPA only once that instant has come. The claim checked here: mapping the same object with the same
 * context at any instant before it (a second on, a minute, past the 15-minute mismatch, past the hour a
 * stabilization may hold, days; just before the instant; halfway) gives the same DTO, and when it says never,
 * at every instant tried. Followed from instant to instant, the claim holds at each. And it is not vacuous: at
 * the instants it names, some DTOs do change.
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

const mapAt = (object: HorizontalPodAutoscaler, context: MapperContext, ms: number): string =>
  JSON.stringify(toHpaAutoscaler(EU, object, context, new Date(ms).toISOString()));

/**
 * From `fromMs`: the same DTO at every instant tried before `nextClockChange`'s (all of them when it says never).
 * Returns that instant (null: never) and whether the DTO differs there.
 */
function sameUntilNextChange(
  object: HorizontalPodAutoscaler,
  context: MapperContext,
  fromMs: number,
): { next: number | null; same: boolean; moved: boolean } {
  const next = nextClockChange('HorizontalPodAutoscaler', object, context, fromMs);
  const first = mapAt(object, context, fromMs);
  const tried = [...later.map((offset) => fromMs + offset), ...(next === null ? [] : [next - 1, Math.floor((fromMs + next) / 2)])];
  const same = tried.filter((ms) => next === null || ms < next).every((ms) => mapAt(object, context, ms) === first);
  return { next, same, moved: next !== null && mapAt(object, context, next) !== first };
}

describe('nextClockChange: an HPA maps the same until the instant it names', () => {
  it('every fixture HPA, as it is', () => {
    for (const object of [...hpas(EU), ...hpas(US), ...hpas(STAGING)])
      expect(sameUntilNextChange(object, FRESH, NOW_MS).same, `${object.metadata.namespace}/${object.metadata.name}`).toBe(true);
  });

  it('generated HPAs: any known conditions, replica counts, ages and observed times, followed over five instants', () => {
    let moved = 0;
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        const { object, context } = build(c);
        let from: number | null = NOW_MS;
        for (let step = 0; step < 5 && from !== null; step++) {
          const r = sameUntilNextChange(object, context, from);
          if (!r.same) return false;
          if (r.next !== null && r.next <= from) return false;
          if (r.moved) moved += 1;
          from = r.next;
        }
        return true;
      }),
      { numRuns: 1000 },
    );
    expect(moved).toBeGreaterThan(0);
  });

  it('names each rule that reads the clock, and its instant', () => {
    // A replicas mismatch: 15 minutes after it began, then never again (the problem names its start).
    const mismatch = hpas(US).find((h) => (h.status?.currentReplicas ?? 0) !== (h.status?.desiredReplicas ?? 0));
    expect(mismatch).toBeDefined();
    const began = at(-60_000);
    const context: MapperContext = { ...FRESH, replicasMismatchSince: began };
    expect(nextClockChange('HorizontalPodAutoscaler', mismatch as HorizontalPodAutoscaler, context, NOW_MS)).toBe(
      Date.parse(began) + 15 * 60_000,
    );
    expect(nextClockChange('HorizontalPodAutoscaler', mismatch as HorizontalPodAutoscaler, context, NOW_MS + 15 * 60_000)).toBeNull();
    // ScaleDownStabilized: an hour after Autoscope saw it begin (heldLong).
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
    const held = { ...FRESH, conditionSince: { AbleToScale: NOW } };
    expect(nextClockChange('HorizontalPodAutoscaler', stabilized, held, NOW_MS)).toBe(NOW_MS + 3600_000);
    expect(nextClockChange('HorizontalPodAutoscaler', stabilized, FRESH, NOW_MS)).toBeNull();
    // Not evaluated (no ScalingActive): failing a minute after creation, and from then on the same (the message
    // names the creation time; it counted the minutes once, and every such HPA changed every minute).
    stabilized.metadata.creationTimestamp = at(-30_000);
    stabilized.status.conditions = stabilized.status.conditions?.slice(0, 1).map((c) => ({ ...c, reason: 'ReadyForNewScale' }));
    expect(nextClockChange('HorizontalPodAutoscaler', stabilized, FRESH, NOW_MS)).toBe(NOW_MS + 30_000);
    expect(nextClockChange('HorizontalPodAutoscaler', stabilized, FRESH, NOW_MS + 30_000)).toBeNull();
    const stuck = JSON.stringify(toHpaAutoscaler(EU, stabilized, FRESH, at(30_000)));
    expect(stuck).toContain('ScalingNotEvaluated');
    expect(JSON.stringify(toHpaAutoscaler(EU, stabilized, FRESH, at(3 * 86_400_000)))).toBe(stuck);
    // No conditions: nothing was decided, and nothing reads the clock.
    stabilized.status.conditions = [];
    expect(nextClockChange('HorizontalPodAutoscaler', stabilized, held, NOW_MS)).toBeNull();
  });
});
