import 'server-only';
import type { Autoscaler } from '@/lib/api';

/**
 * Each stored DTO's JSON, made the first time a response carries it. The index never changes a stored DTO (a change
 * stores a new object), so the text is right for as long as the object lives, and an entry goes with its DTO. Under
 * twenty clients, serializing pages of 100 rows was an eighth of the list route's time (docs/performance.md).
 */
const rows = new WeakMap<Autoscaler, string>();

export function rowJson(dto: Autoscaler): string {
  let text = rows.get(dto);
  if (text === undefined) {
    text = JSON.stringify(dto);
    rows.set(dto, text);
  }
  return text;
}

/** `Response.json(value)` for a body whose `items` are stored DTOs, with each row's JSON reused (same JSON, `items` first). */
export function jsonWithRows<T extends { items: readonly Autoscaler[] }>(value: T): Response {
  const { items, ...rest } = value;
  const tail = JSON.stringify(rest);
  const body = `{"items":[${items.map(rowJson).join(',')}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
  return new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
