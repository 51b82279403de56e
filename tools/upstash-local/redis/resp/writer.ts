/** @module Encodes a command as a RESP2 array of bulk strings. */
import type { Args } from "../reply.ts";

const CRLF = Buffer.from("\r\n");

/** Encodes one command as a RESP2 array of bulk strings. */
export function encodeCommand(args: Args): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === "string" ? Buffer.from(arg, "utf8") : arg;
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  return Buffer.concat(parts);
}
