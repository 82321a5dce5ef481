import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteFile } from '../store/sqlite';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Autoscaler, AutoscalerCondition } from '@/lib/api';
import { ClusterOwnership } from '@/server/store/postgres/cluster-ownership';
import { PostgresStore } from '@/server/store/postgres/postgres-store';
import { startPostgres, type TestPostgres } from '@/test/support/postgres';
import { HistoryStore } from './history-store';
import type { AutoscopeStore } from './store';

/**
 * One behavioural suite for both stores: SQLite (embedded, the default) and PostgreSQL (a real server, a
 * throwaway database per test). Each test opens a store; `reopen` closes it and opens another on the same data,
 * as a restarted process would.
 */
interface Backend {
  name: string;
  open(): Promise<AutoscopeStore>;
  reopen(store: AutoscopeStore): Promise<AutoscopeStore>;
}

const sqliteStore = (dir: string, writerThread = false): HistoryStore =>
  new HistoryStore({ dataDir: dir, retentionDays: 30, writerThread });
const sqliteDirs = new WeakMap<AutoscopeStore, string>();
/** SQLite writing on the event loop (what tests use) or from its writer thread (what the server runs). */
const sqliteBackend = (name: string, writerThread: boolean): Backend => ({
  name,
  open() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hist-'));
    const s = sqliteStore(dir, writerThread);
    sqliteDirs.set(s, dir);
    return Promise.resolve(s);
  },
  async reopen(store) {
    const dir = sqliteDirs.get(store);
    if (!dir) throw new Error('not a store this backend opened');
    await store.close();
    const s = sqliteStore(dir, writerThread);
    sqliteDirs.set(s, dir);
    return s;
  },
});
const sqlite = sqliteBackend('SQLite', false);
const sqliteWriterThread = sqliteBackend('SQLite with its writer thread', true);

let server: TestPostgres | undefined;
const pools: pg.Pool[] = [];
let databases = 0;
const pgOpen = new WeakMap<AutoscopeStore, { url: string; ownership: ClusterOwnership }>();

/** A PostgresStore on `url` whose process owns cluster "prod" (a real lease, so every row passes the fence check). */
async function postgresStore(url: string): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pools.push(pool);
  const ownership = new ClusterOwnership({
    pool,
    replicaId: `test-${databases}-${Math.random().toString(36).slice(2)}`,
    clusters: ['prod'],
    leaseMs: 30_000,
    renewMs: 10_000,
    onAcquire: () => undefined,
    onRelease: () => undefined,
  });
  const store = await PostgresStore.open({ pool, retentionDays: 30, fenceOf: (cluster) => ownership.ownedClusters().get(cluster) });
  await ownership.start();
  expect([...ownership.ownedClusters().keys()]).toEqual(['prod']);
  await store.adopt('prod');
  pgOpen.set(store, { url, ownership });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await ownership.stop();
  };
  return store;
}

const postgres: Backend = {
  name: 'PostgreSQL',
  async open() {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    return postgresStore(server.createDatabase(`hist_${++databases}`));
  },
  async reopen(store) {
    const open = pgOpen.get(store);
    if (!open) throw new Error('not a store this backend opened');
    await store.close();
    return postgresStore(open.url);
  },
};

const backends = [sqlite, sqliteWriterThread, postgres];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  server?.stop();
});

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

