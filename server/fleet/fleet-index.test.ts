import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-eu-west-1.hpa.json';
import { HistoryStore } from '../history/history-store';
import type { ResourceKey } from '../watch/resources';
import type { ClusterObjects } from './fleet-index';
import { FleetIndex } from './fleet-index';

const real = (fixture as { items: HorizontalPodAutoscaler[] }).items as unknown as KubeObject[];

function rig() {
  let now = Date.parse('2026-11-23T10:00:00.000Z');
  const objects = new Map<ResourceKey, KubeObject[]>([['hpas', real]]);
  const source: ClusterObjects = { objects: (r) => objects.get(r) ?? [], serves: (r) => objects.has(r) };
  const history = new HistoryStore({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'index-')), retentionDays: 30 });
  const changed: string[] = [];
  const index = new FleetIndex(
    history,
    () => source,
    (ids) => changed.push(...ids),
    () => new Date(now),
  );
  return { index, history, changed, objects, tick: (ms: number) => (now += ms) };
}

const idOf = (o: KubeObject): string => `prod/HorizontalPodAutoscaler/${o.metadata.namespace}/${o.metadata.name}`;

describe('FleetIndex.resync', () => {
  it('a relist of the same objects changes nothing: no removal, no history row, every since kept', () => {
    const r = rig();
    r.index.resync('prod', 'hpas', real);
    const ids = [...r.index.entries.keys()].sort();
    expect(ids).toEqual(real.map(idOf).sort());
    const since = ids.map((id) => r.history.conditionSince(id));
    const rows = ids.map((id) => r.history.countTransitions(id));
    r.changed.length = 0;
    r.tick(60_000);
    r.index.resync(
      'prod',
      'hpas',
      real.map((o) => structuredClone(o)),
    );
    expect([...r.index.entries.keys()].sort()).toEqual(ids);
    expect(ids.map((id) => r.history.conditionSince(id))).toEqual(since);
    expect(ids.map((id) => r.history.countTransitions(id))).toEqual(rows);
    expect(r.changed).toEqual([]);
    r.history.close();
  });

  it('a relist that really returns fewer objects deletes exactly those', () => {
    const r = rig();
    r.index.resync('prod', 'hpas', real);
    const [gone, ...kept] = real;
    if (!gone) throw new Error('fixture is empty');
    r.tick(60_000);
    r.index.resync('prod', 'hpas', kept);
    expect(r.index.entries.has(idOf(gone))).toBe(false);
    expect([...r.index.entries.keys()].sort()).toEqual(kept.map(idOf).sort());
    expect(r.history.firstSeen(idOf(gone))).toBeNull();
    expect(kept.every((o) => r.history.firstSeen(idOf(o)) !== null)).toBe(true);
    r.history.close();
  });
});
