import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Autoscaler, AutoscalerCondition } from '@/lib/api';
import { HistoryStore } from './history-store';

const id = 'prod/HorizontalPodAutoscaler/shop/web';

function hpa(conditions: Partial<AutoscalerCondition>[], extra: Partial<Autoscaler> = {}): Autoscaler {
  return {
    id,
    cluster: 'prod',
    kind: 'HorizontalPodAutoscaler',
    namespace: 'shop',
    name: 'web',
    uid: 'uid-1',
    target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' },
    minReplicas: 2,
    maxReplicas: 10,
    currentReplicas: 3,
    desiredReplicas: 3,
    conditions: conditions.map((c) => ({
      type: 'ScalingActive',
      status: 'True',
      reason: 'ValidMetricFound',
      message: 'ok',
      lastTransitionTime: null,
      meaning: 'ok',
      ...c,
    })),
    metrics: [],
    health: 'ok',
    problems: [],
    stale: false,
    createdAt: null,
    lastScaleTime: null,
    ...extra,
  };
}

const store = (dir: string): HistoryStore => new HistoryStore({ dataDir: dir, retentionDays: 30 });
const segments = (
  s: HistoryStore,
  type = 'ScalingActive',
): { status: string; reason: string | null; message: string | null; start: string; end: string | null }[] =>
  (
    s.history(id, 'HorizontalPodAutoscaler', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z').conditions.find((c) => c.type === type)
      ?.segments ?? []
  ).map(({ status, reason, message, start, end }) => ({ status, reason, message, start, end }));

describe('HistoryStore', () => {
  it('opens the first segment at the condition lastTransitionTime, not at first sight', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    expect(segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-20T08:00:00.000Z', end: null },
    ]);
    expect(s.conditionSince(id)).toEqual({ ScalingActive: '2026-11-20T08:00:00.000Z' });
    s.close();
  });

  it('records a status flip at its lastTransitionTime, a reason change at observation time, a message change in place', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    s.observe(
      hpa([
        {
          status: 'False',
          reason: 'FailedGetResourceMetric',
          message: 'a',
          lastTransitionTime: '2026-11-22T10:04:55Z',
          meaning: 'failing',
        },
      ]),
      '2026-11-22T10:05:00.000Z',
    );
    s.observe(
      hpa([
        {
          status: 'False',
          reason: 'FailedGetResourceMetric',
          message: 'b',
          lastTransitionTime: '2026-11-22T10:04:55Z',
          meaning: 'failing',
        },
      ]),
      '2026-11-22T10:06:00.000Z',
    );
    s.observe(
      hpa([{ status: 'False', reason: 'InvalidSelector', message: 'c', lastTransitionTime: '2026-11-22T10:04:55Z', meaning: 'failing' }]),
      '2026-11-22T10:07:00.000Z',
    );
    expect(segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-22T09:00:00.000Z', end: '2026-11-22T10:04:55.000Z' },
      {
        status: 'False',
        reason: 'FailedGetResourceMetric',
        message: 'b',
        start: '2026-11-22T10:04:55.000Z',
        end: '2026-11-22T10:07:00.000Z',
      },
      { status: 'False', reason: 'InvalidSelector', message: 'c', start: '2026-11-22T10:07:00.000Z', end: null },
    ]);
    s.close();
  });

  it('after a restart, records nothing twice and keeps what it knew', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hist-'));
    const first = store(dir);
    first.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    first.close();
    const second = store(dir);
    second.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T11:00:00.000Z');
    expect(second.countTransitions(id)).toBe(1);
    expect(second.firstSeen(id)).toBe('2026-11-22T10:00:00.000Z');
    expect(segments(second)).toHaveLength(1);
    second.close();
  });

  it('a recreated object (new uid) closes the old segments and opens new ones after them', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }], { uid: 'uid-2' }), '2026-11-22T12:00:00.000Z');
    expect(segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-20T08:00:00.000Z', end: '2026-11-22T12:00:00.000Z' },
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-22T12:00:00.000Z', end: null },
    ]);
    s.close();
  });

  it('samples replicas on change only and tracks since when desired differs from current', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{}]), '2026-11-22T10:00:15.000Z');
    s.observe(hpa([{}], { desiredReplicas: 5 }), '2026-11-22T10:00:30.000Z');
    s.observe(hpa([{}], { desiredReplicas: 5 }), '2026-11-22T10:00:45.000Z');
    expect(s.replicasMismatchSince(id)).toBe('2026-11-22T10:00:30.000Z');
    const { replicas } = s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(replicas.map((r) => [r.at, r.desired])).toEqual([
      ['2026-11-22T10:00:00.000Z', 3],
      ['2026-11-22T10:00:30.000Z', 5],
    ]);
    s.observe(hpa([{}], { desiredReplicas: 5, currentReplicas: 5 }), '2026-11-22T10:01:00.000Z');
    expect(s.replicasMismatchSince(id)).toBeNull();
    s.close();
  });
  it('marks status flips, changes of meaning and first sights notable, and AbleToScale=True reason churn not', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    const able = (reason: string): Partial<AutoscalerCondition> => ({ type: 'AbleToScale', status: 'True', reason, message: reason });
    const limited = (status: 'True' | 'False', reason: string): Partial<AutoscalerCondition> => ({
      type: 'ScalingLimited',
      status,
      reason,
      message: reason,
    });
    s.observe(hpa([able('ReadyForNewScale'), limited('False', 'DesiredWithinRange')]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([able('SucceededRescale'), limited('False', 'DesiredWithinRange')]), '2026-11-22T10:00:15.000Z');
    s.observe(hpa([able('ScaleDownStabilized'), limited('True', 'TooManyReplicas')]), '2026-11-22T10:00:30.000Z');
    s.observe(hpa([able('ScaleDownStabilized'), limited('True', 'TooFewReplicas')]), '2026-11-22T10:00:45.000Z');
    const all = s.latestTransitions(50);
    expect(all.map((t) => [t.type, t.reason, t.previous?.reason ?? null, t.notable])).toEqual([
      ['ScalingLimited', 'TooFewReplicas', 'TooManyReplicas', true], // degraded "at max" → ok "at min": the meaning changed
      ['ScalingLimited', 'TooManyReplicas', 'DesiredWithinRange', true], // a status flip
      ['AbleToScale', 'ScaleDownStabilized', 'SucceededRescale', false],
      ['AbleToScale', 'SucceededRescale', 'ReadyForNewScale', false],
      ['ScalingLimited', 'DesiredWithinRange', null, true], // first sights, in one observation: newest write first
      ['AbleToScale', 'ReadyForNewScale', null, true],
    ]);
    expect(all[0]?.previous).toEqual({ status: 'True', reason: 'TooManyReplicas', meaning: 'degraded' });
    expect(s.latestTransitions(50, undefined, true).map((t) => t.reason)).toEqual([
      'TooFewReplicas',
      'TooManyReplicas',
      'DesiredWithinRange',
      'ReadyForNewScale',
    ]);
    s.close();
  });

  it('migrates a version-1 database: earlier transitions learn what they replaced, notable when the status flipped', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hist-'));
    // The database as the first release wrote it: migration 1 only, three rows of one condition.
    const v1 = store(dir);
    v1.close();
    const db = new Database(path.join(dir, 'history.db'));
    db.exec(`DELETE FROM schema_migrations WHERE version > 1;
      CREATE TABLE t AS SELECT seq, id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since FROM condition_transitions;
      DROP TABLE condition_transitions; ALTER TABLE t RENAME TO condition_transitions;`);
    const insert =
      db.prepare(`INSERT INTO condition_transitions (seq, id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since)
      VALUES (?, '${id}', 'prod', 'HorizontalPodAutoscaler', 'shop', 'web', 'uid-1', 'ScalingActive', ?, ?, 'm', ?, ?)`);
    insert.run(1, 'True', 'ValidMetricFound', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z');
    insert.run(2, 'False', 'FailedGetResourceMetric', '2026-11-22T09:10:00.000Z', '2026-11-22T09:10:00.000Z');
    insert.run(3, 'False', 'InvalidSelector', '2026-11-22T09:20:00.000Z', '2026-11-22T09:20:00.000Z');
    db.exec(
      `INSERT INTO objects (id, cluster, kind, namespace, name, uid, first_seen) VALUES ('${id}', 'prod', 'HorizontalPodAutoscaler', 'shop', 'web', 'uid-1', '2026-11-22T09:00:00.000Z')`,
    );
    db.close();
    const s = store(dir);
    expect(s.latestTransitions(10).map((t) => [t.reason, t.previous?.reason ?? null, t.notable])).toEqual([
      ['InvalidSelector', 'FailedGetResourceMetric', false],
      ['FailedGetResourceMetric', 'ValidMetricFound', true],
      ['ValidMetricFound', null, true],
    ]);
    // The open segment was read back: observing the same state records nothing.
    s.observe(hpa([{ status: 'False', reason: 'InvalidSelector', message: 'm', meaning: 'failing' }]), '2026-11-22T10:00:00.000Z');
    expect(s.countTransitions(id)).toBe(3);
    s.close();
  });
  it('prunes what is older than the retention window but keeps each open segment and the last replica sample', () => {
    const s = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'hist-')), retentionDays: 30 });
    s.observe(
      hpa([
        { lastTransitionTime: '2026-09-01T00:00:00Z' },
        { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: '2026-09-01T00:00:00Z' },
      ]),
      '2026-09-01T00:00:00.000Z',
    );
    s.observe(
      hpa(
        [
          { status: 'False', reason: 'FailedGetResourceMetric', lastTransitionTime: '2026-09-02T00:00:00Z', meaning: 'failing' },
          { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' },
        ],
        { desiredReplicas: 4 },
      ),
      '2026-09-02T00:00:00.000Z',
    );
    s.observe(
      hpa(
        [
          { status: 'True', reason: 'ValidMetricFound', lastTransitionTime: '2026-11-21T00:00:00Z' },
          { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' },
        ],
        { desiredReplicas: 4 },
      ),
      '2026-11-21T00:00:00.000Z',
    );
    s.recordEvent(id, {
      uid: 'e-old',
      type: 'Warning',
      reason: 'FailedGetResourceMetric',
      message: 'old',
      count: 3,
      firstSeen: '2026-09-02T00:00:00Z',
      lastSeen: '2026-09-02T01:00:00Z',
      source: 'hpa',
      regarding: 'HorizontalPodAutoscaler/web',
    });
    s.recordEvent(id, {
      uid: 'e-new',
      type: 'Normal',
      reason: 'SuccessfulRescale',
      message: 'new',
      count: 1,
      firstSeen: '2026-11-21T00:00:00Z',
      lastSeen: '2026-11-21T00:00:00Z',
      source: 'hpa',
      regarding: 'HorizontalPodAutoscaler/web',
    });
    const goneId = 'prod/HorizontalPodAutoscaler/shop/gone';
    s.observe(hpa([{}], { id: goneId, name: 'gone', uid: 'uid-gone' }), '2026-09-01T00:00:00.000Z');
    s.observeDeleted(goneId, '2026-09-03T00:00:00.000Z');
    s.recordClusterState('prod', 'unreachable', '2026-09-05T00:00:00.000Z', 'connection refused');
    s.prune(new Date('2026-11-22T00:00:00Z'));
    // An object deleted before the window leaves nothing behind.
    expect(s.countTransitions(goneId)).toBe(0);
    // The cluster's outage began before the window and has not ended: still a gap.
    expect(s.history(id, 'HorizontalPodAutoscaler', '2026-11-01T00:00:00Z', '2026-11-22T00:00:00Z').gaps).toEqual([
      { start: '2026-09-05T00:00:00.000Z', end: null, state: 'unreachable' },
    ]);
    // ScalingActive: the September segments went, the November one stays; AbleToScale's only segment is open, so it stays.
    expect(segments(s).map((x) => x.reason)).toEqual(['ValidMetricFound']);
    expect(segments(s, 'AbleToScale').map((x) => [x.reason, x.start])).toEqual([['ReadyForNewScale', '2026-09-01T00:00:00.000Z']]);
    expect(s.events(id, 10).map((e) => e.uid)).toEqual(['e-new']);
    // The last sample before the window still tells the replicas at its start.
    const { replicas } = s.history(id, 'HorizontalPodAutoscaler', '2026-11-01T00:00:00Z', '2026-11-22T00:00:00Z');
    expect(replicas.map((r) => r.desired)).toEqual([4]);
    s.close();
  });

  it('keeps every AbleToScale=True reason change as its own segment (the stabilization window at work)', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    const able = (reason: string): Partial<AutoscalerCondition> => ({
      type: 'AbleToScale',
      status: 'True',
      reason,
      message: reason,
      lastTransitionTime: '2026-11-20T08:00:00Z',
    });
    const reasons = ['ReadyForNewScale', 'ScaleDownStabilized', 'SucceededRescale', 'ReadyForNewScale', 'ScaleDownStabilized'];
    reasons.forEach((r, i) => s.observe(hpa([able(r)]), `2026-11-22T10:0${i}:00.000Z`));
    expect(segments(s, 'AbleToScale').map((x) => [x.reason, x.start])).toEqual([
      ['ReadyForNewScale', '2026-11-20T08:00:00.000Z'],
      ['ScaleDownStabilized', '2026-11-22T10:01:00.000Z'],
      ['SucceededRescale', '2026-11-22T10:02:00.000Z'],
      ['ReadyForNewScale', '2026-11-22T10:03:00.000Z'],
      ['ScaleDownStabilized', '2026-11-22T10:04:00.000Z'],
    ]);
    // The since clock of AbleToScale=True is the reason's observation, not the status's lastTransitionTime.
    expect(s.conditionSince(id)).toEqual({ AbleToScale: '2026-11-22T10:04:00.000Z' });
    s.close();
  });

  it('after a gap: a status flip starts at its lastTransitionTime inside the gap, a reason change when first seen after it', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(
      hpa([
        { lastTransitionTime: '2026-11-22T09:00:00Z' },
        {
          type: 'ScalingLimited',
          status: 'True',
          reason: 'TooManyReplicas',
          lastTransitionTime: '2026-11-22T09:00:00Z',
          meaning: 'degraded',
        },
      ]),
      '2026-11-22T10:00:00.000Z',
    );
    s.recordClusterState('prod', 'unreachable', '2026-11-22T10:01:00.000Z', 'connection refused');
    s.recordClusterState('prod', 'synced', '2026-11-22T10:06:00.000Z', null);
    s.observe(
      hpa([
        { status: 'False', reason: 'FailedGetResourceMetric', lastTransitionTime: '2026-11-22T10:03:00Z', meaning: 'failing' },
        {
          type: 'ScalingLimited',
          status: 'True',
          reason: 'TooFewReplicas',
          lastTransitionTime: '2026-11-22T09:00:00Z',
          meaning: 'degraded',
        },
      ]),
      '2026-11-22T10:06:00.000Z',
    );
    const h = s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(h.gaps).toEqual([{ start: '2026-11-22T10:01:00.000Z', end: '2026-11-22T10:06:00.000Z', state: 'unreachable' }]);
    expect(segments(s).map((x) => [x.reason, x.start])).toEqual([
      ['ValidMetricFound', '2026-11-22T09:00:00.000Z'],
      ['FailedGetResourceMetric', '2026-11-22T10:03:00.000Z'],
    ]);
    expect(segments(s, 'ScalingLimited').map((x) => [x.reason, x.start])).toEqual([
      ['TooManyReplicas', '2026-11-22T09:00:00.000Z'],
      ['TooFewReplicas', '2026-11-22T10:06:00.000Z'],
    ]);
    s.close();
  });

  it('an outage dated back to its last answer is a gap even when a degraded spell was recorded after that time', () => {
    const s = store(mkdtempSync(path.join(os.tmpdir(), 'hist-')));
    s.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    s.recordClusterState('prod', 'degraded', '2026-11-22T10:01:05.000Z', '500');
    s.recordClusterState('prod', 'unreachable', '2026-11-22T10:01:00.000Z', '500');
    s.recordClusterState('prod', 'synced', '2026-11-22T10:03:00.000Z', null);
    expect(s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z').gaps).toEqual([
      { start: '2026-11-22T10:01:00.000Z', end: '2026-11-22T10:03:00.000Z', state: 'unreachable' },
    ]);
    s.close();
  });
});