const segments = async (
  s: AutoscopeStore,
  type = 'ScalingActive',
): Promise<{ status: string; reason: string | null; message: string | null; start: string; end: string | null }[]> =>
  (
    (await s.history(id, 'HorizontalPodAutoscaler', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z')).conditions.find((c) => c.type === type)
      ?.segments ?? []
  ).map(({ status, reason, message, start, end }) => ({ status, reason, message, start, end }));

describe.each(backends)('history on $name', (backend) => {
  it('opens the first segment at the condition lastTransitionTime, not at first sight', async () => {
    const s = await backend.open();
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    expect(await segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-20T08:00:00.000Z', end: null },
    ]);
    expect(s.conditionSince(id)).toEqual({ ScalingActive: '2026-11-20T08:00:00.000Z' });
    await s.close();
  });

  it('records a status flip at its lastTransitionTime, a reason change at observation time, a message change in place', async () => {
    const s = await backend.open();
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
    expect(await segments(s)).toEqual([
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
    await s.close();
  });

  it('a message change after its transition was written updates the stored segment, and only that one', async () => {
    const s = await backend.open();
    s.observe(hpa([{ message: 'first' }]), '2026-11-22T10:00:00.000Z');
    await s.flush();
    s.observe(hpa([{ status: 'False', reason: 'FailedGetResourceMetric', message: 'a', meaning: 'failing' }]), '2026-11-22T10:01:00.000Z');
    await s.flush();
    s.observe(hpa([{ status: 'False', reason: 'FailedGetResourceMetric', message: 'b', meaning: 'failing' }]), '2026-11-22T10:02:00.000Z');
    expect((await segments(s)).map((x) => x.message)).toEqual(['first', 'b']);
    // And after a restart the open segment's message is what it was last.
    const again = await backend.reopen(s);
    again.observe(
      hpa([{ status: 'False', reason: 'FailedGetResourceMetric', message: 'b', meaning: 'failing' }]),
      '2026-11-22T10:03:00.000Z',
    );
    expect(await again.countTransitions(id)).toBe(2);
    await again.close();
  });

  it('keeps any number of condition types open: a fifth flips, changes its message, and is read back after a restart', async () => {
    // Named to come last in any order a store reads them back in: the fourth and fifth are kept past the first three.
    const types = ['AbleToScale', 'ScalingActive', 'ScalingLimited', 'VendorFourth', 'VendorFifth'];
    const all = (fifth: Partial<AutoscalerCondition>) =>
      hpa(types.map((type) => ({ type, lastTransitionTime: '2026-11-22T09:00:00Z', ...(type === 'VendorFifth' ? fifth : {}) })));
    const s = await backend.open();
    s.observe(all({}), '2026-11-22T10:00:00.000Z');
    s.observe(
      all({ status: 'False', reason: 'Broken', message: 'a', lastTransitionTime: '2026-11-22T10:04:00Z' }),
      '2026-11-22T10:05:00.000Z',
    );
    s.observe(
      all({ status: 'False', reason: 'Broken', message: 'b', lastTransitionTime: '2026-11-22T10:04:00Z' }),
      '2026-11-22T10:06:00.000Z',
    );
    const again = await backend.reopen(s);
    // Nothing changed: nothing recorded. Then the fourth flips.
    again.observe(
      all({ status: 'False', reason: 'Broken', message: 'b', lastTransitionTime: '2026-11-22T10:04:00Z' }),
      '2026-11-22T10:07:00.000Z',
    );
    expect(await again.countTransitions(id)).toBe(6);
    // Seen first at 10:00 with a lastTransitionTime of 09:00: its segment starts at 09:00, its reason is known since
    // 10:00; AbleToScale=True dates from the reason, any other condition from the start (conditionSince).
    expect(again.conditionSince(id)).toMatchObject({ AbleToScale: '2026-11-22T10:00:00.000Z', VendorFourth: '2026-11-22T09:00:00.000Z' });
    again.observe(
      hpa(
        types.map((type) => ({
          type,
          lastTransitionTime: '2026-11-22T09:00:00Z',
          ...(type === 'VendorFifth'
            ? { status: 'False' as const, reason: 'Broken', message: 'b', lastTransitionTime: '2026-11-22T10:04:00Z' }
            : {}),
          ...(type === 'VendorFourth' ? { status: 'Unknown' as const, reason: 'Gone', lastTransitionTime: '2026-11-22T10:07:30Z' } : {}),
        })),
      ),
      '2026-11-22T10:08:00.000Z',
    );
    expect(await again.countTransitions(id)).toBe(7);
    expect(await segments(again, 'VendorFifth')).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-22T09:00:00.000Z', end: '2026-11-22T10:04:00.000Z' },
      { status: 'False', reason: 'Broken', message: 'b', start: '2026-11-22T10:04:00.000Z', end: null },
    ]);
    expect((await segments(again, 'VendorFourth')).map((x) => [x.status, x.start, x.end])).toEqual([
      ['True', '2026-11-22T09:00:00.000Z', '2026-11-22T10:07:30.000Z'],
      ['Unknown', '2026-11-22T10:07:30.000Z', null],
    ]);
    expect(again.conditionSince(id)).toMatchObject({ VendorFifth: '2026-11-22T10:04:00.000Z', VendorFourth: '2026-11-22T10:07:30.000Z' });
    await again.close();
  });

  it('segments of equal state share a head, and fields that join alike are not taken for each other', async () => {
    const s = await backend.open();
    const other = 'prod/HorizontalPodAutoscaler/shop/api';
    // Joined with the unit separator the heads are keyed by, both read `a␟b␟c`.
    s.observe(hpa([{ reason: 'a\u001fb', message: 'c' }]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{ reason: 'a', message: 'b\u001fc' }], { id: other, name: 'api', uid: 'uid-9' }), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{ reason: 'a', message: 'b\u001fc' }], { id: other, name: 'api', uid: 'uid-9' }), '2026-11-22T10:01:00.000Z');
    s.observe(hpa([{ reason: 'a\u001fb', message: 'c' }]), '2026-11-22T10:01:00.000Z');
    expect((await segments(s)).map((x) => [x.reason, x.message, x.end])).toEqual([['a\u001fb', 'c', null]]);
    const api = (await s.history(other, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z')).conditions[0]?.segments;
    expect(api?.map((x) => [x.reason, x.message, x.end])).toEqual([['a', 'b\u001fc', null]]);
    expect([await s.countTransitions(id), await s.countTransitions(other)]).toEqual([1, 1]);
    await s.close();
  });

  it('after a restart, records nothing twice and keeps what it knew', async () => {
    const first = await backend.open();
    first.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    const second = await backend.reopen(first);
    second.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T11:00:00.000Z');
    expect(await second.countTransitions(id)).toBe(1);
    expect(second.firstSeen(id)).toBe('2026-11-22T10:00:00.000Z');
    expect(await segments(second)).toHaveLength(1);
    await second.close();
  });

  it('an object deleted before a restart that comes back after it is new: its first replica sample is written', async () => {
    const first = await backend.open();
    first.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    first.observeDeleted(id, '2026-11-22T10:30:00.000Z');
    const second = await backend.reopen(first);
    second.observe(hpa([{}], { uid: 'uid-2' }), '2026-11-22T11:00:00.000Z');
    const { replicas } = await second.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(replicas.map((r) => [r.at, r.desired])).toEqual([
      ['2026-11-22T10:00:00.000Z', 3],
      ['2026-11-22T11:00:00.000Z', 3],
    ]);
    expect(second.firstSeen(id)).toBe('2026-11-22T11:00:00.000Z');
    await second.close();
  });

  it('a recreated object (new uid) closes the old segments and opens new ones after them', async () => {
    const s = await backend.open();
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }], { uid: 'uid-2' }), '2026-11-22T12:00:00.000Z');
    expect(await segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-20T08:00:00.000Z', end: '2026-11-22T12:00:00.000Z' },
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-22T12:00:00.000Z', end: null },
    ]);
    await s.close();
  });

  it('samples replicas on change only and tracks since when desired differs from current', async () => {
    const s = await backend.open();
    s.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    s.observe(hpa([{}]), '2026-11-22T10:00:15.000Z');
    s.observe(hpa([{}], { desiredReplicas: 5 }), '2026-11-22T10:00:30.000Z');
    s.observe(hpa([{}], { desiredReplicas: 5 }), '2026-11-22T10:00:45.000Z');
    expect(s.replicasMismatchSince(id)).toBe('2026-11-22T10:00:30.000Z');
    const { replicas } = await s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(replicas.map((r) => [r.at, r.desired])).toEqual([
      ['2026-11-22T10:00:00.000Z', 3],
      ['2026-11-22T10:00:30.000Z', 5],
    ]);
    s.observe(hpa([{}], { desiredReplicas: 5, currentReplicas: 5 }), '2026-11-22T10:01:00.000Z');
    expect(s.replicasMismatchSince(id)).toBeNull();
    await s.close();
  });
  it('marks status flips, changes of meaning and first sights notable, and AbleToScale=True reason churn not', async () => {
    const s = await backend.open();
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
    const all = await s.latestTransitions(50);
    expect(all.map((t) => [t.type, t.reason, t.previous?.reason ?? null, t.notable])).toEqual([
      ['ScalingLimited', 'TooFewReplicas', 'TooManyReplicas', true], // degraded "at max" → ok "at min": the meaning changed
      ['ScalingLimited', 'TooManyReplicas', 'DesiredWithinRange', true], // a status flip
      ['AbleToScale', 'ScaleDownStabilized', 'SucceededRescale', false],
      ['AbleToScale', 'SucceededRescale', 'ReadyForNewScale', false],
      ['ScalingLimited', 'DesiredWithinRange', null, true], // first sights, in one observation: newest write first
      ['AbleToScale', 'ReadyForNewScale', null, true],
    ]);
    expect(all[0]?.previous).toEqual({ status: 'True', reason: 'TooManyReplicas', meaning: 'degraded' });
    expect((await s.latestTransitions(50, undefined, true)).map((t) => t.reason)).toEqual([
      'TooFewReplicas',
      'TooManyReplicas',
      'DesiredWithinRange',
      'ReadyForNewScale',
    ]);
    await s.close();
  });

  it('prunes what is older than the retention window but keeps each open segment and the last replica sample', async () => {
    const s = await backend.open();
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
    await s.prune(new Date('2026-11-22T00:00:00Z'));
    // An object deleted before the window leaves nothing behind.
    expect(await s.countTransitions(goneId)).toBe(0);
    // The cluster's outage began before the window and has not ended: still a gap.
    expect((await s.history(id, 'HorizontalPodAutoscaler', '2026-11-01T00:00:00Z', '2026-11-22T00:00:00Z')).gaps).toEqual([
      { start: '2026-09-05T00:00:00.000Z', end: null, state: 'unreachable' },
    ]);
    // ScalingActive: the September segments went, the November one stays; AbleToScale's only segment is open, so it stays.
    expect((await segments(s)).map((x) => x.reason)).toEqual(['ValidMetricFound']);
    expect((await segments(s, 'AbleToScale')).map((x) => [x.reason, x.start])).toEqual([['ReadyForNewScale', '2026-09-01T00:00:00.000Z']]);
    expect((await s.events(id, 10)).map((e) => e.uid)).toEqual(['e-new']);
    // The last sample before the window still tells the replicas at its start.
    const { replicas } = await s.history(id, 'HorizontalPodAutoscaler', '2026-11-01T00:00:00Z', '2026-11-22T00:00:00Z');
    expect(replicas.map((r) => r.desired)).toEqual([4]);
    await s.close();
  });

  it('keeps every AbleToScale=True reason change as its own segment (the stabilization window at work)', async () => {
    const s = await backend.open();
    const able = (reason: string): Partial<AutoscalerCondition> => ({
      type: 'AbleToScale',
      status: 'True',
      reason,
      message: reason,
      lastTransitionTime: '2026-11-20T08:00:00Z',
    });
    const reasons = ['ReadyForNewScale', 'ScaleDownStabilized', 'SucceededRescale', 'ReadyForNewScale', 'ScaleDownStabilized'];
    reasons.forEach((r, i) => s.observe(hpa([able(r)]), `2026-11-22T10:0${i}:00.000Z`));
    expect((await segments(s, 'AbleToScale')).map((x) => [x.reason, x.start])).toEqual([
      ['ReadyForNewScale', '2026-11-20T08:00:00.000Z'],
      ['ScaleDownStabilized', '2026-11-22T10:01:00.000Z'],
      ['SucceededRescale', '2026-11-22T10:02:00.000Z'],
      ['ReadyForNewScale', '2026-11-22T10:03:00.000Z'],
      ['ScaleDownStabilized', '2026-11-22T10:04:00.000Z'],
    ]);
    // The since clock of AbleToScale=True is the reason's observation, not the status's lastTransitionTime.
    expect(s.conditionSince(id)).toEqual({ AbleToScale: '2026-11-22T10:04:00.000Z' });
    await s.close();
  });

  it('after a gap: a status flip starts at its lastTransitionTime inside the gap, a reason change when first seen after it', async () => {
    const s = await backend.open();
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
    const h = await s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(h.gaps).toEqual([{ start: '2026-11-22T10:01:00.000Z', end: '2026-11-22T10:06:00.000Z', state: 'unreachable' }]);
    expect((await segments(s)).map((x) => [x.reason, x.start])).toEqual([
      ['ValidMetricFound', '2026-11-22T09:00:00.000Z'],
      ['FailedGetResourceMetric', '2026-11-22T10:03:00.000Z'],
    ]);
    expect((await segments(s, 'ScalingLimited')).map((x) => [x.reason, x.start])).toEqual([
      ['TooManyReplicas', '2026-11-22T09:00:00.000Z'],
      ['TooFewReplicas', '2026-11-22T10:06:00.000Z'],
    ]);
    await s.close();
  });

  it('an outage dated back to its last answer is a gap even when a degraded spell was recorded after that time', async () => {
    const s = await backend.open();
    s.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    s.recordClusterState('prod', 'degraded', '2026-11-22T10:01:05.000Z', '500');
    s.recordClusterState('prod', 'unreachable', '2026-11-22T10:01:00.000Z', '500');
    s.recordClusterState('prod', 'synced', '2026-11-22T10:03:00.000Z', null);
    expect((await s.history(id, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z')).gaps).toEqual([
      { start: '2026-11-22T10:01:00.000Z', end: '2026-11-22T10:03:00.000Z', state: 'unreachable' },
    ]);
    await s.close();
  });
});

