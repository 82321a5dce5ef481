import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AutoscalerKindSchema, HealthSchema } from '@/lib/api';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import karmadaClusters from '@/lib/triage/__fixtures__/karmada.clusters.json';
import karmadaFhpas from '@/lib/triage/__fixtures__/karmada.fhpa.json';
import karmadaPolicies from '@/lib/triage/__fixtures__/karmada.propagationpolicies.json';
import karmadaBindings from '@/lib/triage/__fixtures__/karmada.resourcebindings.json';
import machineFixture from '@/lib/triage/__fixtures__/ocp-prod-east.machine.json';
import fixture from '@/lib/triage/__fixtures__/prod-eu-west-1.hpa.json';
import { HistoryStore } from '../history/history-store';
import type { ResourceKey } from '../watch/resources';
import type { ClusterObjects } from './fleet-index';
import { FleetIndex } from './fleet-index';
import { DICTIONARY_SAMPLES, HeldJson } from './held-object';

const real = (fixture as { items: HorizontalPodAutoscaler[] }).items as unknown as KubeObject[];

function rig(compressInThread = false) {
  let now = Date.parse('2026-11-23T10:00:00.000Z');
  const objects = new Map<ResourceKey, KubeObject[]>([['hpas', real]]);
  const source: ClusterObjects = { objects: (r) => objects.get(r) ?? [], serves: (r) => objects.has(r), listed: (r) => objects.has(r) };
  const history = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'index-')), retentionDays: 30 });
  const changed: string[] = [];
  const index = new FleetIndex(
    history,
    () => source,
    (ids) => changed.push(...ids),
    () => new Date(now),
    compressInThread,
  );
  return { index, history, changed, objects, tick: (ms: number) => (now += ms) };
}

/** What the index holds of its HPAs outside the heap, summed from the entries themselves (against its own count). */
function heldIn(index: FleetIndex): { json: number; deflated: number } {
  const sum = { json: 0, deflated: 0 };
  for (const { held } of index.entries.values()) if (held instanceof HeldJson) sum[held.deflated ? 'deflated' : 'json'] += held.size;
  return sum;
}

const idOf = (o: KubeObject): string => `prod/HorizontalPodAutoscaler/${o.metadata.namespace}/${o.metadata.name}`;

let written = 0;
/** A copy of an object as the API server serves it after a write: a new resourceVersion (the index maps each version once). */
function rewritten<T extends KubeObject>(o: T): T {
  const copy = structuredClone(o);
  written += 1;
  copy.metadata.resourceVersion = `${o.metadata.resourceVersion ?? ''}.${written}`;
  return copy;
}

/** A full list as the informer delivers it: each listed object through `apply`, then `resync` with the list. */
function relist(index: FleetIndex, objects: KubeObject[]): void {
  for (const o of objects) index.apply('prod', 'hpas', 'update', o);
  index.resync('prod', 'hpas', objects);
}

/** An index and its history on `dataDir`, as one start of the process finds them (the clock stands at `at`). */
function started(dataDir: string, at: string): { history: HistoryStore; index: FleetIndex } {
  const source: ClusterObjects = { objects: () => real, serves: (r) => r === 'hpas', listed: (r) => r === 'hpas' };
  const history = new HistoryStore({ dataDir, retentionDays: 30 });
  const index = new FleetIndex(
    history,
    () => source,
    () => {},
    () => new Date(at),
  );
  return { history, index };
}

/** Every entry's DTO by id. */
const dtosOf = (index: FleetIndex) => new Map([...index.entries].map(([id, e]) => [id, e.dto]));

