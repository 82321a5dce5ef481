import { describe, expect, it } from 'vitest';
import { conditionSince } from './condition-since';

describe('conditionSince', () => {
  const seg = { start: '2026-11-20T08:00:00.000Z', reasonSince: '2026-11-22T10:00:00.000Z' };
  it.each([
    ['AbleToScale', 'True', seg.reasonSince, 'routine reason churn: the reason is dated by its observation'],
    ['AbleToScale', 'False', seg.start, 'a failure to scale is a status flip: lastTransitionTime dates it'],
    ['ScalingActive', 'False', seg.start, 'the status carries the meaning'],
    ['ScalingLimited', 'True', seg.start, 'the status carries the meaning'],
    ['Ready', 'False', seg.start, 'MachineAutoscaler conditions: the status carries the meaning'],
  ])('%s=%s → %s (%s)', (type, status, expected) => {
    expect(conditionSince({ type, status, ...seg })).toBe(expected);
  });
});
