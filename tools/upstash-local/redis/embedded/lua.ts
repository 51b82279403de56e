/** @module Lua VM for the embedded engine's scripts: Redis' Lua API, sandbox and a compiled-script cache. */
import { createHash } from "node:crypto";
import { lauxlib, lua, lualib, to_luastring, type LuaState } from "fengari";
import { ReplyError, type Reply } from "../reply.ts";
import { installCjson } from "./lua-json.ts";
import { installFastCalls } from "./fengari-calls.ts";
import { installFastMatch } from "./lua-match.ts";
import { pushText } from "./lua-strings.ts";
import { pushErrorTable, pushReply, toArgument, toReply } from "./lua-values.ts";

/** One script run (see {@link LuaVm.run}). */
export interface LuaRun {
  script: string;
  keys: string[];
  argv: string[];
  /** Runs one command for redis.call / redis.pcall; throws `ReplyError` on errors. */
  call(args: string[]): Reply;
  /** Milliseconds before the script is stopped with an error. */
  timeoutMs: number;
}

// The parts of Redis' Lua API that are plain Lua, plus Lua 5.1 names scripts expect, and a
// sandbox like Redis': no files, modules or OS access.
const PRELUDE = `
redis.error_reply = function(msg) return {err = msg} end
redis.status_reply = function(msg) return {ok = msg} end
redis.log = function() end
redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING = 0, 1, 2, 3
redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL = 0, 1, 2, 2, 3
redis.set_repl = function() end
redis.replicate_commands = function() return true end
redis.setresp = function(v) if v ~= 2 then error("RESP3 is not supported by the embedded engine") end end
unpack = table.unpack
loadstring = load
os = { clock = os.clock }
io, package, require, dofile, loadfile, debug, fengari = nil, nil, nil, nil, nil, nil, nil
`;

/** Sets `name` in the table on top of the stack to a Lua array of `values`. */
function setStringArray(L: LuaState, name: string, values: string[]): void {
  lua.lua_createtable(L, values.length, 0);
  values.forEach((value, i) => {
    pushText(L, value);
    lua.lua_rawseti(L, -2, i + 1);
  });
  lua.lua_setfield(L, -2, to_luastring(name));
}

const OK_FIELD = to_luastring("ok");

// Redis hands status replies to Lua as {ok = "..."} tables; these commands answer with one.
const STATUS_REPLIES = new Set([
  "set",
  "mset",
  "hmset",
  "ltrim",
  "lset",
  "rename",
  "flushdb",
  "flushall",
  "ping",
  "type",
  "setex",
  "psetex",
]);

function redisCall(current: () => LuaRun, raise: boolean) {
  return (L: LuaState): number => {
    const run = current();
    const count = lua.lua_gettop(L);
    const args: string[] = [];
    for (let i = 1; i <= count; i++) {
      const arg = toArgument(L, i);
      if (arg === undefined) {
        pushErrorTable(L, "ERR Lua redis lib command arguments must be strings or integers");
        return raise ? lua.lua_error(L) : 1;
      }
      args.push(arg);
    }
    let reply: Reply;
    try {
      reply = count === 0 ? new ReplyError("ERR Please specify at least one argument for this redis lib call") : run.call(args);
    } catch (err) {
      reply = err instanceof ReplyError ? err : new ReplyError(`ERR ${err instanceof Error ? err.message : String(err)}`);
    }
    if (reply instanceof ReplyError && raise) {
      pushErrorTable(L, reply.message);
      return lua.lua_error(L);
    }
    const name = (args[0] ?? "").toLowerCase();
    if (typeof reply === "string" && STATUS_REPLIES.has(name) && !(name === "set" && reply !== "OK")) {
      lua.lua_createtable(L, 0, 1);
      pushText(L, reply);
      lua.lua_setfield(L, -2, OK_FIELD);
    } else pushReply(L, reply);
    return 1;
  };
}

