/** Reading untyped JSON (objects from the simulator's store) without trusting its shape. */
export type Obj = Record<string, unknown>;

/** The value as an object, or an empty one when it is anything else. */
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** A scalar as text (strings, numbers, booleans); `fallback` for anything else, objects included. */
export function text(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : fallback;
}
