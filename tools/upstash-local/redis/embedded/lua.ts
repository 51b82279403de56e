import { createHash } from "node:crypto";
import { lauxlib, lua, lualib, to_luastring, type LuaState } from "fengari";
import { ReplyError, type Reply } from "../reply.ts";
import { installCjson } from "./lua-json.ts";
import { pushErrorTable, pushReply, toArgument, toReply } from "./lua-values.ts";

/** Options of {@link runLua}. */
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

function setStringArray(L: LuaState, name: string, values: string[]): void {
  lua.lua_createtable(L, values.length, 0);
  values.forEach((value, i) => {
    lua.lua_pushstring(L, to_luastring(value));
    lua.lua_rawseti(L, -2, i + 1);
  });
  lua.lua_setglobal(L, to_luastring(name));
}

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

function redisCall(run: LuaRun, raise: boolean) {
  return (L: LuaState): number => {
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
      reply =
        count === 0
          ? new ReplyError("ERR Please specify at least one argument for this redis lib call")
          : run.call(args);
    } catch (err) {
      reply =
        err instanceof ReplyError ? err : new ReplyError(`ERR ${err instanceof Error ? err.message : String(err)}`);
    }
    if (reply instanceof ReplyError && raise) {
      pushErrorTable(L, reply.message);
      return lua.lua_error(L);
    }
    const name = (args[0] ?? "").toLowerCase();
    if (typeof reply === "string" && STATUS_REPLIES.has(name) && !(name === "set" && reply !== "OK")) {
      lua.lua_createtable(L, 0, 1);
      lua.lua_pushstring(L, to_luastring(reply));
      lua.lua_setfield(L, -2, to_luastring("ok"));
    } else pushReply(L, reply);
    return 1;
  };
}

function installRedis(L: LuaState, run: LuaRun): void {
  lua.lua_createtable(L, 0, 4);
  lua.lua_pushjsfunction(L, redisCall(run, true));
  lua.lua_setfield(L, -2, to_luastring("call"));
  lua.lua_pushjsfunction(L, redisCall(run, false));
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

/**
 * Runs a Redis Lua script in a fresh Lua state (fengari, Lua 5.3 with Redis' 5.1 names).
 * Returns the converted result; throws `ReplyError` for compile errors, runtime errors, a
 * returned `{err=...}` and timeouts.
 */
export function runLua(run: LuaRun): Reply {
  const L = lauxlib.luaL_newstate();
  try {
    lualib.luaL_openlibs(L);
    installRedis(L, run);
    installCjson(L);
    setStringArray(L, "KEYS", run.keys);
    setStringArray(L, "ARGV", run.argv);
    if (lauxlib.luaL_loadbuffer(L, to_luastring(run.script), null, to_luastring("@user_script")) !== lua.LUA_OK) {
      throw errorReply(L, "Error compiling script (new function): ");
    }
    // A script can't be interrupted from outside (it runs on this thread), so it checks the clock.
    const deadline = Date.now() + run.timeoutMs;
    lua.lua_sethook(
      L,
      (state) => {
        if (Date.now() > deadline) {
          lauxlib.luaL_error(
            state,
            to_luastring(`script killed after running longer than ${run.timeoutMs} ms (the embedded engine limit)`),
          );
        }
      },
      lua.LUA_MASKCOUNT,
      10_000,
    );
    if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw errorReply(L, "Error running script: ");
    const result = toReply(L, -1);
    if (result instanceof ReplyError) throw result;
    return result;
  } finally {
    lua.lua_close(L);
  }
}
