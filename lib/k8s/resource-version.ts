/**
 * A resourceVersion as it is cheapest to keep. Kubernetes calls it opaque — clients may only compare two for equality
 * and send one back — and every API server backed by etcd writes a decimal revision number. Kept as a string it is an
 * object of its own on the heap (32 bytes for up to 16 digits); kept as a number in the field of the object holding it,
 * nothing more below 2^31 and a 16-byte box above. So a decimal integer that reads back as the very same text (no sign,
 * no leading zero, at most 15 digits: exact as a double) is kept as the number, and anything else as the string it was.
 * At 100,000 HPAs and their Events the informers' keys and the held HPAs kept ~190,000 of them.
 */
export type PackedResourceVersion = number | string | undefined;

const DECIMAL = /^(?:0|[1-9]\d{0,14})$/;

export function packResourceVersion(text: string | undefined): PackedResourceVersion {
  return text !== undefined && DECIMAL.test(text) ? Number(text) : text;
}

/** The text `packResourceVersion` was given. */
export function resourceVersionText(packed: PackedResourceVersion): string | undefined {
  return typeof packed === 'number' ? String(packed) : packed;
}
