import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler } from '@/lib/k8s/types';
import { FRESH } from '@/lib/triage/__fixtures__/fleet';
import { NOT_EVALUATED_FAILING_SECONDS } from '@/lib/triage/health-rules';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';

// Objects shaped as real controllers wrote them. The condition texts are the upstream strings:
// pre-1.12 from horizontal.go v1.9–v1.11 (reconcileAutoscaler / normalizeDesiredReplicas), current from
// horizontal.go v1.31 (reconcileAutoscaler, computeReplicasForMetrics).

const NOW = '2026-11-20T12:00:00Z';
const NOW_MS = Date.parse(NOW);
const ago = (seconds: number): string => new Date(NOW_MS - seconds * 1000).toISOString().replace('.000Z', 'Z');

type Cond = [type: string, status: string, reason: string, message: string];

function preV112(name: string, conditions: Cond[], replicas: { current: number; desired: number; max: number }): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: '2018-03-01T09:00:00Z' },
    spec: {
      scaleTargetRef: { apiVersion: 'extensions/v1beta1', kind: 'Deployment', name },
      minReplicas: 1,
      maxReplicas: replicas.max,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    },
    status: {
      lastScaleTime: ago(60),
      currentReplicas: replicas.current,
      desiredReplicas: replicas.desired,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 187, averageValue: '374m' } } }],
      conditions: conditions.map(([type, status, reason, message]) => ({ type, status, reason, message, lastTransitionTime: ago(60) })),
    },
  };
}

const VALID: Cond = [
  'ScalingActive',
  'True',
  'ValidMetricFound',
  'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
];
const WITHIN: Cond = ['ScalingLimited', 'False', 'DesiredWithinRange', 'the desired replica count is within the acceptible range'];
const BACKOFF: Record<string, Cond> = {
  BackoffBoth: [
    'AbleToScale',
    'False',
    'BackoffBoth',
    'the time since the previous scale is still within both the downscale and upscale forbidden windows',
  ],
  BackoffDownscale: [
    'AbleToScale',
    'False',
    'BackoffDownscale',
    'the time since the previous scale is still within the downscale forbidden window',
  ],
  BackoffUpscale: [
    'AbleToScale',
    'False',
    'BackoffUpscale',
    'the time since the previous scale is still within the upscale forbidden window',
  ],
};

