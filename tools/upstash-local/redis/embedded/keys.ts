/** @module Keyspace commands for the embedded engine: KEYS, SCAN, INFO, RENAME, TYPE and Redis glob matching. */
import { ReplyError, type Reply } from "../reply.ts";
import { keyType, parseInteger, SYNTAX_ERROR, typeOfValue, type CommandHandler } from "./types.ts";

/** Compiles a Redis glob (`*`, `?`, `[a-z]`, `[^x]`, `\` escapes) to an anchored RegExp. */
export function globToRegExp(text: string): RegExp {
  const pattern = Array.from(text); // code points, so an emoji is one "?"
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "\\" && i + 1 < pattern.length) out += escapeRegex(pattern[++i] ?? "");
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = pattern.slice(i + 1, close).join("");
      const negate = body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^" : ""}${charClass(body)}]`;
      i = close;
    } else out += escapeRegex(c);
  }
  try {
    return new RegExp(`^${out}$`, "u");
  } catch {
    return new RegExp(`^${escapeRegex(text)}$`, "u");
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The inside of a [...] class: ranges like a-z stay, `\x` is a literal x. */
function charClass(text: string): string {
  const literal = (c: string) => (/[\\\][^-]/.test(c) ? `\\${c}` : c);
  const body = Array.from(text);
  let out = "";
  for (let j = 0; j < body.length; j++) {
    const c = body[j] ?? "";
    if (c === "\\" && j + 1 < body.length) out += literal(body[++j] ?? "");
    else if (c === "-" && j > 0 && j < body.length - 1) out += "-";
    else out += literal(c);
  }
  return out;
}

export const keys: CommandHandler = (ctx, args) => {
  const re = globToRegExp(args[1] ?? "*");
  return ctx.data.keys().filter((key) => re.test(key));
};

/** SCAN cursor [MATCH pattern] [COUNT n] [TYPE type]; the cursor is an offset into the key list. */
export const scan: CommandHandler = (ctx, args) => {
  const cursorText = args[1] ?? "";
  if (!/^\d+$/.test(cursorText)) throw new ReplyError("ERR invalid cursor");
  const cursor = Number(cursorText);
  let match: RegExp | undefined;
  let count = 10;
  let type: string | undefined;
  for (let i = 2; i < args.length; i += 2) {
    const option = (args[i] ?? "").toUpperCase();
    const value = args[i + 1];
    if (value === undefined) throw new ReplyError(SYNTAX_ERROR);
    if (option === "MATCH") match = globToRegExp(value);
    else if (option === "COUNT") {
      count = parseInteger(value);
      if (count < 1) throw new ReplyError(SYNTAX_ERROR);
    } else if (option === "TYPE") type = value.toLowerCase();
    else throw new ReplyError(SYNTAX_ERROR);
  }
  const all = ctx.data.keys();
  const page = all.slice(cursor, cursor + count);
  const next = cursor + count >= all.length ? 0 : cursor + count;
  const found = page.filter(
    (key) => (match === undefined || match.test(key)) && (type === undefined || typeOfValue(ctx.data.get(key)) === type),
  );
  return [String(next), found];
};

/** A short INFO; ioredis-mock's own returns a canned text from another server. */
export const info: CommandHandler = (ctx): Reply => {
  const all = ctx.data.keys();
  const expiring = all.filter((key) => ctx.expires.has(key)).length;
  return [
    "# Server",
    "redis_version:7.0.0",
    "redis_mode:standalone",
    "upstash_local_engine:embedded",
    "",
    "# Keyspace",
    all.length > 0 ? `db0:keys=${all.length},expires=${expiring},avg_ttl=0` : "",
    "",
  ].join("\r\n");
};

/** RENAME keeps the source's TTL (or none) and is a no-op onto itself; ioredis-mock deletes the key. */
export const rename: CommandHandler = (ctx, args) => {
  const from = args[1] ?? "";
  const to = args[2] ?? "";
  if (from === to) return "OK";
  const value = ctx.data.get(from);
  const expiresAt = ctx.expires.get(from);
  ctx.data.delete(to);
  ctx.data.set(to, value);
  if (expiresAt !== undefined) ctx.expires.set(to, expiresAt);
  ctx.data.delete(from);
  return "OK";
};

export const renamenx: CommandHandler = (ctx, args) => {
  if (ctx.data.has(args[2] ?? "")) return 0;
  rename(ctx, args);
  return 1;
};

/** TYPE, also for values held as raw bytes (ioredis-mock answers nothing for those). */
export const type: CommandHandler = (ctx, args) => keyType(ctx, args[1] ?? "");