describe('FleetIndex.apply', () => {
  it('maps each version of an HPA once, and keeps the object it mapped as its own copy', () => {
    const r = rig();
    relist(r.index, real);
    const first = real[0] as KubeObject;
    const id = idOf(first);
    r.changed.length = 0;
    const before = r.index.entries.get(id)?.dto;
    // The version the index holds, again (ListWatch announcing a listed object, a replayed event): nothing to map.
    const sameVersion = { ...structuredClone(first), spec: { ...(first.spec as object), maxReplicas: 999 } } as KubeObject;
    r.index.apply('prod', 'hpas', 'update', sameVersion);
    expect(r.changed).toEqual([]);
    expect(r.index.entries.get(id)?.dto).toBe(before);
    // A new version is mapped, and what the entry holds is a copy: the object handed in can change without it.
    const next = rewritten(sameVersion);
    r.index.apply('prod', 'hpas', 'update', next);
    expect(r.changed).toEqual([id]);
    expect(r.index.entries.get(id)?.dto.maxReplicas).toBe(999);
    (next.spec as { maxReplicas: number }).maxReplicas = 5;
    expect((r.index.entries.get(id)?.held.object().spec as { maxReplicas: number }).maxReplicas).toBe(999);
    expect(r.index.entries.get(id)?.held.resourceVersion).toBe(next.metadata.resourceVersion);
    void r.history.close();
  });

  it("a new version's DTO keeps the parts of the one it replaces that did not change", () => {
    const r = rig();
    relist(r.index, real);
    const first = real[0] as KubeObject;
    const id = idOf(first);
    const before = r.index.entries.get(id)?.dto;
    if (!before) throw new Error('not indexed');
    const next = rewritten(first);
    const maxReplicas = (before.maxReplicas ?? 0) + 7;
    (next.spec as { maxReplicas: number }).maxReplicas = maxReplicas;
    r.index.apply('prod', 'hpas', 'update', next);
    const after = r.index.entries.get(id)?.dto;
    expect(after?.maxReplicas).toBe(maxReplicas);
    expect(after?.target).toBe(before.target);
    expect(after?.metrics).toBe(before.metrics);
    void r.history.close();
  });
});

describe('FleetIndex: held HPAs', () => {
  it('the first few HPAs make the dictionary and stay JSON until their next version; every other is deflated as written and reads back the same', () => {
    const r = rig();
    const counted = () => heldIn(r.index);
    const held = (o: KubeObject) => r.index.entries.get(idOf(o))?.held as HeldJson;
    relist(r.index, real);
    const samples = real.slice(0, DICTIONARY_SAMPLES);
    expect(real.map((o) => held(o).deflated)).toEqual(real.map((_, i) => i >= DICTIONARY_SAMPLES));
    expect(real.map((o) => held(o).object())).toEqual(real);
    expect(r.index.heldBytes).toEqual(counted());
    expect(r.index.heldBytes.json).toBe(samples.reduce((n, o) => n + Buffer.byteLength(JSON.stringify(o)), 0));
    // A sample's next version is deflated like any other.
    const newer = rewritten(real[0] as KubeObject);
    r.index.apply('prod', 'hpas', 'update', newer);
    expect(held(newer).deflated).toBe(true);
    expect(held(newer).object()).toEqual(newer);
    expect(r.index.heldBytes).toEqual(counted());
    // Replaced and removed entries leave the count.
    const before = { ...r.index.heldBytes };
    r.index.resync('prod', 'hpas', real.slice(2));
    expect(r.index.heldBytes).toEqual(counted());
    expect(r.index.heldBytes.json).toBeLessThan(before.json);
    expect(r.index.heldBytes.deflated).toBeLessThan(before.deflated);
    void r.history.close();
  });
});