describe('AbleToScale=False Backoff* (controllers before v1.12) is an expected wait', () => {
  it.each(Object.keys(BACKOFF))('%s alone: ok, with an informational note, the condition green', (reason) => {
    const a = toHpaAutoscaler(
      'old',
      preV112('web', [BACKOFF[reason] as Cond, VALID, WITHIN], { current: 3, desired: 3, max: 10 }),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('ok');
    expect(a.problems.map((p) => [p.code, p.severity])).toEqual([[reason, 'info']]);
    expect(a.conditions.find((c) => c.type === 'AbleToScale')?.meaning).toBe('ok');
    expect(a.problems[0]?.hint).toContain('clears by itself');
  });

  it.each(Object.keys(BACKOFF))('%s does not outrank a pinned-at-max HPA: degraded/TooManyReplicas first', (reason) => {
    const pinned: Cond = ['ScalingLimited', 'True', 'TooManyReplicas', 'the desired replica count was more than the maximum replica count'];
    const a = toHpaAutoscaler(
      'old',
      preV112('web', [BACKOFF[reason] as Cond, VALID, pinned], { current: 10, desired: 10, max: 10 }),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('degraded');
    expect(a.problems.map((p) => p.code)).toEqual(['TooManyReplicas', reason]);
  });

  it('a real failure on the same HPA still fails (Backoff with ScalingActive=False FailedGetResourceMetric)', () => {
    const failed: Cond = [
      'ScalingActive',
      'False',
      'FailedGetResourceMetric',
      'the HPA was unable to compute the replica count: unable to get metrics for resource cpu: no metrics returned from heapster',
    ];
    const a = toHpaAutoscaler(
      'old',
      preV112('web', [BACKOFF.BackoffBoth as Cond, failed, WITHIN], { current: 2, desired: 2, max: 10 }),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('failing');
    expect(a.problems.map((p) => p.code)).toEqual(['FailedGetResourceMetric', 'BackoffBoth']);
  });
});

describe('the reason decides, never the message', () => {
  it('TooFewReplicas with the "more than the maximum" message an old controller wrote is held at min: ok, nothing said about a maximum', () => {
    const mismatched: Cond = [
      'ScalingLimited',
      'True',
      'TooFewReplicas',
      'the desired replica count is more than the maximum replica count',
    ];
    const a = toHpaAutoscaler(
      'old',
      preV112(
        'web',
        [
          ['AbleToScale', 'True', 'ReadyForNewScale', 'the last scale time was sufficiently old as to warrant a new scale'],
          VALID,
          mismatched,
        ],
        { current: 1, desired: 1, max: 10 },
      ),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('ok');
    expect(a.problems).toEqual([]);
    expect(a.conditions.find((c) => c.type === 'ScalingLimited')?.meaning).toBe('ok');
  });

  it('TooManyReplicas with the "less than the minimum" message is at max: degraded, the hint speaks of maxReplicas', () => {
    const mismatched: Cond = [
      'ScalingLimited',
      'True',
      'TooManyReplicas',
      'the desired replica count is less than the minimum replica count',
    ];
    const a = toHpaAutoscaler(
      'old',
      preV112('web', [['AbleToScale', 'True', 'ReadyForNewScale', 'x'], VALID, mismatched], { current: 10, desired: 10, max: 10 }),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('degraded');
    expect(a.problems[0]).toMatchObject({ code: 'TooManyReplicas', title: 'At maxReplicas' });
    expect(a.problems[0]?.hint).toContain('maxReplicas (10)');
    expect(a.problems[0]?.hint).not.toContain('minimum');
  });
});

/** A new HPA as `kubectl get -o json` shows it after the controller's first sync read the scale but no metric yet. */
function newHpa(createdSecondsAgo: number, ableToScale: Cond): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'php-apache', namespace: 'default', uid: 'uid-new', creationTimestamp: ago(createdSecondsAgo) },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'php-apache' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    },
    status: {
      currentReplicas: 1,
      desiredReplicas: 0,
      currentMetrics: null,
      conditions: [
        {
          type: ableToScale[0],
          status: ableToScale[1],
          reason: ableToScale[2],
          message: ableToScale[3],
          lastTransitionTime: ago(Math.min(createdSecondsAgo, 10)),
        },
      ],
    },
  };
}

const GOT_SCALE: Cond = ['AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale"];

describe('AbleToScale without ScalingActive: not evaluated yet', () => {
  it('a new HPA is unknown, with a "not evaluated yet" note, its since the creation', () => {
    const a = toHpaAutoscaler('c', newHpa(20, GOT_SCALE), FRESH, NOW);
    expect(a.health).toBe('unknown');
    expect(a.problems).toHaveLength(1);
    expect(a.problems[0]).toMatchObject({ code: 'ScalingNotEvaluated', severity: 'unknown', title: 'Not evaluated yet', since: ago(20) });
    expect(a.problems[0]?.message).toContain('not evaluated yet');
  });

  it(`is unknown just below ${NOT_EVALUATED_FAILING_SECONDS} s of age and failing from there on`, () => {
    expect(toHpaAutoscaler('c', newHpa(NOT_EVALUATED_FAILING_SECONDS - 1, GOT_SCALE), FRESH, NOW).health).toBe('unknown');
    const stuck = toHpaAutoscaler('c', newHpa(NOT_EVALUATED_FAILING_SECONDS, GOT_SCALE), FRESH, NOW);
    expect(stuck.health).toBe('failing');
    expect(stuck.problems[0]).toMatchObject({ code: 'ScalingNotEvaluated', severity: 'error' });
  });

  it('an HPA months old that only ever shows AbleToScale is failing', () => {
    const a = toHpaAutoscaler(
      'c',
      newHpa(90 * 86400, ['AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 2']),
      FRESH,
      NOW,
    );
    expect(a.health).toBe('failing');
    expect(a.problems[0]?.message).toContain('never computed a replica count');
  });

  it('without a creationTimestamp the age is unknown, so is the verdict', () => {
    const h = newHpa(3600, GOT_SCALE);
    delete h.metadata.creationTimestamp;
    expect(toHpaAutoscaler('c', h, FRESH, NOW).health).toBe('unknown');
  });

  it('an AbleToScale=False that stops the sync before the metrics is the problem, not the missing ScalingActive', () => {
    const a = toHpaAutoscaler(
      'c',
      newHpa(3600, [
        'AbleToScale',
        'False',
        'FailedGetScale',
        'the HPA controller was unable to get the target\'s current scale: deployments.apps "php-apache" not found',
      ]),
      FRESH,
      NOW,
    );
    expect(a.problems.map((p) => p.code)).toEqual(['FailedGetScale']);
  });
});
