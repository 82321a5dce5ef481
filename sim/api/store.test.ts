import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { kubeTime, kubeTimeAt, ObjectStore } from './store';

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

describe('kubeTime (metav1.Time: RFC 3339, whole seconds)', () => {
  it('formats each instant as its second, the same from the cache as the first time', () => {
    const instants = [
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse('2026-01-01T00:00:00.999Z'),
      Date.parse('2026-01-01T00:00:01.000Z'),
      0,
      1_799_999_999_500,
    ];
    const expected = [
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:01Z',
      '1970-01-01T00:00:00Z',
      '2027-01-15T07:59:59Z',
    ];
    for (let pass = 0; pass < 2; pass++) {
      expect(instants.map((ms) => kubeTimeAt(ms))).toEqual(expected);
      expect(instants.map((ms) => kubeTime(new Date(ms)))).toEqual(expected);
    }
  });

  it("stays right past the cache's bound", () => {
    const start = Date.parse('2026-03-01T00:00:00Z');
    for (let s = 0; s < 70_000; s++) kubeTimeAt(start + s * 1000);
    expect(kubeTimeAt(start)).toBe('2026-03-01T00:00:00Z');
    expect(kubeTimeAt(start + 69_999_000 + 400)).toBe(new Date(start + 69_999_000).toISOString().replace('.000Z', 'Z'));
  });
});