describe('FleetIndex: held HPAs deflated by the compressor thread', () => {
  it('counts each version once its bytes come, not one replaced or removed before they did', async () => {
    const r = rig(true);
    const counted = () => heldIn(r.index);
    const held = (o: KubeObject) => r.index.entries.get(idOf(o))?.held as HeldJson;
    relist(r.index, real);
    expect(r.index.heldWaiting).toBe(real.length - DICTIONARY_SAMPLES);
    // Replaced and removed while the thread works.
    const newer = rewritten(real[DICTIONARY_SAMPLES] as KubeObject);
    r.index.apply('prod', 'hpas', 'update', newer);
    r.index.resync(
      'prod',
      'hpas',
      real.filter((o) => o !== real[DICTIONARY_SAMPLES + 1]),
    );
    expect(held(newer).object()).toEqual(newer);
    for (let i = 0; i < 500 && r.index.heldWaiting > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(r.index.heldWaiting).toBe(0);
    const present = [...real.filter((o) => o !== real[DICTIONARY_SAMPLES + 1] && o !== real[DICTIONARY_SAMPLES]), newer];
    expect(present.map((o) => held(o).deflated)).toEqual(present.map((o) => !real.slice(0, DICTIONARY_SAMPLES).includes(o)));
    expect(present.map((o) => held(o).object())).toEqual(present);
    expect(r.index.heldBytes).toEqual(counted());
    r.index.halt();
    void r.history.close();
  });
});

describe('FleetIndex.resync', () => {
  it('a relist of the same objects changes nothing: no removal, no history row, every since kept', async () => {
    const r = rig();
    relist(r.index, real);
    const ids = [...r.index.entries.keys()].sort();
    expect(ids).toEqual(real.map(idOf).sort());
    const since = ids.map((id) => r.history.conditionSince(id));
    const rows = await Promise.all(ids.map((id) => r.history.countTransitions(id)));
    r.changed.length = 0;
    r.tick(60_000);
    relist(
      r.index,
      real.map((o) => structuredClone(o)),
    );
    expect([...r.index.entries.keys()].sort()).toEqual(ids);
    expect(ids.map((id) => r.history.conditionSince(id))).toEqual(since);
    expect(await Promise.all(ids.map((id) => r.history.countTransitions(id)))).toEqual(rows);
    expect(r.changed).toEqual([]);
    void r.history.close();
  });

  it('a relist that really returns fewer objects deletes exactly those', () => {
    const r = rig();
    relist(r.index, real);
    const [gone, ...kept] = real;
    if (!gone) throw new Error('fixture is empty');
    r.tick(60_000);
    relist(r.index, kept);
    expect(r.index.entries.has(idOf(gone))).toBe(false);
    expect([...r.index.entries.keys()].sort()).toEqual(kept.map(idOf).sort());
    expect(r.history.firstSeen(idOf(gone))).toBeNull();
    expect(kept.every((o) => r.history.firstSeen(idOf(o)) !== null)).toBe(true);
    void r.history.close();
  });
});

describe('FleetIndex keeps history’s state on its entries', () => {
  it('adopts what a restart read back, records nothing twice, and closes a deleted object’s segments from its entry', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'index-state-'));
    const { history: first, index: firstIndex } = started(dataDir, '2026-11-23T10:00:00.000Z');
    relist(firstIndex, real);
    const ids = real.map(idOf);
    const rows = await Promise.all(ids.map((id) => first.countTransitions(id)));
    const since = ids.map((id) => first.conditionSince(id));
    expect(rows.every((n) => n > 0)).toBe(true);
    await first.close();

    const { history, index } = started(dataDir, '2026-11-23T10:05:00.000Z');
    // Read back before any entry exists, the state is history's answer already.
    expect(ids.map((id) => history.conditionSince(id))).toEqual(since);
    relist(
      index,
      real.map((o) => structuredClone(o)),
    );
    expect(await Promise.all(ids.map((id) => history.countTransitions(id)))).toEqual(rows);
    expect(ids.map((id) => history.conditionSince(id))).toEqual(since);
    // On the entries, where the adopted state went: no table of history's own beside them.
    expect([...index.entries.values()].every((e) => e.tracked !== undefined)).toBe(true);

    const [gone] = real;
    if (!gone) throw new Error('fixture is empty');
    const open = (gone as HorizontalPodAutoscaler).status?.conditions?.length ?? 0;
    expect(open).toBeGreaterThan(0);
    index.apply('prod', 'hpas', 'delete', gone);
    expect(await history.countTransitions(idOf(gone))).toBe((rows[0] ?? 0) + open);
    expect(history.firstSeen(idOf(gone))).toBeNull();
    await history.close();
  });

  it('an object deleted while Autoscope was down: the first list after the restart ends its segments, once', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'index-gone-'));
    const { history: first, index: firstIndex } = started(dataDir, '2026-11-23T10:00:00.000Z');
    relist(firstIndex, real);
    const [gone, ...kept] = real;
    if (!gone) throw new Error('fixture is empty');
    const rows = await first.countTransitions(idOf(gone));
    const keptRows = await Promise.all(kept.map((o) => first.countTransitions(idOf(o))));
    await first.close();

    const open = (gone as HorizontalPodAutoscaler).status?.conditions?.length ?? 0;
    for (let start = 0; start < 2; start++) {
      const { history, index } = started(dataDir, '2026-11-23T11:00:00.000Z');
      // Another cluster's list, and another kind's, end nothing of this cluster's HPAs.
      index.resync('other', 'hpas', []);
      index.resync('prod', 'machineAutoscalers', []);
      // Read back at the first start (nothing had ended it), not at the second.
      expect(history.firstSeen(idOf(gone)) !== null).toBe(start === 0);
      relist(
        index,
        kept.map((o) => structuredClone(o)),
      );
      expect(history.firstSeen(idOf(gone))).toBeNull();
      expect(history.conditionSince(idOf(gone))).toEqual({});
      // Ended at the first start after the deletion, and not again at the next one.
      expect(await history.countTransitions(idOf(gone))).toBe(rows + open);
      expect(await Promise.all(kept.map((o) => history.countTransitions(idOf(o))))).toEqual(keptRows);
      await history.close();
    }
  });
});

