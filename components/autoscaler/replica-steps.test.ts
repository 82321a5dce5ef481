import { describe, expect, it } from 'vitest';
import { replicasAt, toReplicaSteps } from './replica-steps';

const t = (iso: string): number => Date.parse(iso);
const range = { from: t('2026-11-22T07:00:00Z'), to: t('2026-11-22T08:00:00Z') };

const samples = [
  { at: '2026-11-22T06:50:00Z', current: 3, desired: 3, min: 2, max: 12 },
  { at: '2026-11-22T07:10:00Z', current: 3, desired: 5, min: 2, max: 12 },
  { at: '2026-11-22T07:11:00Z', current: 5, desired: 5, min: 2, max: 12 },
];

describe('toReplicaSteps', () => {
  it('starts at from with the sample in force and carries the last one to now', () => {
    const points = toReplicaSteps(samples, range, t('2026-11-22T07:30:00Z'));
    expect(points.map((p) => [p.t, p.current, p.desired])).toEqual([
      [range.from, 3, 3],
      [t('2026-11-22T07:10:00Z'), 3, 5],
      [t('2026-11-22T07:11:00Z'), 5, 5],
      [t('2026-11-22T07:30:00Z'), 5, 5],
    ]);
    expect(points[0]?.band).toEqual([2, 12]);
  });

  it('replicasAt reads the step in force', () => {
    const points = toReplicaSteps(samples, range, t('2026-11-22T07:30:00Z'));
    expect(replicasAt(points, t('2026-11-22T07:10:30Z'))).toMatchObject({ current: 3, desired: 5 });
    expect(replicasAt(points, range.from - 1)).toBeNull();
  });

  it('no band without both bounds', () => {
    const points = toReplicaSteps([{ at: '2026-11-22T07:05:00Z', current: 1, desired: 1, min: null, max: 4 }], range, range.to);
    expect(points[0]?.band).toBeNull();
  });
});
