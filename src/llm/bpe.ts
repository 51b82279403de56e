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

/** The first word of a hashed table: "BPE1" little-endian. */
const HASHED_MAGIC = 0x31455042;
/** Header words: magic, token count, slot count, encoding bytes, pattern bytes. */
const HASHED_HEADER_WORDS = 5;

/** A table's parts, however it was loaded. */
interface TableParts {
  encoding: string;
  pattern: string;
  /** Token bytes in rank order. */
  bytes: Uint8Array;
  /** Each token's byte length, in rank order. */
  lengths: Uint8Array;
  /** The open-addressing hash: rank + 1 per slot, 0 = empty; a power of two long. */
  slots: Int32Array;
}

/** Each token's start in the concatenated bytes; `starts[rank + 1]` is its end. */
function startsOf(lengths: Uint8Array): Uint32Array {
  const starts = new Uint32Array(lengths.length + 1);
  for (let r = 0; r < lengths.length; r++) starts[r + 1] = starts[r]! + lengths[r]!;
  return starts;
}

/** The hash of every token (FNV-1a over its bytes), at twice the token count rounded to a power of two. */
function buildSlots(bytes: Uint8Array, starts: Uint32Array, count: number): Int32Array {
  let size = 1;
  while (size < count * 2) size <<= 1;
  const mask = size - 1;
  const slots = new Int32Array(size);
  // locals, not fields, in the loops: this runs once per isolate before anything is optimized
  for (let r = 0; r < count; r++) {
    let h = 0x811c9dc5;
    for (let i = starts[r]!, end = starts[r + 1]!; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    let slot = (h >>> 0) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = r + 1;
  }
  return slots;
}

function partsOfSource(source: RankTableSource): TableParts {
  const packed = decodeBase64(source.data);
  const count = (packed[0]! | (packed[1]! << 8) | (packed[2]! << 16) | (packed[3]! << 24)) >>> 0;
  if (count !== source.tokens) throw new Error(`rank table ${source.encoding} is corrupt`);
  const lengths = packed.subarray(4, 4 + count);
  const bytes = packed.subarray(4 + count);
  return { encoding: source.encoding, pattern: source.pattern, bytes, lengths, slots: buildSlots(bytes, startsOf(lengths), count) };
}

const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * A table with its hash built in, as one binary (see {@link packHashedTable}): a Worker bundles it
 * as a `Data` module, so a fresh isolate reads it in place, with nothing to decode or hash.
 * Layout, little-endian: `[u32 magic, count, slots, encoding bytes, pattern bytes]`, the encoding
 * and the pattern (UTF-8, padded to 4 bytes), `[i32 slot x slots]`, `[u8 length x count]`, the token bytes.
 */
function partsOfHashed(buffer: ArrayBuffer): TableParts {
  const header = new Uint32Array(buffer, 0, HASHED_HEADER_WORDS);
  const [magic, count, slotCount, encodingBytes, patternBytes] = header as unknown as [number, number, number, number, number];
  if (magic !== HASHED_MAGIC) throw new Error("not a hashed rank table (or a big-endian platform)");
  const decoder = new TextDecoder();
  let at = HASHED_HEADER_WORDS * 4;
  const encoding = decoder.decode(new Uint8Array(buffer, at, encodingBytes));
  at += encodingBytes;
  const pattern = decoder.decode(new Uint8Array(buffer, at, patternBytes));
  at = pad4(at + patternBytes);
  const slots = new Int32Array(buffer, at, slotCount);
  at += slotCount * 4;
  const lengths = new Uint8Array(buffer, at, count);
  at += count;
  return { encoding, pattern, bytes: new Uint8Array(buffer, at), lengths, slots };
}

/** The binary {@link RankTable.fromHashed} reads: the table of `source` with its hash prebuilt. */
export function packHashedTable(source: RankTableSource): Uint8Array {
  const parts = partsOfSource(source);
  const encoder = new TextEncoder();
  const encoding = encoder.encode(parts.encoding);
  const pattern = encoder.encode(parts.pattern);
  const count = parts.lengths.length;
  const textEnd = pad4(HASHED_HEADER_WORDS * 4 + encoding.length + pattern.length);
  const out = new Uint8Array(textEnd + parts.slots.length * 4 + count + parts.bytes.length);
  const view = new DataView(out.buffer);
  [HASHED_MAGIC, count, parts.slots.length, encoding.length, pattern.length].forEach((word, i) => {
    view.setUint32(i * 4, word, true);
  });
  out.set(encoding, HASHED_HEADER_WORDS * 4);
  out.set(pattern, HASHED_HEADER_WORDS * 4 + encoding.length);
  parts.slots.forEach((slot, i) => {
    view.setInt32(textEnd + i * 4, slot, true);
  });
  out.set(parts.lengths, textEnd + parts.slots.length * 4);
  out.set(parts.bytes, textEnd + parts.slots.length * 4 + count);
  return out;
}

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

  /** Decodes the packed table and builds its hash (a few ms of CPU for 100k tokens). */
  constructor(source: RankTableSource | TableParts) {
    const parts = "data" in source ? partsOfSource(source) : source;
    this.encoding = parts.encoding;
    this.#pattern = new RegExp(parts.pattern, "gu");
    this.#bytes = parts.bytes;
    this.#starts = startsOf(parts.lengths);
    this.#slots = parts.slots;
    this.#mask = parts.slots.length - 1;
  }

  /** A table from the binary of {@link packHashedTable}, read in place (no copy, no hashing). */
  static fromHashed(buffer: ArrayBuffer): RankTable {
    return new RankTable(partsOfHashed(buffer));
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