describe('FleetIndex counts by cluster, kind and health', () => {
  it('match a count of the entries through adds, health changes, stale clusters, removals and a dropped cluster', () => {
    const r = rig();
    const recount = () => {
      const out = new Map<string, number>();
      for (const { dto } of r.index.entries.values()) {
        const key = `${dto.cluster} ${dto.kind} ${dto.health}`;
        out.set(key, (out.get(key) ?? 0) + 1);
      }
      return out;
    };
    const check = () => {
      const expected = recount();
      for (const cluster of ['a', 'b', 'gone'])
        for (const kind of AutoscalerKindSchema.options)
          for (const health of HealthSchema.options)
            expect(r.index.countOf(cluster, kind, health), `${cluster} ${kind} ${health}`).toBe(
              expected.get(`${cluster} ${kind} ${health}`) ?? 0,
            );
    };
    for (const c of ['a', 'b']) for (const o of real) r.index.apply(c, 'hpas', 'update', o);
    check();
    // A version whose metrics cannot be read: its health moves.
    const [first, second] = real as unknown as HorizontalPodAutoscaler[];
    if (!first || !second) throw new Error('fixture too small');
    const failing = rewritten(first);
    failing.status = {
      ...failing.status,
      conditions: (failing.status?.conditions ?? []).map((c) =>
        c.type === 'ScalingActive' ? { ...c, status: 'False', reason: 'FailedGetResourceMetric', message: 'the metrics API is down' } : c,
      ),
    };
    const before = r.index.entries.get(`a/HorizontalPodAutoscaler/${first.metadata.namespace}/${first.metadata.name}`)?.dto.health;
    r.index.apply('a', 'hpas', 'update', failing);
    expect(r.index.entries.get(`a/HorizontalPodAutoscaler/${first.metadata.namespace}/${first.metadata.name}`)?.dto.health).not.toBe(
      before,
    );
    check();
    r.index.setStale('b', true);
    check();
    r.index.apply('b', 'hpas', 'delete', second);
    check();
    r.index.dropCluster('a');
    check();
    expect([...HealthSchema.options].reduce((n, h) => n + r.index.countOf('a', 'HorizontalPodAutoscaler', h), 0)).toBe(0);
    void r.history.close();
  });
});

describe('FleetIndex ids by cluster', () => {
  it('reads every DTO in id order and each cluster’s in its own, through removals and a dropped cluster', () => {
    const r = rig();
    // `a` sorts before `a-b` by name, after it by id (`a/…` > `a-b/…`); a Karmada member's name holds a `/`.
    const clusters = ['a', 'a-b', 'a/member', 'b'];
    // Listed in reverse, so each cluster's ids arrive out of order.
    for (const c of clusters) for (const o of [...real].reverse()) r.index.apply(c, 'hpas', 'update', o);
    const sorted = () => [...r.index.entries.keys()].sort();
    const ids = () => r.index.dtosInIdOrder().map((d) => d.id);
    expect(r.index.size).toBe(clusters.length * real.length);
    expect(ids()).toEqual(sorted());
    expect(r.index.clusterNames()).toEqual([...clusters].sort());
    const [gone] = real;
    if (!gone) throw new Error('fixture is empty');
    r.index.apply('a-b', 'hpas', 'delete', gone);
    r.index.dropCluster('a');
    expect(ids()).toEqual(sorted());
    expect(r.index.clusterNames()).toEqual(['a-b', 'a/member', 'b']);
    for (const c of ['a-b', 'a/member', 'b'])
      expect(r.index.dtosOfCluster(c).map((d) => d.id)).toEqual(sorted().filter((id) => r.index.entries.get(id)?.dto.cluster === c));
    expect(r.index.dtosOfCluster('a')).toEqual([]);
    expect(r.index.idsOfCluster('a-b')).toHaveLength(real.length - 1);
    void r.history.close();
  });
});