/** The i-th of many autoscalers, its one condition with `reason`. */
const web = (i: number, reason: string): Autoscaler =>
  hpa([{ reason, lastTransitionTime: '2026-11-25T10:00:00Z' }], {
    id: `prod/HorizontalPodAutoscaler/shop/web-${i}`,
    name: `web-${i}`,
    uid: `uid-${i}`,
  });

/** 200 autoscalers seen, then each one's reason changed: 400 transitions, queued over two turns. */
async function record(store: HistoryStore): Promise<void> {
  for (let i = 0; i < 200; i++) store.observe(web(i, 'ValidMetricFound'), '2026-11-25T10:00:00.000Z', '1');
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 200; i++) store.observe(web(i, 'SucceededGetScale'), '2026-11-25T10:01:00.000Z', '2');
}

describe('HistoryStore with its writer thread', () => {
  it('writes from the thread (timed there), reads wait for what was queued before them, and close() ends it', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'history-writer-'));
    const timings: number[] = [];
    const store = new HistoryStore({ dataDir, retentionDays: 30, writerThread: true, onWrite: (s) => timings.push(s) });
    await record(store);
    // Read at once: the second turn's writes were only queued, and the read must see them.
    expect(await store.countTransitions(web(7, '').id)).toBe(2);
    expect(store.writingOnThread).toBe(true);
    // Timed on the thread: each transaction (the turns' batches that waited for the thread share one).
    expect(timings.length).toBeGreaterThanOrEqual(1);
    expect(timings.every((s) => s > 0)).toBe(true);
    const latest = await store.latestTransitions(5);
    expect(latest[0]?.reason).toBe('SucceededGetScale');
    await store.close();
    const reopened = new HistoryStore({ dataDir, retentionDays: 30 });
    expect(await reopened.countTransitions(web(199, '').id)).toBe(2);
    await reopened.close();
  });

  it('hands a turn of many writes to the thread as they come, every 256, and stores them all in order', async () => {
    class Counting extends HistoryStore {
      handed = 0;
      protected override queuedMany(): void {
        this.handed += 1;
        super.queuedMany();
      }
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'history-writer-'));
    const store = new Counting({ dataDir, retentionDays: 30, writerThread: true });
    // One turn: 200 first sights, an object row, a transition and a replica sample each.
    for (let i = 0; i < 200; i++) store.observe(web(i, 'ValidMetricFound'), '2026-11-25T10:00:00.000Z', '1');
    expect(store.handed).toBe(Math.floor(600 / 256));
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 200; i++) store.observe(web(i, 'SucceededGetScale'), '2026-11-25T10:01:00.000Z', '2');
    for (let i = 0; i < 200; i += 19) expect(await store.countTransitions(web(i, '').id)).toBe(2);
    expect((await store.latestTransitions(1))[0]?.reason).toBe('SucceededGetScale');
    await store.close();
  });

  it('when the thread fails, what it had not committed is written on the event loop: nothing lost, nothing twice', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'history-writer-'));
    // A connection that may not write: the thread's first batch fails.
    const store = new HistoryStore({ dataDir, retentionDays: 30, writerThread: true, writerPragmas: ['query_only = 1'] });
    await record(store);
    for (let i = 0; i < 200; i += 37) expect(await store.countTransitions(web(i, '').id)).toBe(2);
    expect(store.writingOnThread).toBe(false);
    // Later writes go on, on the event loop.
    store.observe(web(3, 'ValidMetricFound'), '2026-11-25T10:02:00.000Z', '3');
    expect(await store.countTransitions(web(3, '').id)).toBe(3);
    await store.close();
  });
});

