import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Autoscaler, Problem, ProblemSeverity } from '@/lib/api';
import { toAutoscalerId } from '@/lib/api';
import { fleet, NOW } from '@/lib/triage/__fixtures__/fleet';
import { groupProblems, groupTallies, ProblemLedger, problemInGroup } from '@/lib/triage/group-problems';

const templates = fleet();
const problems = templates.flatMap((t) => t.problems);

/**
 * Autoscalers of the fixture fleet under clashing names and clusters, with their problems shuffled about: times
 * before, at and after `now`, written two ways, missing or unparsable; the same problem twice; info problems; every
 * metrics read failure of the fixtures (so the outage rule fires and stops firing as members come and go).
 */
const autoscalerArb = fc
  .record({
    template: fc.integer({ min: 0, max: templates.length - 1 }),
    cluster: fc.constantFrom('prod', 'prod-eu', 'a'),
    namespace: fc.constantFrom('shop', 'shop-2', 'payments'),
    name: fc.constantFrom('web', 'web-1', 'api', 'w', 'x'),
    extra: fc.array(
      fc.record({
        problem: fc.integer({ min: 0, max: problems.length - 1 }),
        since: fc.constantFrom<string | null | undefined>(
          undefined,
          null,
          'not a time',
          '2026-11-20T10:00:00.000Z',
          '2026-11-20T10:00:00Z',
          '2026-11-20T12:00:00.000Z',
          '2026-11-20T12:00:00Z',
          '2026-11-21T00:00:00Z',
          '2026-11-19T00:00:00.000Z',
        ),
        severity: fc.constantFrom<ProblemSeverity | undefined>(undefined, 'info', 'warning', 'error', 'unknown'),
        hint: fc.constantFrom<string | undefined>(undefined, 'h1', 'h2'),
      }),
      { maxLength: 3 },
    ),
    keepProblems: fc.boolean(),
  })
  .map(({ template, cluster, namespace, name, extra, keepProblems }): Autoscaler => {
    const t = templates[template] as Autoscaler;
    const own = extra.map(({ problem, since, severity, hint }): Problem => {
      const p = problems[problem] as Problem;
      return { ...p, since: since === undefined ? p.since : since, severity: severity ?? p.severity, hint: hint ?? p.hint };
    });
    return {
      ...t,
      cluster,
      namespace,
      name,
      problems: keepProblems ? [...t.problems, ...own] : own,
      id: toAutoscalerId(cluster, t.kind, namespace, name),
    };
  });

const nowArb = fc.constantFrom(NOW, '2026-11-20T10:00:00Z', '2026-11-22T00:00:00Z', '2026-11-18T00:00:00Z');

const byId = (x: Autoscaler, y: Autoscaler): number => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

describe('ProblemLedger', () => {
  it('after any adds and removes, tallies what tallyProblems tallies over what is left (groupProblems), one slice or one per cluster', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            autoscalerArb.map((a) => ({ set: a })),
            fc.nat().map((n) => ({ drop: n })),
          ),
          { maxLength: 60 },
        ),
        nowArb,
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (steps, now, sampleSize, includeInfo) => {
          const options = { sampleSize, includeInfo };
          const whole = new ProblemLedger(options);
          const perCluster = new Map<string, ProblemLedger>();
          const current = new Map<string, Autoscaler>();
          const take = (a: Autoscaler, by: 1 | -1): void => {
            let ledger = perCluster.get(a.cluster);
            if (!ledger) {
              ledger = new ProblemLedger(options);
              perCluster.set(a.cluster, ledger);
            }
            for (const l of [whole, ledger]) {
              if (by > 0) l.add(a);
              else l.remove(a);
            }
          };
          for (const step of steps) {
            if ('set' in step) {
              const old = current.get(step.set.id);
              if (old) take(old, -1);
              current.set(step.set.id, step.set);
              take(step.set, 1);
            } else {
              const ids = [...current.keys()];
              const id = ids[step.drop % Math.max(ids.length, 1)];
              const old = id === undefined ? undefined : current.get(id);
              if (old && id !== undefined) {
                take(old, -1);
                current.delete(id);
              }
            }
          }
          const expected = groupProblems([...current.values()].sort(byId), now, options);
          expect(groupTallies([whole.tally(now)])).toEqual(expected);
          // Slices in the order of their ids, as the triage merges them ("prod-eu/…" before "prod/…").
          const slices = [...perCluster.keys()]
            .sort((x, y) => (`${x}/` < `${y}/` ? -1 : 1))
            .map((c) => (perCluster.get(c) as ProblemLedger).tally(now));
          expect(groupTallies(slices)).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('forgets a group once its last member leaves, and sees a metrics outage end when one reader recovers', () => {
    const failing = templates.filter((t) => t.problems.some((p) => p.code === 'FailedGetResourceMetric'));
    expect(failing.length).toBeGreaterThanOrEqual(2);
    const ledger = new ProblemLedger();
    const members = failing
      .slice(0, 2)
      .map((t, i) => ({ ...t, cluster: 'c', name: `m${i}`, id: toAutoscalerId('c', t.kind, t.namespace, `m${i}`) }));
    for (const a of members) ledger.add(a);
    const before = groupTallies([ledger.tally(NOW)]);
    expect(before).toEqual(groupProblems(members, NOW));
    const healed = { ...(members[1] as Autoscaler), problems: [] };
    ledger.remove(members[1] as Autoscaler);
    ledger.add(healed);
    expect(groupTallies([ledger.tally(NOW)])).toEqual(groupProblems([members[0] as Autoscaler, healed], NOW));
    for (const a of [members[0] as Autoscaler, healed]) ledger.remove(a);
    expect(groupTallies([ledger.tally(NOW)])).toEqual([]);
  });
});

describe('problemInGroup', () => {
  it('counts an autoscaler in exactly the groups groupProblems counts it in, with the problem it counts', () => {
    fc.assert(
      fc.property(fc.uniqueArray(autoscalerArb, { selector: (a) => a.id, maxLength: 30 }), nowArb, (autoscalers, now) => {
        const groups = groupProblems([...autoscalers].sort(byId), now, { sampleSize: 100 });
        for (const g of groups) {
          const members = autoscalers.filter((a) => problemInGroup(a, g.key));
          expect(members.map((a) => a.id).sort()).toEqual([...g.sampleIds].sort());
          for (const a of members) expect(problemInGroup(a, g.key)?.code).toBe(g.reason);
        }
        const keys = new Set(groups.map((g) => g.key));
        for (const a of autoscalers)
          for (const p of a.problems)
            if (p.severity !== 'info')
              expect(keys.has(`${a.kind}/${p.code}`) || [...keys].some((k) => k.startsWith(`${a.kind}/${p.code}/`))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
