/** @module Parses Upstash Redis REST request bodies and paths into command argument lists. */
import { JsonSyntaxError, parseRawJson, RawNumber, type RawJson } from "./json-args.ts";
import type { Args } from "./reply.ts";

/** A request that can't be run at all; answered with `status` and `{"error": message}`. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/** Decodes the body bytes as UTF-8 once, then parses JSON whatever the Content-Type says. */
export function parseJsonBody(body: Buffer): RawJson {
  let text = body.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") throw new RequestError("ERR empty request body, expected a JSON array");
  try {
    return parseRawJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new RequestError(`ERR malformed JSON body: ${err.message}`);
    throw err;
  }
}

// Conversion rules follow what the official clients send: numbers as their token text,
// booleans as words, and null (a JS `undefined` in an array) as the empty string.
function toArgument(value: RawJson, where: string): string {
  if (typeof value === "string") return value;
  if (value instanceof RawNumber) return value.text;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null) return "";
  throw new RequestError(`ERR ${where}: arguments must be strings, numbers, booleans or null`);
}

function toCommand(value: RawJson, where: string): Args {
  if (!Array.isArray(value)) {
    throw new RequestError(`ERR ${where} must be a JSON array of arguments, like ["set","key","value"]`);
  }
  if (value.length === 0) throw new RequestError(`ERR empty command in ${where}`);
  return value.map((item) => toArgument(item, where));
}

/** `POST /` with a body like `["set","k","v"]`. */
export function singleCommand(body: Buffer): Args {
  return toCommand(parseJsonBody(body), "request body");
}

/** `/pipeline` and `/multi-exec` with a body like `[["set","k","v"],["get","k"]]`. */
export function commandBatch(body: Buffer): Args[] {
  const value = parseJsonBody(body);
  if (!Array.isArray(value)) {
    throw new RequestError('ERR request body must be a JSON array of commands, like [["set","k","v"]]');
  }
  return value.map((item, i) => toCommand(item, `command ${i + 1}`));
}

/**
 * The path form: `/set/foo/bar` runs `SET foo bar`. On POST and PUT a non-empty body is appended
 * as the last argument (raw bytes); query parameters (except `_token`) come after it, each as the
 * name followed by the value when the value is not empty (`?EX=100` -> `EX 100`, `?NX` -> `NX`).
 */
export function pathCommand(path: string, query: URLSearchParams, method: string, body: Buffer): Args {
  const segments = path.split("/").slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === "") segments.pop();
  const args: Args = [];
  for (const segment of segments) {
    try {
      args.push(decodeURIComponent(segment));
    } catch {
      throw new RequestError("ERR invalid percent-encoding in the request path");
    }
  }
  if (args.length === 0) throw new RequestError("ERR empty command");
  if ((method === "POST" || method === "PUT") && body.length > 0) args.push(body);
  for (const [name, value] of query) {
    if (name === "_token") continue;
    args.push(name);
    if (value !== "") args.push(value);
  }
  return args;
}