describe('FleetIndex and list pages', () => {
  it('indexes HPAs from their list page, and does not map them again when ListWatch announces the same objects', () => {
    const r = rig();
    const upserts = vi.spyOn(r.index as unknown as { upsertHpa: (cluster: string, o: KubeObject) => void }, 'upsertHpa');
    for (const o of real) r.index.apply('prod', 'hpas', 'listed', o);
    expect([...r.index.entries.keys()].sort()).toEqual(real.map(idOf).sort());
    expect(upserts).toHaveBeenCalledTimes(real.length);
    const version = r.index.version;
    // Were the same objects announced again once the whole list is in (an informer without pages does: the informer
    // of a keysOnly resource handed over page by page no longer does), they are not mapped again.
    for (const o of real) r.index.apply('prod', 'hpas', 'add', o);
    r.index.resync('prod', 'hpas', real);
    expect(upserts).toHaveBeenCalledTimes(real.length);
    expect(r.index.version).toBe(version);
    // A watch event is a new object: mapped.
    const [first] = real;
    if (!first) throw new Error('fixture is empty');
    const next = structuredClone(first);
    next.metadata.resourceVersion = `${first.metadata.resourceVersion ?? ''}9`;
    r.index.apply('prod', 'hpas', 'update', next);
    expect(upserts).toHaveBeenCalledTimes(real.length + 1);
    void r.history.close();
  });

  it("a relist's page maps only objects whose resourceVersion moved; other kinds wait for their whole list", () => {
    const r = rig();
    for (const o of real) r.index.apply('prod', 'hpas', 'listed', o);
    const upserts = vi.spyOn(r.index as unknown as { upsertHpa: (cluster: string, o: KubeObject) => void }, 'upsertHpa');
    const [changed, ...same] = real.map((o) => structuredClone(o));
    if (!changed) throw new Error('fixture is empty');
    changed.metadata.resourceVersion = `${changed.metadata.resourceVersion ?? ''}9`;
    (changed as unknown as HorizontalPodAutoscaler).spec.maxReplicas = 99;
    for (const o of [changed, ...same]) r.index.apply('prod', 'hpas', 'listed', o);
    expect(upserts).toHaveBeenCalledTimes(1);
    expect(r.index.entries.get(idOf(changed))?.dto.maxReplicas).toBe(99);
    const entries = r.index.size;
    r.index.apply('prod', 'mapiMachineSets', 'listed', structuredClone(real[0] as KubeObject));
    expect(r.index.size).toBe(entries);
    void r.history.close();
  });
});

describe('FleetIndex cross-object verdicts', () => {
  const items = (machineFixture as { items: KubeObject[] }).items;
  const byKind = (kind: string): KubeObject[] => items.filter((o) => o.kind === kind);
  function machineRig(listed: Set<ResourceKey>) {
    const objects = new Map<ResourceKey, KubeObject[]>([
      ['machineAutoscalers', byKind('MachineAutoscaler')],
      ['mapiMachineSets', byKind('MachineSet')],
      ['clusterAutoscalers', byKind('ClusterAutoscaler')],
    ]);
    const source: ClusterObjects = {
      // A resource that has not listed yet has an empty cache.
      objects: (r) => (listed.has(r) ? (objects.get(r) ?? []) : []),
      serves: (r) => objects.has(r),
      listed: (r) => listed.has(r),
    };
    const history = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'index-')), retentionDays: 30 });
    const index = new FleetIndex(
      history,
      () => source,
      () => undefined,
      () => new Date('2026-11-24T10:00:00.000Z'),
    );
    return { index, history };
  }
  const readyOf = (index: FleetIndex): Record<string, string> =>
    Object.fromEntries(
      [...index.entries.values()]
        .filter((e) => e.dto.kind === 'MachineAutoscaler')
        .map((e) => [e.dto.id, e.dto.conditions.map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).join(',')]),
    );

  it('MachineAutoscalers are not judged before their MachineSets have listed (no phantom TargetNotFound in history)', async () => {
    const listed = new Set<ResourceKey>(['machineAutoscalers', 'clusterAutoscalers']);
    const r = machineRig(listed);
    r.index.resync('ocp', 'machineAutoscalers', byKind('MachineAutoscaler'));
    r.index.runPending();
    expect(readyOf(r.index)).toEqual({});

    listed.add('mapiMachineSets');
    r.index.resync('ocp', 'mapiMachineSets', byKind('MachineSet'));
    r.index.runPending();

    const all = machineRig(new Set<ResourceKey>(['machineAutoscalers', 'clusterAutoscalers', 'mapiMachineSets']));
    all.index.resync('ocp', 'machineAutoscalers', byKind('MachineAutoscaler'));
    all.index.runPending();
    expect(Object.keys(readyOf(r.index))).toHaveLength(byKind('MachineAutoscaler').length);
    expect(readyOf(r.index)).toEqual(readyOf(all.index));
    for (const id of Object.keys(readyOf(r.index)))
      expect(await r.history.countTransitions(id)).toBe(await all.history.countTransitions(id));
    void r.history.close();
    void all.history.close();
  });
});

