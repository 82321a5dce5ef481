import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Autoscaler } from '@/lib/api';
import { AutoscalerRowListResponseSchema, AutoscalerRowSchema, toAutoscalerRow } from '@/lib/api';
import { fleet } from '@/lib/triage/__fixtures__/fleet';
import { jsonWithRows, preparedBody, RowCache, rowJson, tableRowJson, withPreparedBody } from './row-json';

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
          const prepared = preparedBody(res)?.bytes().toString('utf8');
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

  it("answers fields=row with each item as a table row: exactly the row schema's fields, the hint left out", async () => {
    const all = fleet();
    expect(new Set(all.map((a) => a.kind)).size).toBe(3);
    const res = jsonWithRows({ items: all, total: all.length, nextCursor: null }, 'row');
    const body = JSON.parse(await withPreparedBody(res).text()) as { items: Record<string, unknown>[] };
    expect(AutoscalerRowListResponseSchema.omit({ clusters: true, generatedAt: true }).parse(body).items).toHaveLength(all.length);
    const rowKeys = Object.keys(AutoscalerRowSchema.shape).sort();
    body.items.forEach((item, i) => {
      const dto = all[i] as Autoscaler;
      expect(Object.keys(item).sort()).toEqual(rowKeys);
      expect(item).toEqual(JSON.parse(JSON.stringify(toAutoscalerRow(dto))));
      expect(item.problems).toEqual(dto.problems.map(({ hint: _hint, ...p }) => p));
      for (const key of rowKeys) if (key !== 'problems') expect(item[key]).toEqual(dto[key as keyof Autoscaler]);
    });
    // A fleet with problems, so the hint's absence is seen.
    expect(all.some((a) => a.problems.length > 0)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('"hint"');
  });

  it("keeps a row's bytes per DTO apart from its whole JSON", () => {
    const dto = fleet()[0] as Autoscaler;
    const row = tableRowJson(dto);
    expect(tableRowJson(dto)).toBe(row);
    expect(rowJson(dto).toString('utf8')).toBe(JSON.stringify(dto));
    expect(row.toString('utf8')).toBe(JSON.stringify(toAutoscalerRow(dto)));
    expect(row.length).toBeLessThan(rowJson(dto).length);
  });
});

describe('RowCache', () => {
  const dtos = fleet();
  const rowOf = (cache: RowCache, dto: Autoscaler, made: Autoscaler[]) =>
    cache.bytes(dto, () => {
      made.push(dto);
      return dto;
    });

  it('keeps the rows read within the last two generations, and makes the others again', () => {
    // Rows of one length, two to a generation.
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => ({ ...(dtos[0] as Autoscaler), name: `row-${i}` }));
    const size = Buffer.byteLength(JSON.stringify(a));
    const cache = new RowCache(2 * size);
    const made: Autoscaler[] = [];
    const first = rowOf(cache, a as Autoscaler, made);
    expect(rowOf(cache, a as Autoscaler, made)).toBe(first);
    rowOf(cache, b as Autoscaler, made); // the generation (a, b) closes
    expect(cache.keptBytes).toBe(2 * size);
    rowOf(cache, c as Autoscaler, made);
    // a, in the previous generation, is kept (the same bytes) and read into the current one: (c, a) closes.
    expect(rowOf(cache, a as Autoscaler, made)).toBe(first);
    rowOf(cache, d as Autoscaler, made);
    rowOf(cache, b as Autoscaler, made); // (a, b) is gone: b made again; (d, b) closes, (c, a) is the one before
    rowOf(cache, c as Autoscaler, made); // gone: made again
    rowOf(cache, d as Autoscaler, made); // in the previous generation
    expect(made.map((x) => x.name)).toEqual(['row-0', 'row-1', 'row-2', 'row-3', 'row-1', 'row-2']);
    expect(cache.keptBytes).toBe(2 * size); // (c, d) closed: the current generation is empty
    expect(first.toString('utf8')).toBe(JSON.stringify(a));
  });

  it('holds at most two generations of rows however many it is asked for', () => {
    const generation = 64 * 1024;
    const cache = new RowCache(generation);
    const largest = Math.max(...dtos.map((x) => Buffer.byteLength(JSON.stringify(x))));
    let asked = 0;
    for (let round = 0; round < 20; round++)
      for (const dto of dtos) {
        // A new object each time: every version is a row of its own.
        const bytes = cache.bytes({ ...dto }, () => dto);
        asked += bytes.length;
        expect(bytes.toString('utf8')).toBe(JSON.stringify(dto));
        expect(cache.keptBytes).toBeLessThan(2 * (generation + largest));
      }
    // Many generations' worth went through it.
    expect(asked).toBeGreaterThan(10 * generation);
  });
});
