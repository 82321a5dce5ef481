import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-us.hpa.json';
import { HeldAsIs, HeldDictionary, HeldJson } from './held-object';

const hpa = (fixture as { items: KubeObject[] }).items[0] as KubeObject;

describe('HeldJson', () => {
  it('gives back the object it was made from, a new copy each time', () => {
    const dictionary = new HeldDictionary();
    const held = new HeldJson(hpa, 0, dictionary);
    expect(held.object()).toEqual(hpa);
    expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
    const first = held.object();
    (first.spec as { maxReplicas: number }).maxReplicas = -1;
    expect(held.object()).toEqual(hpa);
    expect(held.object()).not.toBe(held.object());
  });

  it('keeps text that is not ASCII byte for byte (its bytes are UTF-8, longer than the string)', () => {
    const dictionary = new HeldDictionary();
    const named = { ...hpa, metadata: { ...hpa.metadata, annotations: { note: 'équipe paiements — 支払い 🚀' } } };
    const held = new HeldJson(named, 0, dictionary);
    expect(held.settled).toBe(false);
    expect(held.object()).toEqual(named);
    expect(held.size).toBe(Buffer.byteLength(JSON.stringify(named)));
    expect(held.size).toBeGreaterThan(JSON.stringify(named).length);
  });

  it('settled (deflated against a dictionary of the first HPAs settled) it reads back the same, in a quarter of the bytes', () => {
    const items = (fixture as { items: KubeObject[] }).items;
    const dictionary = new HeldDictionary();
    const held = items.map((o) => new HeldJson(o, 0, dictionary));
    const plain = held.map((h) => h.size);
    for (const h of held) h.settle(held);
    expect(held.every((h) => h.settled)).toBe(true);
    expect(held.map((h) => h.object())).toEqual(items);
    const sum = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);
    expect(sum(held.map((h) => h.size))).toBeLessThan(sum(plain) / 4);
    // Once only: settling again changes nothing.
    const size = held[0]?.size;
    held[0]?.settle();
    expect(held[0]?.size).toBe(size);
    // One settled later, with text the dictionary has never seen, still reads back byte for byte.
    const named = { ...hpa, metadata: { ...hpa.metadata, name: 'zahlungsdienst-größe', annotations: { note: '支払い 🚀' } } };
    const late = new HeldJson(named, 0, dictionary);
    late.settle();
    expect(late.object()).toEqual(named);
    expect((late as unknown as { bytes: ArrayBuffer }).bytes.byteLength).toBe(late.size);
  });

  it('once its dictionary is made (by a first settle), a new version is written deflated and reads back the same', () => {
    const dictionary = new HeldDictionary();
    new HeldJson(hpa, 0, dictionary).settle();
    const plainSize = Buffer.byteLength(JSON.stringify(hpa));
    const held = new HeldJson(hpa, 0, dictionary);
    expect(held.settled).toBe(true);
    expect(held.size).toBeLessThan(plainSize / 4);
    expect(held.object()).toEqual(hpa);
    const named = { ...hpa, metadata: { ...hpa.metadata, name: 'équipe-支払い', annotations: { note: '🚀'.repeat(3000) } } };
    expect(new HeldJson(named, 0, dictionary).object()).toEqual(named);
  });

  it('is not a slice of a shared pool: it holds its own bytes only', () => {
    const dictionary = new HeldDictionary();
    const held = new HeldJson(hpa, 0, dictionary);
    const bytes = (held as unknown as { bytes: ArrayBuffer }).bytes;
    expect(bytes).toBeInstanceOf(ArrayBuffer);
    expect(bytes.byteLength).toBe(held.size);
  });

  it('knows when it was written, to the second', () => {
    const dictionary = new HeldDictionary();
    const at = Date.parse('2026-11-28T09:30:00.000Z');
    expect(new HeldJson(hpa, at, dictionary).writtenAt).toBe(at);
    expect(new HeldJson(hpa, at + 999, dictionary).writtenAt).toBe(at);
    expect(new HeldJson(hpa, at + 1000, dictionary).writtenAt).toBe(at + 1000);
  });
});

describe('HeldAsIs', () => {
  it('gives back the very object', () => {
    const held = new HeldAsIs(hpa);
    expect(held.object()).toBe(hpa);
    expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
  });
});
