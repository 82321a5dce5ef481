import type { AppSpec } from './scenario';

/** A deterministic PRNG (mulberry32): the same scenario plays the same way every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/**
 * The load curve of a workload: the fraction (0..~1.3) of its peak demand at a story minute within
 * the cycle. `phase` spreads workloads so they do not all peak together.
 */
export function loadFactor(curve: AppSpec['load'], minute: number, cycleMinutes: number, phase: number): number {
  const t = (((minute / cycleMinutes + phase) % 1) + 1) % 1;
  switch (curve) {
    case 'flat':
      return 0.6;
    case 'steady':
      return 0.6 + 0.05 * Math.sin(2 * Math.PI * (t * 3));
    case 'diurnal':
      return 0.55 + 0.4 * Math.sin(2 * Math.PI * t);
    case 'spiky':
      return 0.4 + (t % 0.25 < 0.05 ? 0.8 : 0.05 * Math.sin(2 * Math.PI * t * 8));
    case 'saturating':
      // Climbs past what maxReplicas can serve, and stays there: ScalingLimited=True/TooManyReplicas.
      return Math.min(1.6, 0.9 + t * 1.5);
    case 'drop':
      // High for the first third of the cycle, then falls: ScaleDownStabilized while the window holds.
      return t < 0.33 ? 1 : 0.2;
    case 'idle':
      return 0.05;
  }
}
