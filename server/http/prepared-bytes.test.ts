import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PreparedBytes } from './prepared-bytes';

const page = (): Buffer<ArrayBuffer> =>
  Buffer.from(
    JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: `c/HorizontalPodAutoscaler/ns/svc-${i}`, health: 'ok' })) }),
  );

describe('PreparedBytes', () => {
  it('gives the plain bytes as made until their gzip is made, then keeps only the gzip and inflates it for plain readers', async () => {
    const plain = page();
    const prepared = new PreparedBytes(plain);
    expect(prepared.bytes()).toBe(plain);
    const [zipped, again] = await Promise.all([prepared.gzip(), prepared.gzip()]);
    // Made once, for every request the answer goes to.
    expect(again).toBe(zipped);
    expect(await prepared.gzip()).toBe(zipped);
    expect(gunzipSync(zipped).equals(plain)).toBe(true);
    expect(zipped.length).toBeLessThan(plain.length / 4);
    // The plain bytes are no longer held: a plain reader gets them inflated, equal to what was made.
    const read = prepared.bytes();
    expect(read).not.toBe(plain);
    expect(read.equals(plain)).toBe(true);
    expect(prepared.length).toBe(plain.length);
  });

  it('keeps the plain bytes while the gzip is being made', async () => {
    const plain = page();
    const prepared = new PreparedBytes(plain);
    const zipping = prepared.gzip();
    expect(prepared.bytes()).toBe(plain);
    await zipping;
    expect(prepared.bytes()).not.toBe(plain);
  });
});