const listOf = (f: unknown): KubeObject[] => (f as { items: KubeObject[] }).items;

/**
 * A Karmada control plane from the fixtures, of whose resources those in `listed` have listed (the others' caches are
 * still empty), an index on it with a clock the test moves, and its first FederatedHPA with AbleToScale rewritten.
 */
function federationRig(listed: Set<ResourceKey>) {
  const objects = new Map<ResourceKey, KubeObject[]>([
    ['federatedHpas', listOf(karmadaFhpas)],
    ['resourceBindings', listOf(karmadaBindings)],
    ['propagationPolicies', listOf(karmadaPolicies)],
    ['karmadaClusters', listOf(karmadaClusters)],
  ]);
  const source: ClusterObjects = {
    objects: (r) => (listed.has(r) ? (objects.get(r) ?? []) : []),
    serves: (r) => objects.has(r),
    listed: (r) => listed.has(r),
  };
  let now = Date.parse('2026-11-24T10:00:00.000Z');
  const history = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'index-')), retentionDays: 30 });
  const index = new FleetIndex(
    history,
    () => source,
    () => undefined,
    () => new Date(now),
  );
  const fhpa = listOf(karmadaFhpas)[0] as KubeObject & { status: { conditions: { type: string; reason: string }[] } };
  const id = `karmada/FederatedHPA/${fhpa.metadata.namespace}/${fhpa.metadata.name}`;
  const withAbleToScale = (reason: string, rv?: string): KubeObject => ({
    ...fhpa,
    metadata: rv === undefined ? fhpa.metadata : { ...fhpa.metadata, resourceVersion: rv },
    status: { ...fhpa.status, conditions: fhpa.status.conditions.map((c) => (c.type === 'AbleToScale' ? { ...c, reason } : c)) },
  });
  return { index, history, objects, listed, fhpa, id, withAbleToScale, tick: (ms: number) => (now += ms) };
}

describe('FleetIndex FederatedHPAs', () => {
  it('two status writes of a FederatedHPA in quick succession both reach history (mapped at once, not debounced)', async () => {
    const { index, history, id, withAbleToScale } = federationRig(
      new Set<ResourceKey>(['federatedHpas', 'resourceBindings', 'propagationPolicies', 'karmadaClusters']),
    );
    index.resync('karmada', 'federatedHpas', listOf(karmadaFhpas));
    index.runPending();
    const before = await history.countTransitions(id);
    index.apply('karmada', 'federatedHpas', 'update', withAbleToScale('SucceededRescale'));
    index.apply('karmada', 'federatedHpas', 'update', withAbleToScale('ScaleDownStabilized'));
    index.runPending();
    expect(await history.countTransitions(id)).toBe(before + 2);
    void history.close();
  });
});

