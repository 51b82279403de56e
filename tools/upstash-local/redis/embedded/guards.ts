/** @module Redis' pre-execution checks for the embedded engine: arity, syntax, key types, existence and size limits. */
import { ReplyError } from "../reply.ts";
import { keyArgs, type CommandSpec } from "./table.ts";
import {
  DESTINATION_FIRST,
  FAMILY,
  FLOAT_ARGS,
  INTEGER_ARGS,
  INTEGER_ARGS_OF_EXISTING,
  MUST_EXIST,
  PAIRS_FROM,
  SOURCE_FIRST,
} from "./guard-tables.ts";
import { keyType, parseDouble, parseInteger, WRONGTYPE, type EngineContext } from "./types.ts";

/** Keeps the emulator's memory bounded where one small request could allocate gigabytes. */
const MAX_STRING_BYTES = 64 * 1024 * 1024;
const MAX_RANDOM_COUNT = 1_000_000;

export function wrongArity(name: string): ReplyError {
  return new ReplyError(`ERR wrong number of arguments for '${name}' command`);
}

/**
 * Checks what Redis checks before running a command: arity, argument syntax, key types,
 * existence, limits. `selfChecked` commands (the engine's own implementations) check key types
 * themselves, in Redis' order relative to their argument errors.
 */
export function checkCommand(ctx: EngineContext, name: string, spec: CommandSpec, args: string[], selfChecked: boolean): void {
  if (spec.arity > 0 ? args.length !== spec.arity : args.length < -spec.arity) throw wrongArity(name);
  const pairsFrom = PAIRS_FROM.get(name);
  if (pairsFrom !== undefined && (args.length - pairsFrom) % 2 !== 0) throw wrongArity(name);

  for (const i of INTEGER_ARGS.get(name) ?? []) parseInteger(args[i]);
  for (const i of FLOAT_ARGS.get(name) ?? []) parseDouble(args[i]);
  // ZRANGE takes ranks unless BYSCORE / BYLEX says otherwise.
  if (name === "zrange" && !args.slice(4).some((a) => /^by(score|lex)$/i.test(a))) {
    parseInteger(args[2]);
    parseInteger(args[3]);
  }

  if ((name === "setex" || name === "psetex") && parseInteger(args[2]) <= 0) {
    throw new ReplyError(`ERR invalid expire time in '${name}' command`);
  }

  const family = selfChecked ? undefined : FAMILY.get(name);
  if (family !== undefined) {
    const keys = keyArgs(spec, args);
    const emptySource = SOURCE_FIRST.has(name) && !ctx.data.has(args[1] ?? "");
    const checked = DESTINATION_FIRST.has(name) ? keys.slice(1) : emptySource ? keys.slice(0, 1) : keys;
    for (const key of checked) {
      const actual = keyType(ctx, key);
      if (actual !== "none" && actual !== family) throw new ReplyError(WRONGTYPE);
    }
  }
  if (MUST_EXIST.has(name) && !ctx.data.has(args[1] ?? "")) throw new ReplyError("ERR no such key");
  if (ctx.data.has(args[1] ?? "")) for (const i of INTEGER_ARGS_OF_EXISTING.get(name) ?? []) parseInteger(args[i]);

  if (name === "setrange" || name === "setbit") {
    const offset = Number(args[2]);
    const bytes = name === "setbit" ? offset / 8 : offset + Buffer.byteLength(args[3] ?? "");
    if (bytes > MAX_STRING_BYTES) {
      throw new ReplyError("ERR string exceeds maximum allowed size (the embedded engine allows 64 MiB)");
    }
  }
  if ((name === "srandmember" || name === "hrandfield") && Math.abs(Number(args[2] ?? 0)) > MAX_RANDOM_COUNT) {
    throw new ReplyError("ERR value is out of range (the embedded engine allows counts up to 1000000)");
  }
}
