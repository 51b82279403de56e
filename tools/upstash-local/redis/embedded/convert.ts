/** @module Converts ioredis-mock return values and thrown errors into RESP2 replies. */
import { ReplyError, type Reply } from "../reply.ts";
import { formatDouble, WRONGTYPE } from "./types.ts";

/**
 * Turns an ioredis-mock return value into a RESP2 reply. The mock returns hashes as objects
 * (HGETALL), sometimes numbers where Redis sends bulk strings (ZPOPMIN scores), and booleans in
 * places; RESP2 has flat arrays, bulk strings and integers only.
 *
 * @param floats the command replies with doubles as bulk strings (ZSCORE, ZPOPMIN, ...)
 */
export function fromMock(value: unknown, floats: boolean): Reply {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || Buffer.isBuffer(value)) return value;
  if (typeof value === "number") {
    return floats || !Number.isInteger(value) ? formatDouble(value) : value;
  }
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1 : null;
  if (Array.isArray(value)) return value.map((item: unknown) => fromMock(item, floats));
  if (value instanceof Set) return [...value].map((item: unknown) => fromMock(item, floats));
  if (value instanceof Map) return [...value.keys()].map((item: unknown) => fromMock(item, floats));
  if (typeof value === "object") {
    return Object.entries(value).flatMap(([field, item]: [string, unknown]) => [field, fromMock(item, floats)]);
  }
  return String(value);
}

/** Maps an exception thrown by a command to a Redis error reply. */
export function toReplyError(err: unknown): ReplyError {
  if (err instanceof ReplyError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // ioredis-mock's own wrong-type messages, e.g. "Key k does not contain a list".
  if (/does not contain a|WRONGTYPE/.test(message)) return new ReplyError(WRONGTYPE);
  if (err instanceof RangeError) return new ReplyError(`ERR ${message}`);
  if (/^[A-Z][A-Z0-9_]*( |$)/.test(message)) return new ReplyError(message);
  return new ReplyError(`ERR ${message}`);
}
