const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`: Go's `hash/fnv.New32a()`, which Karmada hashes the resource UID with. */
export function fnv32a(text: string): number {
  let hash = FNV32_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, FNV32_PRIME) >>> 0;
  }
  return hash >>> 0;
}