function installRedis(L: LuaState, current: () => LuaRun): void {
  lua.lua_createtable(L, 0, 4);
  lua.lua_pushjsfunction(L, redisCall(current, true));
  lua.lua_setfield(L, -2, to_luastring("call"));
  lua.lua_pushjsfunction(L, redisCall(current, false));
  lua.lua_setfield(L, -2, to_luastring("pcall"));
  lua.lua_pushjsfunction(L, (state) => {
    const bytes = lua.lua_tostring(state, 1) ?? new Uint8Array();
    lua.lua_pushstring(state, to_luastring(createHash("sha1").update(bytes).digest("hex")));
    return 1;
  });
  lua.lua_setfield(L, -2, to_luastring("sha1hex"));
  lua.lua_setglobal(L, to_luastring("redis"));
  if (
    lauxlib.luaL_loadbuffer(L, to_luastring(PRELUDE), null, to_luastring("=prelude")) !== lua.LUA_OK ||
    lua.lua_pcall(L, 0, 0, 0) !== lua.LUA_OK
  ) {
    throw new Error(`Lua prelude failed: ${lua.lua_tojsstring(L, -1)}`);
  }
}

/** The error value on top of the stack as a Redis error reply. */
function errorReply(L: LuaState, prefix: string): ReplyError {
  const value = toReply(L, -1);
  if (value instanceof ReplyError) return value; // a {err=...} table raised by redis.call or error()
  const text = Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
  return new ReplyError(/^[A-Z][A-Z0-9_]* /.test(text) ? text : `ERR ${prefix}${text}`);
}

/** Compiled scripts kept at most; past it the cache starts over (EVAL of generated scripts). */
const MAX_COMPILED = 1000;

/** A Lua VM that runs Redis scripts, each compiled once. */
export interface LuaVm {
  /** Runs one script; throws `ReplyError` for compile errors, runtime errors, `{err=...}` and timeouts. */
  run(run: LuaRun): Reply;
  /** Forgets the compiled scripts (SCRIPT FLUSH). */
  flush(): void;
  close(): void;
}

/**
 * One Lua state (fengari, Lua 5.3 with Redis' 5.1 names) for all scripts, as Redis keeps one: a
 * script is compiled the first time it runs and its function kept. Each run gets its own global
 * table (KEYS, ARGV, and whatever the script assigns) that reads through to the shared libraries,
 * so nothing a script sets is seen by the next one.
 */
export function createLuaVm(): LuaVm {
  installFastCalls();
  const L = lauxlib.luaL_newstate();
  let current: LuaRun | null = null;
  let deadline = 0;
  const active = (): LuaRun => {
    if (!current) throw new Error("redis.call outside a script");
    return current;
  };
  lualib.luaL_openlibs(L);
  installFastMatch(L);
  installRedis(L, active);
  installCjson(L);
  // the metatable of every run's globals: unknown names are looked up in the shared ones
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushglobaltable(L);
  lua.lua_setfield(L, -2, to_luastring("__index"));
  const envMeta = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  // A script can't be interrupted from outside (it runs on this thread), so it checks the clock.
  lua.lua_sethook(
    L,
    (state) => {
      if (current && Date.now() > deadline) {
        lauxlib.luaL_error(
          state,
          to_luastring(`script killed after running longer than ${current.timeoutMs} ms (the embedded engine limit)`),
        );
      }
    },
    lua.LUA_MASKCOUNT,
    10_000,
  );
  let compiled = new Map<string, number>();

  const load = (script: string): number => {
    const known = compiled.get(script);
    if (known !== undefined) return known;
    if (lauxlib.luaL_loadbuffer(L, pushable(script), null, to_luastring("@user_script")) !== lua.LUA_OK) {
      throw errorReply(L, "Error compiling script (new function): ");
    }
    if (compiled.size >= MAX_COMPILED) compiled = new Map();
    const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    compiled.set(script, ref);
    return ref;
  };

  return {
    run(run) {
      lua.lua_settop(L, 0);
      try {
        const ref = load(run.script);
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
        lua.lua_createtable(L, 0, 2);
        setStringArray(L, "KEYS", run.keys);
        setStringArray(L, "ARGV", run.argv);
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, envMeta);
        lua.lua_setmetatable(L, -2);
        lua.lua_setupvalue(L, -2, 1); // the chunk's _ENV
        current = run;
        deadline = Date.now() + run.timeoutMs;
        if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw errorReply(L, "Error running script: ");
        const result = toReply(L, -1);
        if (result instanceof ReplyError) throw result;
        return result;
      } finally {
        current = null;
        lua.lua_settop(L, 0);
      }
    },
    flush() {
      compiled = new Map();
    },
    close() {
      lua.lua_close(L);
    },
  };
}

/** A script's source as Lua bytes. */
const pushable = (script: string): Uint8Array => new TextEncoder().encode(script);
