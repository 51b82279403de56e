/** @module Encodes Redis replies as Upstash REST JSON, with the optional base64 encoding. */
import { ReplyError, type Reply } from "./reply.ts";

/**
 * Writes a reply as JSON text. With `base64`, every simple and bulk string at any depth is
 * base64-encoded (the `Upstash-Encoding: base64` rule); integers stay JSON numbers, nil is null.
 * A top-level `"OK"` is left as is, like Upstash does; the client treats both forms the same.
 */
export function encodeReply(reply: Reply, base64: boolean, topLevel = true): string {
  if (reply === null) return "null";
  if (typeof reply === "number") return Number.isFinite(reply) ? String(reply) : "null";
  if (typeof reply === "bigint") return reply.toString();
  if (Array.isArray(reply)) return `[${reply.map((item) => encodeReply(item, base64, false)).join(",")}]`;
  // Errors nested inside a reply (rare: scripts) are shown as their text.
  const value = reply instanceof ReplyError ? reply.message : reply;
  if (!base64) return JSON.stringify(typeof value === "string" ? value : value.toString("utf8"));
  if (topLevel && value === "OK") return '"OK"';
  const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return `"${bytes.toString("base64")}"`;
}

/** `{"result": ...}` or `{"error": "..."}` for one reply. */
export function encodeEntry(reply: Reply, base64: boolean): string {
  if (reply instanceof ReplyError) return JSON.stringify({ error: reply.message });
  return `{"result":${encodeReply(reply, base64)}}`;
}

/** One entry per reply, as `/pipeline` and `/multi-exec` answer. */
export function encodeEntries(replies: Reply[], base64: boolean): string {
  return `[${replies.map((reply) => encodeEntry(reply, base64)).join(",")}]`;
}
