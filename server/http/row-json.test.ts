import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import { jsonWithRows, preparedBody, rowJson, withPreparedBody } from './row-json';

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
          // The fast path writes the prepared bytes; anyone else gets a response with those bytes as its body.
          const prepared = preparedBody(res)?.toString('utf8');
          const real = withPreparedBody(res);
          expect(real.status).toBe(200);
          expect(real.headers.get('content-type')).toBe('application/json');
          expect(real.headers.get('cache-control')).toBe('no-store');
          const text = await real.text();
          expect(prepared).toBe(text);
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('has no prepared body for a response it did not make, and leaves such a response as it is', () => {
    const other = Response.json({ items: [] });
    expect(preparedBody(other)).toBeUndefined();
    expect(withPreparedBody(other)).toBe(other);
  });

  it('serializes a stored DTO once and reuses its bytes, each row in an allocation of its own', () => {
    const dto = fleet()[0] as Autoscaler;
    const first = rowJson(dto);
    expect(rowJson(dto)).toBe(first);
    // Another object (another version) is serialized afresh, to the same bytes when it holds the same.
    const copy = rowJson({ ...dto });
    expect(copy).not.toBe(first);
    expect(copy.equals(first)).toBe(true);
    expect(first.toString('utf8')).toBe(JSON.stringify(dto));
    // Not a slice of Node's shared pool: a cached row keeps only its own bytes alive.
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(first.length);
  });

  it('encodes rows with characters beyond ASCII as UTF-8', () => {
    const dto = { ...(fleet()[0] as Autoscaler), name: 'café-€-𝄞' };
    expect(rowJson(dto).toString('utf8')).toBe(JSON.stringify(dto));
  });
});
