import 'server-only';
import type { Autoscaler, AutoscalerQuery } from '@/lib/api';
import { toAutoscalerRow } from '@/lib/api';
import { PreparedBytes } from './prepared-bytes';

/**
 * Each stored DTO's JSON as UTF-8 bytes, made the first time a response carries it and kept while pages carry it. The
 * index never changes a stored DTO (a change stores a new object), so the bytes are right for as long as the object
 * lives. Under twenty clients, serializing pages of 100 rows was an eighth of the list route's time; kept as text,
 * joining a page's rows and encoding the 130–180 KiB result still cost ~1.2 ms a request at 100,000 autoscalers
 * (docs/performance.md), so rows are kept encoded and a page is one copy of them. Each row has its own allocation (not
 * a slice of Node's shared 8 KiB pool, which one cached row would keep alive whole).
 *
 * Kept in two generations of at most `generationBytes` each: a row is looked up in the current generation, then in
 * the previous one (and kept in the current again), else made; once the current one holds `generationBytes`, it
 * becomes the previous and the one before goes. So the rows of the pages people read stay, and what is kept is
 * bounded: kept for every DTO a response ever carried, a client paging through a fleet of 100,000 (or exporting it
 * page by page) left ~1.8 KiB of bytes and ~0.2 KiB of heap per autoscaler behind for as long as each DTO lived,
 * about as much memory again as the index itself.
 */
export class RowCache {
  private current = new WeakMap<Autoscaler, Buffer>();
  private previous = new WeakMap<Autoscaler, Buffer>();
  private currentBytes = 0;
  private previousBytes = 0;

  constructor(private readonly generationBytes: number) {}

  /** Bytes of the rows the two generations hold (rows read again in the current one count in both). */
  get keptBytes(): number {
    return this.currentBytes + this.previousBytes;
  }

  /** `dto`'s row: its bytes kept, else `value()` serialized. */
  bytes(dto: Autoscaler, value: () => unknown): Buffer {
    const kept = this.current.get(dto);
    if (kept !== undefined) return kept;
    let bytes = this.previous.get(dto);
    if (bytes === undefined) {
      const text = JSON.stringify(value());
      bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
      bytes.write(text, 'utf8');
    }
    this.current.set(dto, bytes);
    this.currentBytes += bytes.length;
    if (this.currentBytes >= this.generationBytes) {
      this.previous = this.current;
      this.previousBytes = this.currentBytes;
      this.current = new WeakMap();
      this.currentBytes = 0;
    }
    return bytes;
  }
}

/**
 * 16 MiB a generation: ~9,000 whole DTOs (~90 pages of 100) or ~28,000 table rows, so at most ~32 MiB a cache, where the
 * rows a crawl of the fleet left were ~150 MiB at 100,000. Sized for the fleet bench's twenty clients cycling through 86
 * distinct pages (~15 MiB of rows): with 8 MiB generations half of each cycle's rows were made again, and those
 * clients read ~12% fewer pages (docs/performance.md).
 */
const GENERATION_BYTES = 16 * 2 ** 20;
const rows = new RowCache(GENERATION_BYTES);
/** The same for each DTO as a table row (`fields=row`), which pages of the tables carry. */
const tableRows = new RowCache(GENERATION_BYTES);

export function rowJson(dto: Autoscaler): Buffer {
  return rows.bytes(dto, () => dto);
}

/** A DTO's JSON as a table row, made once per DTO like `rowJson`. */
export function tableRowJson(dto: Autoscaler): Buffer {
  return tableRows.bytes(dto, () => toAutoscalerRow(dto));
}

/** The bytes each `jsonWithRows` response was made from, for the server's fast path. */
const bodies = new WeakMap<Response, PreparedBytes>();

const ITEMS_OPEN = Buffer.from('{"items":[', 'utf8');
const COMMA = Buffer.from(',', 'utf8');

/**
 * `Response.json(value)` for a body whose `items` are stored DTOs, with each row's JSON reused (same JSON, `items`
 * first) — prepared, not made: the response carries status and headers, and its bytes are kept beside it for the
 * server's fast path, which writes them as they are (`preparedBody`). Giving a web Response a 150 KiB body cost
 * 0.2–0.5 ms a request (undici copies it and wraps it in a stream) for a stream the fast path never reads. Anything
 * else that answers with it makes the body real first (`withPreparedBody`).
 */
export function jsonWithRows<T extends { items: readonly Autoscaler[] }>(value: T, fields: AutoscalerQuery['fields'] = 'all'): Response {
  const { items, ...rest } = value;
  const row = fields === 'row' ? tableRowJson : rowJson;
  const tail = JSON.stringify(rest);
  const parts: Buffer[] = [ITEMS_OPEN];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(row(items[i] as Autoscaler));
  }
  parts.push(Buffer.from(tail === '{}' ? ']}' : `],${tail.slice(1)}`, 'utf8'));
  // One buffer: a string body made the web Response measure it and encode it again, and the fast path then copied
  // it out of the response's stream (three passes over a page; ~7% of the BFF's CPU under 20 clients).
  return preparedJson(Buffer.concat(parts));
}

/** A 200 JSON response prepared from bytes already made (`jsonWithRows`, a shared answer): the bytes kept beside it. */
export function preparedJson(body: Buffer<ArrayBuffer> | PreparedBytes): Response {
  const response = new Response(null, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  bodies.set(response, body instanceof PreparedBytes ? body : new PreparedBytes(body));
  return response;
}

/** `Response.json(value)`, prepared: the JSON's bytes kept beside the response (see `jsonWithRows`). */
export function jsonPrepared(value: unknown): Response {
  const text = JSON.stringify(value);
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  body.write(text, 'utf8');
  return preparedJson(body);
}

/** A response as it goes to anyone but the fast path: a prepared one (`jsonWithRows`) with its body in it; others as they are. */
export function withPreparedBody(response: Response): Response {
  const body = bodies.get(response);
  return body
    ? new Response(body.bytes(), { status: response.status, statusText: response.statusText, headers: response.headers })
    : response;
}

/** The body of a response `jsonWithRows` made, as the bytes it holds (its stream left unread); undefined for any other. */
export function preparedBody(response: Response): PreparedBytes | undefined {
  return bodies.get(response);
}