/** What a deferred-first-sights sequence does, step by step (`replay`). */
type DeferralStep =
  | {
      op: 'observe';
      i: number;
      uid: number;
      conditions: [type: number, status: number, reason: number, message: number, ltt: number][];
      desired: number;
    }
  | { op: 'delete'; i: number }
  | { op: 'read'; i: number }
  | { op: 'tick' }
  | { op: 'end' };

const deferralIds = [0, 1, 2, 3].map((i) => `prod/HorizontalPodAutoscaler/shop/d-${i}`);

const deferralStep: fc.Arbitrary<DeferralStep> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('observe' as const),
      i: fc.integer({ min: 0, max: 3 }),
      uid: fc.integer({ min: 1, max: 2 }),
      // Up to four conditions of three types: now and then two of one type, which is never deferred.
      conditions: fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 2 }),
          fc.integer({ min: 0, max: 1 }),
          fc.integer({ min: 0, max: 1 }),
          fc.integer({ min: 0, max: 2 }),
          fc.integer({ min: 0, max: 2 }),
        ),
        { maxLength: 4 },
      ),
      desired: fc.integer({ min: 2, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), i: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('read' as const), i: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('tick' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('end' as const) }) },
);

/** Runs `steps` against `store`, deferring first sights from the start when `defer` (until the first `end`). */
async function replay(store: AutoscopeStore, steps: DeferralStep[], defer: boolean): Promise<void> {
  if (defer) store.deferFirstSights();
  const draining: Promise<void>[] = [];
  let at = Date.parse('2026-11-25T10:00:00.000Z');
  for (const [n, step] of steps.entries()) {
    at += 1000;
    const now = new Date(at).toISOString();
    const stepId = 'i' in step ? (deferralIds[step.i] as string) : '';
    if (step.op === 'observe')
      store.observe(
        hpa(
          step.conditions.map(([type, status, reason, message, ltt]) => ({
            type: ['ScalingActive', 'AbleToScale', 'ScalingLimited'][type] as string,
            status: (['True', 'False'] as const)[status],
            reason: ['ReasonA', 'ReasonB'][reason] as string,
            message: ['m1', 'm2', null][message] ?? null,
            lastTransitionTime: [null, '2026-11-20T08:00:00Z', '2026-11-26T08:00:00Z'][ltt] ?? null,
          })),
          { id: stepId, name: stepId.split('/')[3] as string, uid: `uid-${step.i}-${step.uid}`, desiredReplicas: step.desired },
        ),
        now,
        String(n + 1),
      );
    else if (step.op === 'delete') store.observeDeleted(stepId, now);
    else if (step.op === 'read') await store.history(stepId, 'HorizontalPodAutoscaler', '2026-01-01T00:00:00Z', now);
    else if (step.op === 'tick') await new Promise((r) => setImmediate(r));
    else if (defer) draining.push(store.writeDeferredFirstSights());
  }
  await Promise.all(draining);
  await store.flush();
}