describe('FleetIndex FederatedHPAs before their inputs have listed', () => {
  it('every version that arrived while the bindings listed reaches history, in order, at its arrival time', async () => {
    const { index, history, objects, listed, id, withAbleToScale, tick } = federationRig(
      new Set<ResourceKey>(['federatedHpas', 'propagationPolicies', 'karmadaClusters']),
    );
    // The list, then two status writes, while the ResourceBindings are still listing (a retried 5xx).
    for (const o of listOf(karmadaFhpas)) index.apply('karmada', 'federatedHpas', 'update', o);
    index.resync('karmada', 'federatedHpas', listOf(karmadaFhpas));
    index.runPending();
    tick(1_000);
    index.apply('karmada', 'federatedHpas', 'update', withAbleToScale('SucceededRescale', '901'));
    tick(1_000);
    const last = withAbleToScale('ScaleDownStabilized', '902');
    index.apply('karmada', 'federatedHpas', 'update', last);
    objects.set('federatedHpas', [last, ...listOf(karmadaFhpas).slice(1)]);
    index.runPending();
    // Nothing is judged from a partial view.
    expect(index.entries.size).toBe(0);
    expect(await history.countTransitions(id)).toBe(0);

    tick(5_000);
    listed.add('resourceBindings');
    index.resync('karmada', 'resourceBindings', listOf(karmadaBindings));
    // A write that arrives before the debounced recomputation: mapped at once, after what was held.
    tick(1_000);
    const newest = withAbleToScale('SucceededGetScale', '903');
    objects.set('federatedHpas', [newest, ...listOf(karmadaFhpas).slice(1)]);
    index.apply('karmada', 'federatedHpas', 'update', newest);
    index.runPending();
    expect(index.entries.get(id)?.dto.conditions.find((c) => c.type === 'AbleToScale')?.reason).toBe('SucceededGetScale');
    const ableToScale = (await history.latestTransitions(100, 'karmada'))
      .filter((t) => t.id === id && t.type === 'AbleToScale')
      .reverse()
      .map((t) => `${t.reason} ${t.at}`);
    expect(ableToScale).toEqual([
      // First sight: the segment starts at the condition's lastTransitionTime.
      'ReadyForNewScale 2026-10-31T12:00:00.000Z',
      'SucceededRescale 2026-11-24T10:00:01.000Z',
      'ScaleDownStabilized 2026-11-24T10:00:02.000Z',
      'SucceededGetScale 2026-11-24T10:00:08.000Z',
    ]);
    // Every FederatedHPA of the list is mapped once its inputs are whole.
    expect(index.entries.size).toBe(listOf(karmadaFhpas).length);
    void history.close();
  });
});

describe('FleetIndex FederatedHPAs of a cluster no longer watched', () => {
  it('versions held while another replica took the lease are not mapped when the cluster comes back', async () => {
    const { index, history, listed, fhpa, id } = federationRig(
      new Set<ResourceKey>(['federatedHpas', 'propagationPolicies', 'karmadaClusters']),
    );
    const old = {
      ...fhpa,
      status: { ...fhpa.status, conditions: fhpa.status.conditions.map((c) => ({ ...c, reason: 'SucceededRescale' })) },
    };
    index.apply('karmada', 'federatedHpas', 'update', old);
    // The lease goes to another replica before the bindings listed; later this replica watches the cluster again.
    index.stopHolding('karmada');
    listed.add('resourceBindings');
    index.resync('karmada', 'resourceBindings', listOf(karmadaBindings));
    index.runPending();
    const reasons = (await history.latestTransitions(100, 'karmada')).filter((t) => t.id === id).map((t) => t.reason);
    expect(reasons).not.toContain('SucceededRescale');
    expect(index.entries.get(id)?.dto.conditions.find((c) => c.type === 'AbleToScale')?.reason).toBe('ReadyForNewScale');
    void history.close();
  });
});

