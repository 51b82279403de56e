/** @module Incremental RESP2 parser that turns socket chunks into replies. */
import { ReplyError, type Reply } from "../reply.ts";

/** The byte stream is not valid RESP2; the connection must be dropped. */
export class RespProtocolError extends Error {}

interface Frame {
  items: Reply[];
  remaining: number;
}

type Element = { kind: "value"; value: Reply; end: number } | { kind: "array"; length: number; end: number };

const MAX_BULK = 512 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

/**
 * Incremental RESP2 parser. Feed it socket chunks; it returns every reply completed so far.
 *
 * Arrays are assembled on an explicit stack, so a huge reply split over many chunks is parsed
 * once, not again from its start on every chunk. A bulk string whose bytes have not all arrived
 * is not retried until enough bytes are buffered.
 */
export class RespParser {
  private buffer: Buffer = EMPTY;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private needed = 0;
  private readonly stack: Frame[] = [];

  push(chunk: Buffer): Reply[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.buffer.length + this.pendingBytes < this.needed) return [];
    const buf = Buffer.concat([this.buffer, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
    this.needed = 0;

    const out: Reply[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const element = this.element(buf, pos);
      if (element === undefined) break;
      pos = element.end;
      let value: Reply;
      if (element.kind === "array") {
        if (element.length > 0) {
          this.stack.push({ items: [], remaining: element.length });
          continue;
        }
        value = [];
      } else {
        value = element.value;
      }
      // Hand the finished value to its parent array, closing every array it completes.
      for (;;) {
        const top = this.stack[this.stack.length - 1];
        if (top === undefined) {
          out.push(value);
          break;
        }
        top.items.push(value);
        if (--top.remaining > 0) break;
        this.stack.pop();
        value = top.items;
      }
    }
    this.buffer = pos < buf.length ? buf.subarray(pos) : EMPTY;
    return out;
  }

  /** Parses one element header (and a bulk body) at `pos`, or returns undefined if incomplete. */
  private element(buf: Buffer, pos: number): Element | undefined {
    const lineEnd = buf.indexOf("\r\n", pos + 1);
    if (lineEnd < 0) return undefined;
    const type = buf[pos];
    const text = buf.toString("utf8", pos + 1, lineEnd);
    const end = lineEnd + 2;
    switch (type) {
      case 0x2b: // '+'
        return { kind: "value", value: text, end };
      case 0x2d: // '-'
        return { kind: "value", value: new ReplyError(text), end };
      case 0x3a: // ':'
        return { kind: "value", value: parseInteger(text), end };
      case 0x24: {
        // '$'
        const length = parseLength(text);
        if (length < 0) return { kind: "value", value: null, end };
        if (length > MAX_BULK) throw new RespProtocolError(`bulk string too large (${length} bytes)`);
        const bodyEnd = end + length;
        if (bodyEnd + 2 > buf.length) {
          this.needed = bodyEnd + 2 - pos;
          return undefined;
        }
        if (buf[bodyEnd] !== 0x0d || buf[bodyEnd + 1] !== 0x0a) throw new RespProtocolError("bulk string not terminated by CRLF");
        // Copy, so a small value does not keep the whole socket buffer alive.
        return { kind: "value", value: Buffer.from(buf.subarray(end, bodyEnd)), end: bodyEnd + 2 };
      }
      case 0x2a: {
        // '*'
        const length = parseLength(text);
        if (length < 0) return { kind: "value", value: null, end };
        return { kind: "array", length, end };
      }
      default:
        throw new RespProtocolError(`unexpected reply type byte 0x${(type ?? 0).toString(16)}`);
    }
  }
}

function parseLength(text: string): number {
  if (!/^(?:-1|\d+)$/.test(text)) throw new RespProtocolError(`invalid length "${text}"`);
  return Number(text);
}

function parseInteger(text: string): number | bigint {
  if (!/^-?\d+$/.test(text)) throw new RespProtocolError(`invalid integer "${text}"`);
  if (text.length < 16) return Number(text);
  const big = BigInt(text);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}
