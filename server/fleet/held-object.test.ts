import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-us.hpa.json';
import { MAX_WAITING } from './held-compressor';
import { DICTIONARY_SAMPLES, HeldAsIs, HeldDictionary, HeldJson } from './held-object';

const items = (fixture as { items: KubeObject[] }).items;
const hpa = items[0] as KubeObject;
const plainSize = (o: KubeObject) => Buffer.byteLength(JSON.stringify(o));

/** A dictionary made from the fixture's first HPAs, as an index makes one from the first it writes. */
function madeDictionary(options?: ConstructorParameters<typeof HeldDictionary>[0]): HeldDictionary {
  const dictionary = new HeldDictionary(options);
  for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, dictionary);
  return dictionary;
}

describe('HeldJson', () => {
  it('gives back the object it was made from, a new copy each time', () => {
    for (const dictionary of [new HeldDictionary(), madeDictionary()]) {
      const held = new HeldJson(hpa, dictionary);
      expect(held.object()).toEqual(hpa);
      expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
      const first = held.object();
      (first.spec as { maxReplicas: number }).maxReplicas = -1;
      expect(held.object()).toEqual(hpa);
      expect(held.object()).not.toBe(held.object());
    }
  });

  it('the first HPAs written stay JSON and make the dictionary; every later one is deflated, in under a quarter of the bytes', () => {
    const dictionary = new HeldDictionary();
    const first = items.slice(0, DICTIONARY_SAMPLES).map((o) => new HeldJson(o, dictionary));
    expect(first.map((h) => [h.deflated, h.size])).toEqual(items.slice(0, DICTIONARY_SAMPLES).map((o) => [false, plainSize(o)]));
    expect(dictionary.bytes?.length).toBe(first.reduce((n, h) => n + h.size, 0));
    const later = items.slice(DICTIONARY_SAMPLES).map((o) => new HeldJson(o, dictionary));
    expect(later.length).toBeGreaterThan(5);
    expect(later.every((h) => h.deflated)).toBe(true);
    expect(later.map((h) => h.object())).toEqual(items.slice(DICTIONARY_SAMPLES));
    expect(first.map((h) => h.object())).toEqual(items.slice(0, DICTIONARY_SAMPLES));
    const sum = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);
    expect(sum(later.map((h) => h.size))).toBeLessThan(sum(items.slice(DICTIONARY_SAMPLES).map(plainSize)) / 4);
  });

  it('keeps text that is not ASCII byte for byte, plain and deflated, and objects longer than zlib’s window', () => {
    const named = {
      ...hpa,
      metadata: { ...hpa.metadata, name: 'zahlungsdienst-größe', annotations: { note: 'équipe paiements — 支払い 🚀' } },
    };
    const plain = new HeldJson(named, new HeldDictionary());
    expect(plain.deflated).toBe(false);
    expect(plain.object()).toEqual(named);
    expect(plain.size).toBe(plainSize(named));
    expect(plain.size).toBeGreaterThan(JSON.stringify(named).length);
    const dictionary = madeDictionary();
    expect(new HeldJson(named, dictionary).object()).toEqual(named);
    const long = { ...hpa, metadata: { ...hpa.metadata, annotations: { note: '🚀'.repeat(20_000) } } };
    const packed = new HeldJson(long, dictionary);
    expect(packed.deflated).toBe(true);
    expect(packed.object()).toEqual(long);
  });

  it('two indexes never share a dictionary: each reads back its own objects', () => {
    const a = new HeldDictionary();
    const b = new HeldDictionary();
    for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, a);
    for (const o of items.slice(-DICTIONARY_SAMPLES)) new HeldJson(o, b);
    expect(a.bytes?.equals(b.bytes as Buffer)).toBe(false);
    const other = items[DICTIONARY_SAMPLES] as KubeObject;
    expect([new HeldJson(other, a).object(), new HeldJson(other, b).object()]).toEqual([other, other]);
  });

  it('holds plain bytes as its own allocation, not a slice of a shared pool, and deflated ones in its dictionary’s arena', () => {
    const plain = new HeldJson(hpa, new HeldDictionary());
    const own = (plain as unknown as { bytes: ArrayBuffer }).bytes;
    expect(own).toBeInstanceOf(ArrayBuffer);
    expect(own.byteLength).toBe(plain.size);
    const dictionary = madeDictionary();
    const before = { ...dictionary.arena.counts };
    const packed = items.slice(DICTIONARY_SAMPLES).map((o) => new HeldJson(o, dictionary));
    expect(packed.every((h) => !((h as unknown as { bytes: unknown }).bytes instanceof ArrayBuffer))).toBe(true);
    // One slab for all of them, back to back.
    expect(dictionary.arena.counts).toEqual(before);
    expect(packed.map((h) => h.at)).toEqual(packed.map((_, i) => packed.slice(0, i).reduce((n, h) => n + h.size, 0)));
  });

  it('every version reads the same as slabs fill and are emptied, a retired one included', () => {
    // Slabs of ~16 deflated HPAs, so that replacing versions empties them.
    const dictionary = madeDictionary({ slabBytes: 4096 });
    const version = (name: string, v: number) => ({ ...hpa, metadata: { ...hpa.metadata, name, resourceVersion: String(v) } });
    const names = Array.from({ length: 40 }, (_, i) => `hpa-${i}`);
    const current = new Map(names.map((n) => [n, new HeldJson(version(n, 0), dictionary)]));
    const retired: [HeldJson, KubeObject, number][] = [];
    for (let v = 1; v <= 5; v++)
      for (const [i, n] of names.entries()) {
        if ((i + v) % 3 === 0) continue;
        const before = current.get(n) as HeldJson;
        before.retire();
        retired.push([before, before.object(), before.at]);
        current.set(n, new HeldJson(version(n, v), dictionary));
      }
    expect(dictionary.arena.counts.emptied).toBeGreaterThan(0);
    for (const [n, held] of current) expect(held.object().metadata.name).toBe(n);
    expect([...current.values()].map((h) => h.object())).toEqual(
      [...current.values()].map((h) => version(h.object().metadata.name, Number(h.resourceVersion))),
    );
    for (const [held, read] of retired) expect(held.object()).toEqual(read);
    // A retired version left its slot: an emptied slab moves only the versions still held (a moved one's `at` changes).
    expect(retired.filter(([held, , at]) => held.at !== at)).toEqual([]);
    // What the arena keeps is what the current versions need, to within the slab being filled and the half-dead ones.
    const live = [...current.values()].reduce((n, h) => n + h.size, 0);
    expect(dictionary.arena.counts.bytes).toBeLessThanOrEqual(2.5 * live + 4096);
    const old = current.get('hpa-0') as HeldJson;
    old.retire();
    old.retire();
    expect(old.retired).toBe(true);
  });
});

