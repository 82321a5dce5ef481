import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import { jsonWithRows, preparedBody, rowJson } from './row-json';

describe('jsonWithRows', () => {
  it('answers the JSON that Response.json would, for any rows and fields beside them', async () => {
    const all = fleet();
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(all),
        fc.dictionary(
          fc.string().filter((k) => k !== 'items'),
          fc.jsonValue(),
        ),
        async (items, rest) => {
          const value = { items, ...rest };
          const res = jsonWithRows(value);
          expect(res.headers.get('content-type')).toBe('application/json');
          // What the fast path writes without reading the stream is what the stream holds.
          const prepared = preparedBody(res)?.toString('utf8');
          const text = await res.text();
          expect(prepared).toBe(text);
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('has no prepared body for a response it did not make', () => {
    expect(preparedBody(Response.json({ items: [] }))).toBeUndefined();
  });

  it('serializes a stored DTO once and reuses its text', () => {
    const dto = fleet()[0] as Autoscaler;
    const first = rowJson(dto);
    expect(rowJson(dto)).toBe(first);
    expect(rowJson({ ...dto })).toBe(first);
    expect(first).toBe(JSON.stringify(dto));
  });
});
