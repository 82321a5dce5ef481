import { describe, expect, it } from 'vitest';
import type { ConditionSegment } from '@/lib/api';
import { coalesceSlivers, laneOrder, toLanePieces } from './timeline-model';

const t = (iso: string): number => Date.parse(iso);
const range = { from: t('2026-11-22T06:00:00Z'), to: t('2026-11-22T08:00:00Z') };
const now = t('2026-11-22T07:40:00Z');

// As /history answers for prod-us-east-1/HorizontalPodAutoscaler/shop/checkout during the metrics outage.
const ok: ConditionSegment = {
  status: 'True',
  reason: 'ValidMetricFound',
  message: 'the HPA was able to successfully calculate a replica count',
  meaning: 'ok',
  start: '2026-11-22T00:33:07Z',
  end: '2026-11-22T07:33:19Z',
};
const failing: ConditionSegment = {
  status: 'False',
  reason: 'FailedGetResourceMetric',
  message: 'failed to get cpu utilization',
  meaning: 'failing',
  start: '2026-11-22T07:33:19Z',
  end: null,
};

describe('laneOrder', () => {
  it('keeps the fixed order and appends other types by name', () => {
    expect(laneOrder('HorizontalPodAutoscaler', ['ScalingLimited', 'ScaledToZero', 'AbleToScale'])).toEqual([
      'AbleToScale',
      'ScalingActive',
      'ScalingLimited',
      'ScaledToZero',
    ]);
    expect(laneOrder('MachineAutoscaler', [])).toEqual(['Ready']);
  });
});

describe('toLanePieces', () => {
  it('clips segments to the range and ends the open one at now', () => {
    const pieces = toLanePieces([ok, failing], [], '2026-11-22T07:33:20Z', range, now);
    expect(pieces.map((p) => [p.kind, p.start, p.end])).toEqual([
      ['state', range.from, t('2026-11-22T07:33:19Z')],
      ['state', t('2026-11-22T07:33:19Z'), now],
    ]);
    expect(pieces[1]).toMatchObject({ kind: 'state', open: true, segment: { reason: 'FailedGetResourceMetric' } });
  });

  it('draws the time before the first segment as unknown, split at firstSeen', () => {
    const pieces = toLanePieces([failing], [], '2026-11-22T07:00:00Z', range, now);
    expect(pieces.map((p) => (p.kind === 'unknown' ? [p.cause, p.start, p.end] : ['state', p.start, p.end]))).toEqual([
      ['before-first-seen', range.from, t('2026-11-22T07:00:00Z')],
      ['not-reported', t('2026-11-22T07:00:00Z'), t('2026-11-22T07:33:19Z')],
      ['state', t('2026-11-22T07:33:19Z'), now],
    ]);
  });

  it('cuts a gap out of the neighbouring state instead of extending it', () => {
    const gaps = [{ start: '2026-11-22T07:00:00Z', end: '2026-11-22T07:10:00Z', state: 'unreachable' as const }];
    const pieces = toLanePieces([ok, failing], gaps, '2026-11-22T05:00:00Z', range, now);
    expect(pieces.map((p) => (p.kind === 'state' ? p.segment.reason : p.kind === 'unknown' ? p.cause : 'cluster'))).toEqual([
      'ValidMetricFound',
      'unreachable',
      'ValidMetricFound',
      'FailedGetResourceMetric',
    ]);
    expect(pieces[1]).toMatchObject({ start: t('2026-11-22T07:00:00Z'), end: t('2026-11-22T07:10:00Z') });
    expect(pieces[0]).toMatchObject({ end: t('2026-11-22T07:00:00Z') });
  });

  it('an open gap runs to now', () => {
    const gaps = [{ start: '2026-11-22T07:35:00Z', end: null, state: 'unreachable' as const }];
    const pieces = toLanePieces([ok, failing], gaps, '2026-11-22T05:00:00Z', range, now);
    expect(pieces[pieces.length - 1]).toMatchObject({ kind: 'unknown', cause: 'unreachable', start: t('2026-11-22T07:35:00Z'), end: now });
  });

  it('a lane without segments is unknown end to end', () => {
    expect(toLanePieces([], [], null, range, now)).toEqual([{ kind: 'unknown', start: range.from, end: now, cause: 'before-first-seen' }]);
  });

  it('nothing for a range entirely in the future', () => {
    expect(toLanePieces([ok], [], null, { from: now + 1, to: now + 1000 }, now)).toEqual([]);
  });
});

describe('coalesceSlivers', () => {
  const seg = (meaning: ConditionSegment['meaning'], reason: string): ConditionSegment => ({
    status: meaning === 'ok' ? 'True' : 'False',
    reason,
    message: null,
    meaning,
    start: '',
    end: '',
  });
  const span = 1_000_000;
  it('merges a run of slivers into one piece coloured by the worst, keeping wide pieces and short runs', () => {
    const pieces = [
      { kind: 'state' as const, start: 0, end: 500_000, open: false, segment: seg('ok', 'ValidMetricFound') },
      { kind: 'state' as const, start: 500_000, end: 501_000, open: false, segment: seg('failing', 'FailedGetResourceMetric') },
      { kind: 'state' as const, start: 501_000, end: 502_000, open: false, segment: seg('ok', 'ValidMetricFound') },
      { kind: 'state' as const, start: 502_000, end: 503_000, open: false, segment: seg('failing', 'FailedGetResourceMetric') },
      { kind: 'unknown' as const, start: 503_000, end: 504_000, cause: 'unreachable' as const },
      { kind: 'state' as const, start: 504_000, end: 505_000, open: false, segment: seg('ok', 'ValidMetricFound') },
    ];
    const out = coalesceSlivers(pieces, span);
    expect(out.map((p) => p.kind)).toEqual(['state', 'cluster', 'unknown', 'state']);
    expect(out[1]).toEqual({
      kind: 'cluster',
      start: 500_000,
      end: 503_000,
      count: 3,
      worst: 'failing',
      reasons: ['False FailedGetResourceMetric', 'True ValidMetricFound'],
    });
  });
});
