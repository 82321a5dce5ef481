import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api/autoscaler';
import { EU, federatedAutoscalers, FRESH, hpas, machineAutoscalers, NOW, OCP, STAGING, US } from '@/lib/triage/__fixtures__/fleet';
import { withStale } from '@/lib/triage/autoscaler-base';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

// V8's own test for "same hidden class"; the flag applies to code compiled after it is set.
v8.setFlagsFromString('--allow-natives-syntax');
// (A script, not TypeScript: the `%` syntax is V8's alone.)
const sameHiddenClass = vm.runInThisContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many of `dtos` have a hidden class other than the first's. */
function otherHiddenClasses(dtos: readonly Autoscaler[]): number {
  const [first, ...rest] = dtos;
  if (!first) throw new Error('no DTOs');
  return rest.filter((d) => !sameHiddenClass(first, d)).length;
}

describe('every DTO of a kind shares one hidden class (memory: a class of its own is ~0.9 KiB a DTO on Node 20)', () => {
  it('HorizontalPodAutoscalers, once the mapper runs optimised, and their stale copies', () => {
    const fixtures = [EU, US, STAGING].flatMap((cluster) => hpas(cluster).map((h) => [cluster, h] as const));
    // Enough calls for V8 to optimise the mapper: a spread then more properties gave each object its own map
    // only in optimised code, so the first few DTOs would share one either way.
    let last: Autoscaler[] = [];
    for (let round = 0; round < 400; round++) last = fixtures.map(([cluster, h]) => toHpaAutoscaler(cluster, h, FRESH, NOW));
    expect(last.length).toBeGreaterThan(10);
    expect(otherHiddenClasses(last)).toBe(0);
    const stale = last.map((d) => withStale(d, true));
    expect(otherHiddenClasses([last[0]!, ...stale])).toBe(0);
    expect(stale.every((d, i) => d.stale && d !== last[i] && JSON.stringify({ ...d, stale: false }) === JSON.stringify(last[i]))).toBe(
      true,
    );
  });

  it('MachineAutoscalers and FederatedHPAs, each kind with its details, stale copies keeping them', () => {
    for (const map of [() => machineAutoscalers(OCP), () => federatedAutoscalers()]) {
      let last: Autoscaler[] = [];
      for (let round = 0; round < 300; round++) last = map();
      expect(last.length).toBeGreaterThan(2);
      expect(otherHiddenClasses(last)).toBe(0);
      const stale = last.map((d) => withStale(d, true));
      expect(stale.every((d, i) => d.machine === last[i]!.machine && d.federation === last[i]!.federation)).toBe(true);
    }
  });
});
