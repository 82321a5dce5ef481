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
 */
export class StringPool {
  private pool = new Map<string, string>();

  constructor(private readonly limit = 262_144) {}

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
    this.walk(value, 0);
    return value;
  }

  private walk(value: unknown, depth: number): void {
    if (value === null || typeof value !== 'object' || depth > 32) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v === 'string') value[i] = this.intern(v);
        else this.walk(v, depth + 1);
      }
      return;
    }
    const record = value as Record<string, unknown>;
    // for…in, not Object.keys: no array per object (JSON-shaped values have no inherited enumerable keys).
    for (const key in record) {
      const v = record[key];
      if (typeof v === 'string') {
        if (!UNIQUE_KEYS.has(key)) record[key] = this.intern(v);
      } else this.walk(v, depth + 1);
    }
  }
}