describe('HeldAsIs', () => {
  it('gives back the very object', () => {
    const held = new HeldAsIs(hpa);
    expect(held.object()).toBe(hpa);
    expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
  });
});

describe('HeldJson deflated by the compressor thread', () => {
  const settled = async (dictionary: HeldDictionary) => {
    for (let i = 0; i < 500 && (dictionary.compressor?.pending ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('is held as its plain bytes until the thread answers, reads back the same throughout, and is counted once it is deflated', async () => {
    const told: [HeldJson, number][] = [];
    const dictionary = new HeldDictionary({ thread: true, onDeflated: (h, plain) => told.push([h, plain]) });
    const first = items.slice(0, DICTIONARY_SAMPLES).map((o) => new HeldJson(o, dictionary));
    expect(first.every((h) => !h.deflated && !h.waiting)).toBe(true);
    const later = items.slice(DICTIONARY_SAMPLES).map((o) => new HeldJson(o, dictionary));
    expect(later.map((h) => [h.waiting, h.deflated, h.size])).toEqual(
      items.slice(DICTIONARY_SAMPLES).map((o) => [true, false, plainSize(o)]),
    );
    expect(later.map((h) => h.object())).toEqual(items.slice(DICTIONARY_SAMPLES));
    // One replaced before the thread answers: it keeps its plain bytes, and is not counted.
    (later[0] as HeldJson).retire();
    await settled(dictionary);
    expect(later.map((h) => [h.deflated, h.waiting])).toEqual(later.map((_, i) => [i > 0, false]));
    expect(later.map((h) => h.object())).toEqual(items.slice(DICTIONARY_SAMPLES));
    expect(told).toEqual(later.slice(1).map((h, i) => [h, plainSize(items[DICTIONARY_SAMPLES + 1 + i] as KubeObject)]));
    // The same bytes the event loop would have made.
    const here = madeDictionary();
    expect(later.slice(1).map((h) => h.size)).toEqual(items.slice(DICTIONARY_SAMPLES + 1).map((o) => new HeldJson(o, here).size));
    await dictionary.stop();
  });

  it('past MAX_WAITING versions waiting, the next are deflated on the event loop as they are written', async () => {
    const dictionary = new HeldDictionary({ thread: true });
    for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, dictionary);
    const named = (i: number) => ({ ...hpa, metadata: { ...hpa.metadata, name: `burst-${i}` } });
    const burst = Array.from({ length: MAX_WAITING + 10 }, (_, i) => new HeldJson(named(i), dictionary));
    expect(burst.filter((h) => h.waiting).length).toBe(MAX_WAITING);
    expect(burst.slice(MAX_WAITING).every((h) => h.deflated && !h.waiting)).toBe(true);
    expect(burst.slice(MAX_WAITING).map((h) => h.object())).toEqual(Array.from({ length: 10 }, (_, i) => named(MAX_WAITING + i)));
    await settled(dictionary);
    expect(burst.every((h) => h.deflated)).toBe(true);
    expect(burst[0]?.object()).toEqual(named(0));
    await dictionary.stop();
  });

  it('deferred until the index is whole: every version kept plain and unsent, past MAX_WAITING too; then all deflated by the thread', async () => {
    const dictionary = new HeldDictionary({ thread: true, maxDeferred: MAX_WAITING + 20 });
    dictionary.deferDeflating();
    for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, dictionary);
    const named = (i: number) => ({ ...hpa, metadata: { ...hpa.metadata, name: `cold-${i}` } });
    const cold = Array.from({ length: MAX_WAITING + 30 }, (_, i) => new HeldJson(named(i), dictionary));
    const compressor = dictionary.compressor as NonNullable<HeldDictionary['compressor']>;
    // Past `maxDeferred`, versions go to the thread as they would without the deferral: these last ten do.
    expect(cold.slice(0, MAX_WAITING + 20).every((h) => h.waiting && !h.deflated)).toBe(true);
    expect(compressor.deferredCount).toBe(MAX_WAITING + 20);
    for (let i = 0; i < 500 && cold.slice(MAX_WAITING + 20).some((h) => !h.deflated); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cold.slice(MAX_WAITING + 20).every((h) => h.deflated)).toBe(true);
    // Nothing deferred was sent: still plain, and reading the same.
    await new Promise((r) => setTimeout(r, 50));
    expect(cold.slice(0, MAX_WAITING + 20).every((h) => h.waiting && !h.deflated)).toBe(true);
    expect(cold.map((h) => h.object())).toEqual(cold.map((_, i) => named(i)));
    dictionary.endDeferral();
    // Sent a batch at a time as the thread answers: two batches of 512 at once.
    expect(compressor.deferredCount).toBe(MAX_WAITING + 20 - 2 * 512);
    // The churn's versions go on to the thread while the deferred ones are sent, not to the event loop.
    const churn = new HeldJson(named(-1), dictionary);
    expect(churn.waiting).toBe(true);
    await settled(dictionary);
    expect(compressor.deferredCount).toBe(0);
    expect([...cold, churn].every((h) => h.deflated && !h.waiting)).toBe(true);
    expect(cold.map((h) => h.object())).toEqual(cold.map((_, i) => named(i)));
    await dictionary.stop();
  });

  it('a failed thread deflates what was deferred on the event loop', async () => {
    const errors: Error[] = [];
    const dictionary = new HeldDictionary({ thread: true, onThreadError: (e) => errors.push(e) });
    dictionary.deferDeflating();
    for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, dictionary);
    const compressor = dictionary.compressor as NonNullable<HeldDictionary['compressor']>;
    const held = items.map((o) => new HeldJson(o, dictionary));
    expect(held.every((h) => h.waiting)).toBe(true);
    (compressor as unknown as { thread: { post(m: unknown): void } }).thread.post('not a batch');
    for (let i = 0; i < 500 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(errors).toHaveLength(1);
    expect(held.every((h) => h.deflated && !h.waiting)).toBe(true);
    expect(held.map((h) => h.object())).toEqual(items);
    expect(compressor.pending).toBe(0);
  });

  it('once the thread has failed, what it was given is deflated on the event loop', async () => {
    const errors: Error[] = [];
    const dictionary = new HeldDictionary({ thread: true, onThreadError: (e) => errors.push(e) });
    for (const o of items.slice(0, DICTIONARY_SAMPLES)) new HeldJson(o, dictionary);
    const compressor = dictionary.compressor as NonNullable<HeldDictionary['compressor']>;
    const held = new HeldJson(hpa, dictionary);
    expect(held.waiting).toBe(true);
    // A message the thread cannot read, ahead of the batch queued for this turn: it fails.
    (compressor as unknown as { thread: { post(m: unknown): void } }).thread.post('not a batch');
    for (let i = 0; i < 500 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('held HPA compressor')]);
    expect(held.deflated).toBe(true);
    expect(held.object()).toEqual(hpa);
    const after = new HeldJson(hpa, dictionary);
    expect(after.deflated).toBe(true);
    expect(after.object()).toEqual(hpa);
  });
});
