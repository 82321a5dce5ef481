import { describe, expect, it } from 'vitest';
import { HpaPreviewRequestSchema } from '@/lib/api';
import type { HpaForm, MetricSpec } from './hpa-state';
import { blankHpaForm, curveFactors, decodeRules, encodeRules, hpaFormParams, hpaIssueKey, hpaRequest, readHpaForm } from './hpa-state';

const metrics: MetricSpec[] = [
  { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
  { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '100' } } },
];

function roundTrip(form: HpaForm): HpaForm {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(hpaFormParams(form))) if (v !== null) params.set(k, v);
  return readHpaForm(new URLSearchParams(params.toString()));
}

describe('HPA form URL codec', () => {
  it('round-trips edits, behavior rules and a custom curve', () => {
    const form: HpaForm = {
      ...blankHpaForm('c/HorizontalPodAutoscaler/ns/x'),
      min: 1,
      max: 20,
      targets: { 1: '150m' },
      behavior: 'custom',
      up: { window: 0, select: 'Max', policies: [{ type: 'Pods', value: 4, period: 15 }] },
      down: { window: 300, select: 'Min', policies: [{ type: 'Percent', value: 10, period: 60 }] },
      load: 1.5,
      curve: 'custom',
      factors: '1, 2, 0.5',
    };
    expect(roundTrip(form)).toEqual(form);
    expect(decodeRules(encodeRules(form.up), form.down)).toEqual(form.up);
  });
});

describe('hpaRequest', () => {
  it('sends only what was edited, with the live metrics around an edited target', () => {
    const body = hpaRequest(
      { ...blankHpaForm(), id: 'c/HorizontalPodAutoscaler/ns/x', max: 20, targets: { 0: '50' }, curve: 'off' },
      metrics,
    );
    expect(HpaPreviewRequestSchema.parse(body)).toEqual({
      id: 'c/HorizontalPodAutoscaler/ns/x',
      changes: {
        maxReplicas: 20,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }, metrics[1]],
      },
    });
  });

  it('removes behavior for the legacy path and plays the chosen curve', () => {
    const body = hpaRequest(
      { ...blankHpaForm(), id: 'c/HorizontalPodAutoscaler/ns/x', behavior: 'none', curve: 'steady', syncs: 3, every: 30 },
      metrics,
    );
    expect(body.changes).toEqual({ behavior: null });
    expect(body.playback).toEqual({ factors: [1, 1, 1], intervalSeconds: 30 });
  });

  it('maps issue paths to the inputs', () => {
    expect(hpaIssueKey('changes.maxReplicas')).toBe('max');
    expect(hpaIssueKey('changes.metrics.1.pods.target.averageValue')).toBe('t1');
    expect(hpaIssueKey('changes.behavior.scaleDown.policies.0.value')).toBe('down');
    expect(hpaIssueKey('playback.factors.3')).toBe('factors');
    expect(hpaIssueKey('config.tolerance')).toBeNull();
  });
});

describe('curveFactors', () => {
  it('ramps from 1 to 2, spikes to 3 and drops to 0.3', () => {
    expect(curveFactors('ramp', 5, '')).toEqual([1, 1.25, 1.5, 1.75, 2]);
    expect(curveFactors('spike', 8, '')).toEqual([1, 1, 3, 1, 1, 1, 1, 1]);
    expect(curveFactors('drop', 4, '')).toEqual([1, 0.3, 0.3, 0.3]);
    expect(curveFactors('custom', 0, '1, 2;x 0.5')).toEqual([1, 2, 0.5]);
    expect(curveFactors('off', 10, '')).toEqual([]);
  });
});
