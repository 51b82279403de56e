/** @module Embedded Redis engine: ioredis-mock's store and commands with Redis' argument checks, overrides and scripts. */
import { ReplyError, type Args, type Reply } from "../reply.ts";
import { toReplyError } from "./convert.ts";
import { checkCommand, wrongArity } from "./guards.ts";
import { normalizeKeywords } from "./keywords.ts";
import { createLuaVm } from "./lua.ts";
import { mockHandler } from "./mock-commands.ts";
import { createMockStore } from "./mock.ts";
import { OVERRIDES } from "./overrides.ts";
import { scriptCommands } from "./scripts.ts";
import { COMMANDS, keyArgs, type CommandSpec } from "./table.ts";
import type { CommandHandler, EngineContext } from "./types.ts";

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Called after every command that may have changed data, with the keys it names (no keys named means every key may have changed). */
  onWrite(keys: readonly string[]): void;
  /** Called by SAVE / BGSAVE. */
  onSave(): void;
  /** Longest a script may run, in ms. Default 5000 (Redis' busy-script threshold). */
  scriptTimeoutMs?: number | undefined;
}

export interface Engine {
  readonly ctx: EngineContext;
  /** Runs one command synchronously; Redis errors come back as `ReplyError`. */
  run(args: Args): Reply;
  /** The error Redis would give when queueing this command in MULTI (unknown name, arity). */
  check(args: Args): ReplyError | undefined;
  dispose(): void;
}

const SCRIPT_COMMANDS = new Set(["eval", "evalsha", "eval_ro", "evalsha_ro", "script"]);
const NOT_IN_SCRIPTS = new Set(["eval", "evalsha", "eval_ro", "evalsha_ro", "script", "save", "bgsave"]);

function unknownCommand(args: string[]): ReplyError {
  const shown = args
    .slice(1, 9)
    .map((a) => `'${a.slice(0, 128)}' `)
    .join("");
  return new ReplyError(`ERR unknown command '${(args[0] ?? "").slice(0, 128)}', with args beginning with: ${shown}`);
}

function isEmptyContainer(value: unknown): boolean {
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && value !== null && !Buffer.isBuffer(value) && Object.keys(value).length === 0;
}

/** The embedded Redis: ioredis-mock's data store and commands, with Redis' checks and fixes. */
export function createEngine(options: EngineOptions): Engine {
  const store = createMockStore();
  const { ctx } = store;
  const timeoutMs = options.scriptTimeoutMs ?? 5000;
  // one Lua state for the engine's life: each script is compiled once, as in Redis
  const vm = createLuaVm();

  const runScript = (script: string, keys: string[], argv: string[], readOnly: boolean): Reply =>
    vm.run({
      script,
      keys,
      argv,
      timeoutMs,
      call: (args) => {
        const name = (args[0] ?? "").toLowerCase();
        if (NOT_IN_SCRIPTS.has(name)) throw new ReplyError("ERR This Redis command is not allowed from script");
        if (readOnly && COMMANDS.get(name)?.write === true) {
          throw new ReplyError("ERR Write commands are not allowed from read-only scripts.");
        }
        return dispatch(args);
      },
    });

  const save: CommandHandler = () => {
    options.onSave();
    return "OK";
  };
  const handlers = new Map<string, CommandHandler>([...OVERRIDES, ...scriptCommands(runScript), ["save", save], ["bgsave", save]]);
  for (const name of COMMANDS.keys()) {
    if (!handlers.has(name) && store.has(name)) handlers.set(name, mockHandler(store, name));
  }

  // ioredis-mock leaves empty lists, hashes and sorted sets behind; Redis deletes them.
  const dropEmpty = (spec: CommandSpec, args: string[]): void => {
    for (const key of spec.firstKey > 0 ? keyArgs(spec, args) : args.slice(1)) {
      if (ctx.data.has(key) && isEmptyContainer(ctx.data.get(key))) ctx.data.delete(key);
    }
  };

  function dispatch(input: string[]): Reply {
    const name = (input[0] ?? "").toLowerCase();
    const spec = COMMANDS.get(name);
    const handler = handlers.get(name);
    if (spec === undefined || handler === undefined) throw unknownCommand(input);
    const args = normalizeKeywords(name, input);
    checkCommand(ctx, name, spec, args, OVERRIDES.has(name));
    try {
      return spec.write ? handler(ctx, args) : store.sharingReads(() => handler(ctx, args));
    } catch (err) {
      throw toReplyError(err);
    } finally {
      if (spec.write) {
        dropEmpty(spec, args);
        // a script's writes are reported by the commands it runs
        if (!SCRIPT_COMMANDS.has(name)) options.onWrite(spec.firstKey > 0 ? keyArgs(spec, args) : []);
      }
    }
  }

  const toStrings = (args: Args): string[] => args.map((a) => (typeof a === "string" ? a : a.toString("utf8")));

  return {
    ctx,
    run(args) {
      try {
        return dispatch(toStrings(args));
      } catch (err) {
        return toReplyError(err);
      }
    },
    check(args) {
      const strings = toStrings(args);
      const name = (strings[0] ?? "").toLowerCase();
      const spec = COMMANDS.get(name);
      if (spec === undefined || !handlers.has(name)) return unknownCommand(strings);
      if (spec.arity > 0 ? strings.length !== spec.arity : strings.length < -spec.arity) return wrongArity(name);
      return undefined;
    },
    dispose: () => {
      vm.close();
      store.dispose();
    },
  };
}