/** Everything the store's reads say of the sequence's autoscalers, transitions in an order that does not depend on when rows were written. */
async function recorded(store: AutoscopeStore): Promise<unknown> {
  const byId = [];
  for (const id of deferralIds)
    byId.push({
      history: await store.history(id, 'HorizontalPodAutoscaler', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z'),
      transitions: await store.countTransitions(id),
      since: store.conditionSince(id),
      firstSeen: store.firstSeen(id),
    });
  const latest = (await store.latestTransitions(10_000)).map((t) => JSON.stringify(t)).sort();
  return { byId, latest };
}

/** A SQLite history's rows, each autoscaler's in the order they were written (the order across autoscalers aside). */
function sqliteRows(dir: string): unknown {
  const db = new SqliteFile(path.join(dir, 'history.db'));
  const rows = {
    objects: db.statement('SELECT id, cluster, kind, namespace, name, uid, first_seen, deleted_at FROM objects ORDER BY id').all(),
    transitions: db
      .statement(
        `SELECT id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since, prev_status, prev_reason, notable,
           resource_version FROM condition_transitions ORDER BY id, seq`,
      )
      .all(),
    samples: db.statement('SELECT id, at, current, desired, min, max FROM replica_samples ORDER BY id, rowid').all(),
  };
  db.close();
  return rows;
}

describe.each(backends)('deferred first sights on $name', (backend) => {
  it('store, once written, what was written without deferring: the same rows, each object in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(deferralStep, { minLength: 1, maxLength: 30 }), async (steps) => {
        const plain = await backend.open();
        const deferring = await backend.open();
        await replay(plain, steps, false);
        await replay(deferring, steps, true);
        expect(deferring.deferredFirstSights).toBe(0);
        expect(await recorded(deferring)).toEqual(await recorded(plain));
        const dirs = [sqliteDirs.get(plain), sqliteDirs.get(deferring)];
        await plain.close();
        await deferring.close();
        if (dirs[0] && dirs[1]) expect(sqliteRows(dirs[1])).toEqual(sqliteRows(dirs[0]));
      }),
      { numRuns: backend === postgres ? 15 : 60 },
    );
  }, 120_000);

  it('a read of one autoscaler writes its first sight; the others wait, and are written once the deferral ends', async () => {
    const s = await backend.open();
    s.deferFirstSights();
    s.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z', '7');
    const other = { id: 'prod/HorizontalPodAutoscaler/shop/api', name: 'api', uid: 'uid-api' };
    s.observe(hpa([{}], other), '2026-11-22T10:00:00.000Z', '8');
    expect(s.deferredFirstSights).toBe(2);
    expect(await segments(s)).toEqual([
      { status: 'True', reason: 'ValidMetricFound', message: 'ok', start: '2026-11-20T08:00:00.000Z', end: null },
    ]);
    expect(s.deferredFirstSights).toBe(1);
    // Still deferring: a first sight now waits too.
    s.observe(hpa([{}], { id: 'prod/HorizontalPodAutoscaler/shop/db', name: 'db', uid: 'uid-db' }), '2026-11-22T10:00:01.000Z');
    expect(s.deferredFirstSights).toBe(2);
    await s.writeDeferredFirstSights();
    expect(s.deferredFirstSights).toBe(0);
    // Deferring has ended: a first sight is written as it is decided.
    s.observe(hpa([{}], { id: 'prod/HorizontalPodAutoscaler/shop/mq', name: 'mq', uid: 'uid-mq' }), '2026-11-22T10:00:02.000Z');
    expect(s.deferredFirstSights).toBe(0);
    expect(await s.countTransitions(other.id)).toBe(1);
    expect((await s.latestTransitions(10)).map((t) => t.name).sort()).toEqual(['api', 'db', 'mq', 'web']);
    await s.close();
  });

  it('close() writes what is still deferred', async () => {
    const first = await backend.open();
    first.deferFirstSights();
    first.observe(hpa([{ lastTransitionTime: '2026-11-20T08:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    const second = await backend.reopen(first);
    // Read back at start: not a first sight again.
    expect(second.firstSeen(id)).toBe('2026-11-22T10:00:00.000Z');
    expect(await second.countTransitions(id)).toBe(1);
    await second.close();
  });
});

describe('HistoryStore (SQLite only)', () => {
  it('migrates a version-1 database: earlier transitions learn what they replaced, notable when the status flipped', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hist-'));
    // The database as the first release wrote it: migration 1 only, three rows of one condition.
    await sqliteStore(dir).close();
    const db = new SqliteFile(path.join(dir, 'history.db'));
    db.exec(`DELETE FROM schema_migrations WHERE version > 1;
      CREATE TABLE t AS SELECT seq, id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since FROM condition_transitions;
      DROP TABLE condition_transitions; ALTER TABLE t RENAME TO condition_transitions;`);
    const insert =
      db.statement(`INSERT INTO condition_transitions (seq, id, cluster, kind, namespace, name, uid, type, status, reason, message, at, reason_since)
      VALUES (?, '${id}', 'prod', 'HorizontalPodAutoscaler', 'shop', 'web', 'uid-1', 'ScalingActive', ?, ?, 'm', ?, ?)`);
    insert.run(1, 'True', 'ValidMetricFound', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z');
    insert.run(2, 'False', 'FailedGetResourceMetric', '2026-11-22T09:10:00.000Z', '2026-11-22T09:10:00.000Z');
    insert.run(3, 'False', 'InvalidSelector', '2026-11-22T09:20:00.000Z', '2026-11-22T09:20:00.000Z');
    db.exec(
      `INSERT INTO objects (id, cluster, kind, namespace, name, uid, first_seen) VALUES ('${id}', 'prod', 'HorizontalPodAutoscaler', 'shop', 'web', 'uid-1', '2026-11-22T09:00:00.000Z')`,
    );
    db.close();
    const s = sqliteStore(dir);
    expect((await s.latestTransitions(10)).map((t) => [t.reason, t.previous?.reason ?? null, t.notable])).toEqual([
      ['InvalidSelector', 'FailedGetResourceMetric', false],
      ['FailedGetResourceMetric', 'ValidMetricFound', true],
      ['ValidMetricFound', null, true],
    ]);
    // The open segment was read back: observing the same state records nothing.
    s.observe(hpa([{ status: 'False', reason: 'InvalidSelector', message: 'm', meaning: 'failing' }]), '2026-11-22T10:00:00.000Z');
    expect(await s.countTransitions(id)).toBe(3);
    await s.close();
  });
});

describe('PostgresStore: leases', () => {
  async function replica(url: string, name: string, clusters: string[]) {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pools.push(pool);
    const fenced: string[] = [];
    const ownership = new ClusterOwnership({
      pool,
      replicaId: name,
      clusters,
      leaseMs: 30_000,
      renewMs: 10_000,
      onAcquire: () => undefined,
      onRelease: () => undefined,
    });
    const store = await PostgresStore.open({
      pool,
      retentionDays: 30,
      // A Karmada member is written under its control plane's lease.
      fenceOf: (cluster) => ownership.ownedClusters().get(cluster.split('/')[0] ?? cluster),
      onFenced: (cluster) => fenced.push(cluster),
    });
    return { pool, ownership, store, fenced };
  }

  /** A replica that has taken cluster "prod" and read back what is stored of it. */
  async function owner(url: string, name: string) {
    const r = await replica(url, name, ['prod']);
    await r.ownership.start();
    await r.store.adopt('prod');
    return r;
  }

  it('a process that lost its lease writes nothing; the new owner reads back what is open and records nothing twice', async () => {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    const url = server.createDatabase(`hist_${++databases}`);
    const a = await replica(url, 'replica-a', ['prod']);
    await a.ownership.start();
    await a.store.adopt('prod');
    a.store.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    await a.store.flush();

    // A pauses past its lease (say, a long GC or a frozen node); B takes the cluster over under a new token.
    await a.pool.query(`UPDATE cluster_leases SET expires_at = clock_timestamp() - interval '1 second'`);
    await a.pool.query(`UPDATE replicas SET heartbeat_at = clock_timestamp() - interval '1 hour' WHERE id = 'replica-a'`);
    const b = await replica(url, 'replica-b', ['prod']);
    await b.ownership.start();
    expect([...b.ownership.ownedClusters().keys()]).toEqual(['prod']);
    await b.store.adopt('prod');
    b.store.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:05:00.000Z');
    expect(await b.store.countTransitions(id)).toBe(1);
    expect(b.store.firstSeen(id)).toBe('2026-11-22T10:00:00.000Z');

    // A wakes up still holding its old token: the database refuses its write, and it is told.
    a.store.observe(hpa([{ status: 'False', reason: 'FailedGetResourceMetric', meaning: 'failing' }]), '2026-11-22T10:06:00.000Z');
    await a.store.flush();
    expect(a.fenced).toEqual(['prod']);
    expect(a.store.droppedWrites).toBeGreaterThan(0);
    expect(await b.store.countTransitions(id)).toBe(1);
    await b.store.close();
    await b.ownership.stop();
  });

  it('a cluster handed over is flushed with its deferred first sights; one forgotten without, its next owner sees them first', async () => {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    const url = server.createDatabase(`hist_${++databases}`);
    const a = await owner(url, 'replica-a');
    a.store.deferFirstSights();
    a.store.observe(hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }]), '2026-11-22T10:00:00.000Z');
    const other = { id: 'prod/HorizontalPodAutoscaler/shop/api', name: 'api', uid: 'uid-api' };
    a.store.observe(hpa([{}], other), '2026-11-22T10:00:00.000Z');
    // A handoff (SharedHistory) flushes before it forgets: what was deferred is written under the lease.
    await a.store.flush();
    a.store.forget('prod');
    expect(a.store.deferredFirstSights).toBe(0);
    await a.ownership.stop();

    const b = await owner(url, 'replica-b');
    expect(b.store.firstSeen(id)).toBe('2026-11-22T10:00:00.000Z');
    expect(b.store.firstSeen(other.id)).toBe('2026-11-22T10:00:00.000Z');
    b.store.deferFirstSights();
    b.store.observe(hpa([{}], { id: 'prod/HorizontalPodAutoscaler/shop/db', name: 'db', uid: 'uid-db' }), '2026-11-22T10:05:00.000Z');
    // Forgotten without a flush (the lease was lost): nothing of it is written by this process, later or at close.
    b.store.forget('prod');
    expect(b.store.deferredFirstSights).toBe(0);
    await b.store.close();
    await b.ownership.stop();
    const check = await owner(url, 'replica-c');
    expect(check.store.firstSeen('prod/HorizontalPodAutoscaler/shop/db')).toBeNull();
    expect(await check.store.countTransitions('prod/HorizontalPodAutoscaler/shop/db')).toBe(0);
    await check.store.close();
    await check.ownership.stop();
  });

  it("a Karmada member's rows are written under its control plane's lease and read back with it", async () => {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    const url = server.createDatabase(`hist_${++databases}`);
    const memberId = 'karmada%2Fmember-1/HorizontalPodAutoscaler/shop/web'; // ids carry the cluster URL-encoded
    const member = hpa([{ lastTransitionTime: '2026-11-22T09:00:00Z' }], { id: memberId, cluster: 'karmada/member-1' });
    const first = await replica(url, 'replica-a', ['karmada']);
    await first.ownership.start();
    await first.store.adopt('karmada');
    first.store.observe(member, '2026-11-22T10:00:00.000Z');
    first.store.recordClusterState('karmada/member-1', 'unreachable', '2026-11-22T10:01:00.000Z', 'cannot reach member');
    await first.store.close();
    await first.ownership.stop();
    expect(first.fenced).toEqual([]);

    const second = await replica(url, 'replica-b', ['karmada']);
    await second.ownership.start();
    await second.store.adopt('karmada');
    expect(second.store.firstSeen(memberId)).toBe('2026-11-22T10:00:00.000Z');
    second.store.observe(member, '2026-11-22T10:05:00.000Z');
    expect(await second.store.countTransitions(memberId)).toBe(1);
    const h = await second.store.history(memberId, 'HorizontalPodAutoscaler', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z');
    expect(h.gaps).toEqual([{ start: '2026-11-22T10:01:00.000Z', end: null, state: 'unreachable' }]);
    await second.store.close();
    await second.ownership.stop();
  });

  it('a cluster it does not own is not written at all', async () => {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    const url = server.createDatabase(`hist_${++databases}`);
    const r = await replica(url, 'replica-a', ['other']);
    await r.ownership.start();
    r.store.observe(hpa([{}]), '2026-11-22T10:00:00.000Z');
    expect(await r.store.countTransitions(id)).toBe(0);
    expect(r.store.droppedWrites).toBeGreaterThan(0);
    await r.store.close();
    await r.ownership.stop();
  });
});
