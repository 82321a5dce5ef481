import 'server-only';

/**
 * Whether two JSON-shaped values serialize to the same JSON up to key order, without building the JSON: objects
 * compare key by key (a key whose value is `undefined` counts as absent, as `JSON.stringify` leaves it out), arrays
 * element by element, everything else by value. `skip` leaves one key of the outermost object out of the
 * comparison. Written here rather than taken from a package: the index compares every re-mapped DTO with the one it
 * holds (to tell a change from a re-map), and what it needs is exactly JSON's notion of equality, cheaply.
 */
export function jsonEqual(a: unknown, b: unknown, skip?: string): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return !Number.isFinite(a) && !Number.isFinite(b); // both serialize as null
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (key === skip || x[key] === undefined) continue;
    keys += 1;
    if (!Object.hasOwn(y, key) || !jsonEqual(x[key], y[key])) return false;
  }
  for (const key in y) if (key !== skip && y[key] !== undefined) keys -= 1;
  return keys === 0;
}
