/**
 * @module The held-out split of the recall benches. Personas are split in two fixed halves (each
 * with an English persona and Chinese ones); unrelated queries by a hash of their text (FNV-1a
 * 32-bit of the UTF-8 bytes, lowest bit), so a query keeps its half whatever is added around it.
 * A gate is fitted on one half of both and measured on the other half of both.
 */

/** Persona halves: each has an English persona and Chinese ones. */
export const PERSONA_HALVES: readonly [readonly string[], readonly string[]] = [
  ["emma", "xiaowen", "jianguo"],
  ["marcus", "jiayi", "kai"],
];

/** FNV-1a, 32 bits, of the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The half (0 or 1) of an unrelated query: the lowest bit of the hash of its exact text. */
export const textHalf = (text: string): 0 | 1 => (fnv1a32(text) & 1) as 0 | 1;
