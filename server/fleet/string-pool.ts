import 'server-only';

/**
 * Keys whose values are (nearly) unique per object: pooling them would only add a pool entry per object.
 * Everything else — cluster, namespace, kinds, condition types, statuses, reasons, messages, timestamps,
 * metric names, problem codes and titles — repeats across a fleet, and every watch event's JSON.parse makes
 * a fresh copy of each.
 */
const UNIQUE_KEYS = new Set(['id', 'name', 'uid', 'resourceVersion', 'hint', 'generateName', 'selfLink']);

/**
 * Shares equal strings between the objects the index holds (DTOs and the raw objects the informers cache):
 * a string that repeats across 100,000 autoscalers is kept once. Values stay equal, so every JSON built from
 * them is byte-for-byte what it was. The pool is bounded: past `limit` entries it starts afresh (strings
 * already shared stay shared; only later copies pair up in the new pool), so unique values never pile up.
 *
 * Bounded at 16,384 strings, not more: every string of every object that arrives passes through it, and under churn
 * its values never stop coming (metric readings such as `118462m`, each HPA's own labels and annotations, its
 * describedObject), so the pool fills to its bound whatever the fleet's size and keeps each such string alive until it
 * starts afresh. At 262,144 it held 100,774 strings at 100,000 autoscalers after a minute of churn, ~8 MiB with its
 * table (bench:heap's snapshot), most of them in nothing else; at 65,536, 49,516 strings and a 1.8 MiB table. The
 * strings that repeat across a fleet (namespaces, reasons, messages, times) are the first to pair up again after each
 * fresh start, so a smaller bound costs a copy of each per fresh start, not the sharing.
 */
export class StringPool {
  private pool = new Map<string, string>();
  /** `shared`'s values, by a hash of their JSON (the JSON itself, kept as the key, would cost more than sharing saves). */
  private values = new Map<number, object>();

  constructor(
    private readonly limit = 16_384,
    private readonly valueLimit = 16_384,
  ) {}

  /** Values `shared` holds (beside `size` strings). */
  get valueCount(): number {
    return this.values.size;
  }

  /**
   * The value pooled earlier that is equal to `value` (`sameInOrder`: the same JSON byte for byte), else `value`,
   * pooled. For values that repeat whole across a fleet — a metric list (a target, a current reading and the summary
   * they make), an empty list — not ones with a name or a time in them, which would only add an entry each. Entries
   * are found by a hash of the JSON; a value whose hash holds another value stays unshared. Bounded like the strings:
   * past `valueLimit` entries it starts afresh.
   */
  shared<T extends object>(value: T): T {
    const key = fnv1a(JSON.stringify(value));
    const had = this.values.get(key);
    if (had !== undefined) return sameInOrder(had, value) ? (had as T) : value;
    if (this.values.size >= this.valueLimit) this.values = new Map();
    this.values.set(key, value);
    return value;
  }

  get size(): number {
    return this.pool.size;
  }

  intern(s: string): string {
    const had = this.pool.get(s);
    if (had !== undefined) return had;
    if (this.pool.size >= this.limit) this.pool = new Map();
    this.pool.set(s, s);
    return s;
  }

  /** Replaces, in place, every string of a JSON-shaped value (except under UNIQUE_KEYS) by its pooled copy. */
  internDeep<T>(value: T): T {
    this.share(value, undefined, 0);
    return value;
  }

  /**
   * `internDeep`, and more: each object or array of `value` equal to the one at the same place in `previous` (the
   * version it replaces) is replaced by that one. A watch event maps a whole new DTO, and the index keeps it, so each
   * of its objects outlived a young-generation collection or two and was copied into the old space, where the copy it
   * replaced then died: under the simulator's churn a DTO's target, its metrics' targets, its problems and half of its
   * conditions are as they were (41% of a changed DTO's nested JSON). Kept from the previous version, the fresh copies
   * die young, where dying costs nothing. Equal means the same JSON byte for byte: the same keys in the same order, the
   * same values (`sameInOrder`), so what is serialized from the DTO does not change.
   */
  internDeepSharing<T>(value: T, previous: unknown): T {
    this.share(value, previous, 0);
    return value;
  }

  private share(value: unknown, previous: unknown, depth: number): void {
    if (value === null || typeof value !== 'object' || depth > 32) return;
    // The previous version's value at the same place, when it is of the same shape (an array for an array).
    const before =
      previous !== null && typeof previous === 'object' && Array.isArray(value) === Array.isArray(previous)
        ? (previous as Record<string, unknown>)
        : undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v === 'string') value[i] = this.intern(v);
        else if (v !== null && typeof v === 'object') value[i] = this.adopted(v, before?.[i], depth);
      }
      return;
    }
    const record = value as Record<string, unknown>;
    // for…in, not Object.keys: no array per object (JSON-shaped values have no inherited enumerable keys).
    for (const key in record) {
      const v = record[key];
      if (typeof v === 'string') {
        if (!UNIQUE_KEYS.has(key)) record[key] = this.intern(v);
      } else if (v !== null && typeof v === 'object') record[key] = this.adopted(v, before?.[key], depth);
    }
  }

  /** The previous version's `p` when `v` is equal to it; else `v`, shared inside. */
  private adopted(v: object, p: unknown, depth: number): unknown {
    if (p !== undefined && sameInOrder(v, p)) return p;
    this.share(v, p, depth + 1);
    return v;
  }
}

/**
 * Whether two JSON-shaped values serialize to the same JSON byte for byte: arrays element by element, objects with
 * the same keys in the same order (a key holding `undefined` counts as a key), everything else by `===`. Stricter
 * than `jsonEqual` (json-equal.ts), which allows any key order: a value found equal here can stand in for the other
 * in anything serialized.
 */
export function sameInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameInOrder(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  const others = Object.keys(y);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== others[i] || !sameInOrder(x[key], y[key])) return false;
  }
  return true;
}

/** 32-bit FNV-1a of a string's UTF-16 code units: a cheap spread for `shared`'s keys (equality is checked after). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  // As a signed 32-bit integer: a small integer to V8, not a boxed number, as a Map key.
  return h | 0;
}
