/**
 * A byte-pair-encoding token counter over a packed rank table (see scripts/build-rank-tables.ts).
 * Loading decodes one base64 string and fills an open-addressing hash of the token bytes, a few
 * milliseconds where building js-tiktoken's string map takes hundreds; counting follows
 * tiktoken's algorithm (pre-split with the encoding's pattern, then merge the lowest-ranked pair
 * first), so counts equal js-tiktoken's `encode(text, [], []).length`.
 */

/** A rank table as the generated modules under `ranks/` hold it. */
export interface RankTableSource {
  encoding: string;
  /** The pre-split pattern (a JavaScript regular expression with the `u` flag). */
  pattern: string;
  tokens: number;
  /** base64 of `[u32 count LE][u8 length x count][token bytes in rank order]`. */
  data: string;
}

/** `Uint8Array.fromBase64` where the runtime has it (native, one pass), else `atob`. */
type FromBase64 = (text: string) => Uint8Array;

function decodeBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
  if (typeof native === "function") return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const hashBytes = (bytes: Uint8Array, start: number, end: number): number => {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
};

export class RankTable {
  readonly encoding: string;
  readonly #pattern: RegExp;
  readonly #bytes: Uint8Array;
  /** Start of each token's bytes in `#bytes`; `#starts[rank + 1]` is its end. */
  readonly #starts: Uint32Array;
  /** rank + 1 per slot, 0 = empty. */
  readonly #slots: Int32Array;
  readonly #mask: number;
  readonly #encoder = new TextEncoder();

  constructor(source: RankTableSource) {
    this.encoding = source.encoding;
    this.#pattern = new RegExp(source.pattern, "gu");
    const packed = decodeBase64(source.data);
    const count = (packed[0]! | (packed[1]! << 8) | (packed[2]! << 16) | (packed[3]! << 24)) >>> 0;
    if (count !== source.tokens) throw new Error(`rank table ${source.encoding} is corrupt`);
    const base = 4 + count;
    // locals, not fields, in the loops: this runs once per isolate before anything is optimized
    const bytes = packed.subarray(base);
    const starts = new Uint32Array(count + 1);
    for (let r = 0; r < count; r++) starts[r + 1] = starts[r]! + packed[4 + r]!;
    let size = 1;
    while (size < count * 2) size <<= 1;
    const mask = size - 1;
    const slots = new Int32Array(size);
    for (let r = 0; r < count; r++) {
      let h = 0x811c9dc5;
      for (let i = starts[r]!, end = starts[r + 1]!; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
      let slot = (h >>> 0) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = r + 1;
    }
    this.#bytes = bytes;
    this.#starts = starts;
    this.#mask = mask;
    this.#slots = slots;
  }

  /** The rank of `bytes[start, end)`, or -1 when it is not a token. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hashBytes(bytes, start, end) & this.#mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return -1;
      const r = entry - 1;
      const from = this.#starts[r]!;
      if (this.#starts[r + 1]! - from === length) {
        let same = true;
        for (let i = 0; i < length; i++) {
          if (this.#bytes[from + i] !== bytes[start + i]) {
            same = false;
            break;
          }
        }
        if (same) return r;
      }
      slot = (slot + 1) & this.#mask;
    }
  }

  /** Tokens of `text` with no special tokens honoured (as `encode(text, [], [])`). */
  count(text: string): number {
    let total = 0;
    this.#pattern.lastIndex = 0;
    for (const match of text.matchAll(this.#pattern)) total += this.#pieceTokens(this.#encoder.encode(match[0]));
    return total;
  }

  /** Tokens of one pre-split piece: merge the lowest-ranked adjacent pair until none is a token. */
  #pieceTokens(piece: Uint8Array): number {
    const n = piece.length;
    if (n <= 1 || this.rank(piece, 0, n) >= 0) return n === 0 ? 0 : 1;
    // bounds[i] is where part i starts; parts end where the next starts
    const bounds: number[] = [];
    for (let i = 0; i <= n; i++) bounds.push(i);
    const pairRank = (i: number): number => (i + 2 < bounds.length ? this.rank(piece, bounds[i]!, bounds[i + 2]!) : -1);
    const ranks: number[] = [];
    for (let i = 0; i < bounds.length - 2; i++) ranks.push(pairRank(i));
    while (bounds.length > 2) {
      let best = -1;
      let at = -1;
      for (let i = 0; i < ranks.length; i++) {
        const r = ranks[i]!;
        if (r >= 0 && (best < 0 || r < best)) {
          best = r;
          at = i;
        }
      }
      if (at < 0) break;
      bounds.splice(at + 1, 1);
      ranks.splice(at, 1);
      if (at < ranks.length) ranks[at] = pairRank(at);
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
    }
    return bounds.length - 1;
  }
}
