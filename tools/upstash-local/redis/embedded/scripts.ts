/** @module EVAL, EVALSHA, their read-only forms and SCRIPT LOAD/EXISTS/FLUSH over one script cache. */
import { createHash } from "node:crypto";
import { ReplyError, type Reply } from "../reply.ts";
import { parseInteger, type CommandHandler } from "./types.ts";

/** Runs a script body with its keys and arguments. */
export type ScriptRunner = (script: string, keys: string[], argv: string[], readOnly: boolean) => Reply;

/** Lower-case hex SHA-1 of the script's UTF-8 bytes, as Redis and the clients compute it. */
export function scriptSha(script: string): string {
  return createHash("sha1").update(script, "utf8").digest("hex");
}

/** EVAL, EVALSHA, their _RO forms and SCRIPT LOAD|EXISTS|FLUSH over one script cache. */
export function scriptCommands(run: ScriptRunner): Map<string, CommandHandler> {
  const cache = new Map<string, string>();

  const invoke = (script: string, args: string[], readOnly: boolean): Reply => {
    const numKeys = parseInteger(args[2]);
    const rest = args.slice(3);
    if (numKeys < 0) throw new ReplyError("ERR Number of keys can't be negative");
    if (numKeys > rest.length) throw new ReplyError("ERR Number of keys can't be greater than number of args");
    return run(script, rest.slice(0, numKeys), rest.slice(numKeys), readOnly);
  };

  const evalCommand =
    (readOnly: boolean): CommandHandler =>
    (_ctx, args) => {
      const script = args[1] ?? "";
      cache.set(scriptSha(script), script); // so a later EVALSHA finds it, as in Redis
      return invoke(script, args, readOnly);
    };

  const evalshaCommand =
    (readOnly: boolean): CommandHandler =>
    (_ctx, args) => {
      const script = cache.get((args[1] ?? "").toLowerCase());
      if (script === undefined) throw new ReplyError("NOSCRIPT No matching script. Please use EVAL.");
      return invoke(script, args, readOnly);
    };

  const script: CommandHandler = (_ctx, args) => {
    const sub = (args[1] ?? "").toLowerCase();
    if (sub === "load" && args.length === 3) {
      const body = args[2] ?? "";
      const sha = scriptSha(body);
      cache.set(sha, body);
      return sha;
    }
    if (sub === "exists" && args.length >= 3) return args.slice(2).map((sha) => (cache.has(sha.toLowerCase()) ? 1 : 0));
    if (sub === "flush" && args.length <= 3) {
      cache.clear();
      return "OK";
    }
    throw new ReplyError(`ERR unknown subcommand or wrong number of arguments for '${args[1] ?? ""}'. Try SCRIPT HELP.`);
  };

  return new Map<string, CommandHandler>([
    ["eval", evalCommand(false)],
    ["eval_ro", evalCommand(true)],
    ["evalsha", evalshaCommand(false)],
    ["evalsha_ro", evalshaCommand(true)],
    ["script", script],
  ]);
}
