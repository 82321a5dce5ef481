import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-us.hpa.json';
import { HeldAsIs, HeldJson } from './held-object';

const hpa = (fixture as { items: KubeObject[] }).items[0] as KubeObject;

describe('HeldJson', () => {
  it('gives back the object it was made from, a new copy each time', () => {
    const held = new HeldJson(hpa);
    expect(held.object()).toEqual(hpa);
    expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
    const first = held.object();
    (first.spec as { maxReplicas: number }).maxReplicas = -1;
    expect(held.object()).toEqual(hpa);
    expect(held.object()).not.toBe(held.object());
  });

  it('keeps text that is not ASCII byte for byte (its bytes are UTF-8, longer than the string)', () => {
    const named = { ...hpa, metadata: { ...hpa.metadata, annotations: { note: 'équipe paiements — 支払い 🚀' } } };
    const held = new HeldJson(named);
    expect(held.object()).toEqual(named);
    expect(held.size).toBe(Buffer.byteLength(JSON.stringify(named)));
    expect(held.size).toBeGreaterThan(JSON.stringify(named).length);
  });

  it('is not a slice of a shared pool: it holds its own bytes only', () => {
    const held = new HeldJson(hpa) as unknown as { bytes: Buffer };
    expect(held.bytes.buffer.byteLength).toBe(held.bytes.length);
  });
});

describe('HeldAsIs', () => {
  it('gives back the very object', () => {
    const held = new HeldAsIs(hpa);
    expect(held.object()).toBe(hpa);
    expect(held.resourceVersion).toBe(hpa.metadata.resourceVersion);
  });
});
