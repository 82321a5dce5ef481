import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteFile } from '../store/sqlite';
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