describe('FleetIndex.refreshAll', () => {
  it('re-maps in slices with the event loop free between them, and never brings back an older object', async () => {
    const r = rig();
    relist(r.index, real);
    const target = real[real.length - 1] as unknown as HorizontalPodAutoscaler;
    const id = idOf(target);
    r.tick(20 * 60_000);
    const pass = r.index.refreshAll(1);
    expect(r.index.refreshAll(1)).toBe(pass);
    // The pass yields after each HPA: the watch delivers a newer version of the last one meanwhile.
    let turns = 0;
    while (turns < 2) {
      await new Promise((resolve) => setImmediate(resolve));
      turns += 1;
    }
    const newer = structuredClone(target);
    newer.metadata.resourceVersion = '999999';
    newer.spec.maxReplicas += 7;
    r.index.apply('prod', 'hpas', 'update', newer);
    await pass;
    expect(r.index.entries.get(id)?.held.resourceVersion).toBe('999999');
    expect(r.index.entries.get(id)?.dto.maxReplicas).toBe(newer.spec.maxReplicas);
    void r.history.close();
  });

  it('re-maps only what a time-based rule can move, and ends where re-mapping every HPA ends', async () => {
    for (const minutes of [1, 20, 24 * 60]) {
      const pass = rig();
      relist(pass.index, real);
      pass.tick(minutes * 60_000);
      await pass.index.refreshAll(7);
      // The same fleet, every HPA re-mapped at the same instant (as the watch's update of each would: a new version each).
      const all = rig();
      relist(all.index, real);
      all.tick(minutes * 60_000);
      for (const o of real) all.index.apply('prod', 'hpas', 'update', rewritten(o));
      expect(dtosOf(pass.index)).toEqual(dtosOf(all.index));
      void pass.history.close();
      void all.history.close();
    }
  });

  it('one pass after another, each at its minute: the instants noted after a re-map are right too', async () => {
    const pass = rig();
    const all = rig();
    // Seen at 10:00:30, a mismatch becomes a problem at 10:15:30: the pass at 10:15:15 must leave it for the next
    // pass (10:15:45), which must not miss it.
    pass.tick(30_000);
    all.tick(30_000);
    relist(pass.index, real);
    relist(all.index, real);
    for (const minutes of [1, 1, 12.25, 0.5, 0.5, 45, 15, 24 * 60, 1]) {
      pass.tick(minutes * 60_000);
      all.tick(minutes * 60_000);
      await pass.index.refreshAll(3);
      for (const o of real) all.index.apply('prod', 'hpas', 'update', rewritten(o));
      expect(dtosOf(pass.index), `after ${minutes} min`).toEqual(dtosOf(all.index));
    }
    void pass.history.close();
    void all.history.close();
  });

  it('a pass at the very instant a rule flips re-maps the HPA (instants are kept in whole seconds, never rounded later)', async () => {
    const pass = rig();
    const all = rig();
    // Seen at 10:00:30.250, a mismatch becomes a problem at 10:15:30.250, exactly when the pass runs.
    pass.tick(30_250);
    all.tick(30_250);
    relist(pass.index, real);
    relist(all.index, real);
    const before = dtosOf(pass.index);
    pass.tick(15 * 60_000);
    all.tick(15 * 60_000);
    await pass.index.refreshAll(3);
    for (const o of real) all.index.apply('prod', 'hpas', 'update', rewritten(o));
    expect(dtosOf(pass.index)).toEqual(dtosOf(all.index));
    // The instant did move something: the pass had work to do.
    expect(dtosOf(all.index)).not.toEqual(before);
    void pass.history.close();
    void all.history.close();
  });

  it('an HPA whose mismatch starts over and over: only its last instant counts, and every other HPA keeps its own', async () => {
    const target = structuredClone(real[0]) as unknown as HorizontalPodAutoscaler;
    const id = idOf(target);
    const status = target.status ?? {};
    const desired = status.desiredReplicas ?? 1;
    const version = (current: number) =>
      ({ ...rewritten(target), status: { ...status, currentReplicas: current } }) as unknown as KubeObject;
    const flapped = () => {
      const r = rig();
      relist(r.index, real);
      // Each new mismatch notes a new instant (its start + 15 min) in place of the one before.
      for (let i = 0; i < 3_000; i++) {
        r.tick(1_000);
        r.index.apply('prod', 'hpas', 'update', version(i % 2 === 0 ? desired + 1 : desired));
      }
      r.index.apply('prod', 'hpas', 'update', version(desired + 1));
      return r;
    };
    const pass = flapped();
    const all = flapped();
    const problemsOf = (r: ReturnType<typeof rig>) => r.index.entries.get(id)?.dto.problems.map((p) => p.code);
    pass.tick(14 * 60_000);
    await pass.index.refreshAll();
    expect(problemsOf(pass)).not.toContain('ReplicasMismatch');
    pass.tick(61_000);
    await pass.index.refreshAll();
    expect(problemsOf(pass)).toContain('ReplicasMismatch');
    // And every other HPA ends as a re-map of all of them would leave it.
    all.tick(15 * 60_000 + 1_000);
    for (const o of real.slice(1)) all.index.apply('prod', 'hpas', 'update', rewritten(o));
    all.index.apply('prod', 'hpas', 'update', version(desired + 1));
    expect(dtosOf(pass.index)).toEqual(dtosOf(all.index));
    void pass.history.close();
    void all.history.close();
  });

  it('stops between slices once halted', async () => {
    // Twenty minutes on, a pass changes the DTOs whose time-based rules moved (replicas mismatch ≥ 15 min, …).
    const full = rig();
    relist(full.index, real);
    full.changed.length = 0;
    full.tick(20 * 60_000);
    await full.index.refreshAll(1);
    expect(full.changed.length).toBeGreaterThan(1);
    void full.history.close();

    const r = rig();
    relist(r.index, real);
    r.changed.length = 0;
    r.tick(20 * 60_000);
    const pass = r.index.refreshAll(1);
    r.index.halt();
    await pass;
    // Only the first slice (one HPA), which ran before the pass first yielded.
    expect(r.changed.length).toBeLessThanOrEqual(1);
    void r.history.close();
  });
});
