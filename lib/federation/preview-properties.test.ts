import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { SeedPolicy } from '@/lib/api/federation';
import { previewInitialAssignment } from '@/lib/federation/preview-initial-assignment';
import { previewPeriodOptimization } from '@/lib/federation/preview-period-optimization';
import { previewScaleToZero } from '@/lib/federation/preview-scale-to-zero';
import { previewScaleUp } from '@/lib/federation/preview-scale-up';
import { previewTriggerOptimization } from '@/lib/federation/preview-trigger-optimization';

const policies: SeedPolicy[] = ['Duplicated', 'Aggregated', 'StaticWeighted', 'DynamicWeighted', 'Prioritized'];
const policy = fc.constantFrom(...policies);

const cluster = fc.record(
  {
    prevReplicas: fc.integer({ min: 0, max: 30 }),
    availableReplicas: fc.integer({ min: 0, max: 40 }),
    staticWeight: fc.integer({ min: 0, max: 9 }),
    priority: fc.integer({ min: -3, max: 5 }),
  },
  { requiredKeys: [] },
);
const clusters = fc.array(cluster, { minLength: 1, maxLength: 8 }).map((list) => list.map((c, i) => ({ name: `member${i + 1}`, ...c })));

describe('preview invariants (fast-check)', () => {
  it('initial assignment: every HPA has 1 ≤ minReplicas ≤ maxReplicas, and Σ binding ≥ federatedMin', () => {
    fc.assert(
      fc.property(
        policy,
        clusters,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.boolean(),
        (p, cs, fmin, extra, scaleToZero) => {
          const result = previewInitialAssignment({
            policy: p,
            federatedMinReplicas: fmin,
            federatedMaxReplicas: fmin + extra,
            scaleToZero,
            clusters: cs,
          });
          for (const bounds of Object.values(result.hpa)) {
            expect(bounds.minReplicas).toBeGreaterThanOrEqual(1);
            expect(bounds.minReplicas).toBeLessThanOrEqual(bounds.maxReplicas);
          }
          // Every selected cluster is either in the binding or excluded, never both.
          const bound = result.resourceBinding.map((c) => c.name);
          expect([...bound, ...result.excludedClusters].sort()).toEqual(cs.map((c) => c.name).sort());
          for (const entry of result.resourceBinding) {
            const hpa = result.hpa[entry.name];
            expect(hpa).toBeDefined();
            if (hpa && entry.replicas > 0) {
              expect(entry.replicas).toBeGreaterThanOrEqual(hpa.minReplicas);
              expect(entry.replicas).toBeLessThanOrEqual(hpa.maxReplicas);
            }
          }
          // Capacity allows whenever at least one cluster gets an HPA.
          if (bound.length > 0) {
            expect(result.resourceBinding.reduce((sum, c) => sum + c.replicas, 0)).toBeGreaterThanOrEqual(fmin);
          }
        },
      ),
    );
  });

  it('initial assignment: the max split sums to federatedMax for divided policies', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<SeedPolicy>('Aggregated', 'StaticWeighted', 'DynamicWeighted', 'Prioritized'),
        clusters,
        fc.integer({ min: 1, max: 50 }),
        (p, cs, fmax) => {
          const result = previewInitialAssignment({ policy: p, federatedMinReplicas: 1, federatedMaxReplicas: fmax, clusters: cs });
          expect(Object.values(result.hpa).reduce((sum, b) => sum + b.maxReplicas, 0)).toBe(fmax);
        },
      ),
    );
  });

  it("scale-up never exceeds a cluster's room and accounts for every replica of the deficit", () => {
    const eligible = fc
      .array(
        fc.record({
          currentReplicas: fc.integer({ min: 0, max: 20 }),
          maxReplicas: fc.integer({ min: 0, max: 30 }),
          availableReplicas: fc.integer({ min: 0, max: 20 }),
          staticWeight: fc.integer({ min: 0, max: 5 }),
          priority: fc.integer({ min: 0, max: 3 }),
        }),
        { maxLength: 6 },
      )
      .map((list) => list.map((c, i) => ({ name: `c${i}`, ...c })));
    fc.assert(
      fc.property(policy, eligible, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 400 }), (p, cs, current, utilization) => {
        const result = previewScaleUp({
          policy: p,
          targetUtilization: 50,
          blockedCluster: { name: 'blocked', currentReplicas: current, maxReplicas: current, currentUtilization: utilization },
          eligibleClusters: cs,
        });
        let placed = 0;
        for (const c of cs) {
          const inc = result.increments[c.name] ?? -1;
          const room = Math.max(0, c.maxReplicas - c.currentReplicas);
          expect(inc).toBeGreaterThanOrEqual(0);
          expect(inc).toBeLessThanOrEqual(p === 'StaticWeighted' ? room : Math.min(room, c.availableReplicas));
          placed += inc;
        }
        expect(placed + result.unplaced).toBe(result.deficit);
      }),
    );
  });

  it('period and trigger optimization keep Σmax and never set a max below the current count', () => {
    const opt = fc
      .array(
        fc.record({
          currentReplicas: fc.integer({ min: 0, max: 20 }),
          headroom: fc.integer({ min: 0, max: 10 }),
          staticWeight: fc.integer({ min: 0, max: 4 }),
          availableReplicas: fc.integer({ min: 0, max: 10 }),
          priority: fc.integer({ min: 0, max: 3 }),
        }),
        { minLength: 1, maxLength: 6 },
      )
      .map((list) => list.map(({ headroom, ...c }, i) => ({ name: `c${i}`, ...c, maxReplicas: c.currentReplicas + headroom })));
    fc.assert(
      fc.property(fc.constantFrom<SeedPolicy>('Aggregated', 'StaticWeighted', 'DynamicWeighted', 'Prioritized'), opt, (p, cs) => {
        const period = previewPeriodOptimization({ policy: p, clusters: cs });
        expect(Object.values(period.newMax).reduce((a, b) => a + b, 0)).toBe(cs.reduce((a, c) => a + c.maxReplicas, 0));
        for (const c of cs) expect(period.newMax[c.name] ?? -1).toBeGreaterThanOrEqual(c.currentReplicas);

        const [blocked, ...others] = cs;
        if (!blocked) return;
        const trigger = previewTriggerOptimization({
          policy: p,
          blockedCluster: { ...blocked, pendingReplicas: Math.floor(blocked.currentReplicas / 2) },
          otherClusters: others,
        });
        expect(trigger.sumMaxAfter).toBe(trigger.sumMaxBefore);
        expect(trigger.blockedNewMax).toBeLessThanOrEqual(blocked.maxReplicas);
      }),
    );
  });

  it('scale to zero keeps Σ replicas ≥ federatedMin when it started there', () => {
    const zero = fc
      .array(
        fc.record({
          replicas: fc.integer({ min: 1, max: 6 }),
          staticWeight: fc.integer({ min: 0, max: 4 }),
          priority: fc.integer({ min: 0, max: 3 }),
          availableReplicas: fc.integer({ min: 0, max: 9 }),
        }),
        {
          minLength: 1,
          maxLength: 6,
        },
      )
      .map((list) => list.map((c, i) => ({ name: `c${i}`, minReplicas: 1, ...c })));
    fc.assert(
      fc.property(policy, zero, fc.integer({ min: 1, max: 10 }), (p, cs, fmin) => {
        const total = cs.reduce((a, c) => a + c.replicas, 0);
        const result = previewScaleToZero({ policy: p, federatedMinReplicas: fmin, clusters: cs });
        const after = result.resourceBinding.reduce((a, c) => a + c.replicas, 0);
        if (total >= fmin) expect(after).toBeGreaterThanOrEqual(fmin);
        else expect(result.zeroed).toEqual([]);
      }),
    );
  });
});
