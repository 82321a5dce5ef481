import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { ObjectStore } from './store';

function obj(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name, namespace: 'ns' } };
}

function fakeClock(): { now: () => Date; advance: (ms: number) => void } {
  let t = Date.parse('2026-01-01T00:00:00Z');
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

describe('ObjectStore event windows (the watch cache: per resource, 75 s, 100 … 102,400 events)', () => {
  it('keeps a quiet resource resumable while a busy one churns', () => {
    const clock = fakeClock();
    const store = new ObjectStore({ now: clock.now });
    const hpa = store.create('hpas', obj('web'));
    for (let i = 0; i < 5000; i++) {
      store.create('events', obj(`e-${i}`));
      clock.advance(10);
    }
    // 50 s of Events later, the HPA's resourceVersion still resumes and replays nothing new.
    expect(store.eventsSince('hpas', Number(hpa.metadata.resourceVersion))).toEqual([]);
    store.update('hpas', { ...hpa, spec: { replicas: 2 } });
    expect(store.eventsSince('hpas', Number(hpa.metadata.resourceVersion))?.map((e) => e.type)).toEqual(['MODIFIED']);
  });

  it('keeps the last 75 s, and at least 100 events, then answers too old', () => {
    const clock = fakeClock();
    const store = new ObjectStore({ now: clock.now });
    const first = store.create('hpas', obj('a'));
    for (let i = 0; i < 150; i++) {
      clock.advance(1000);
      store.update('hpas', { ...store.get('hpas', 'ns', 'a')!, spec: { i } });
    }
    // 150 s and 151 events: those older than 75 s are gone, so the first one's version is too old.
    expect(store.eventsSince('hpas', Number(first.metadata.resourceVersion))).toBeNull();
    const oldest = store.oldestResumable('hpas');
    expect(store.eventsSince('hpas', oldest)?.length).toBe(100);

    // Slow changes: 100 events kept however old they are.
    const slow = new ObjectStore({ now: clock.now });
    const created = slow.create('hpas', obj('b'));
    for (let i = 0; i < 99; i++) {
      clock.advance(3_600_000);
      slow.update('hpas', { ...slow.get('hpas', 'ns', 'b')!, spec: { i } });
    }
    expect(slow.eventsSince('hpas', Number(created.metadata.resourceVersion) - 1)?.length).toBe(100);
  });

  it('never keeps more than its cap, however fresh', () => {
    const store = new ObjectStore({ retainedEvents: 50 });
    const first = store.create('hpas', obj('a'));
    for (let i = 0; i < 60; i++) store.update('hpas', { ...store.get('hpas', 'ns', 'a')!, spec: { i } });
    expect(store.eventsSince('hpas', Number(first.metadata.resourceVersion))).toBeNull();
    expect(store.eventsSince('hpas', store.oldestResumable('hpas'))?.length).toBe(50);
  });
});
