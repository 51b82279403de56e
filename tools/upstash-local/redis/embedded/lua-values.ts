/** @module Converts values between Redis replies and Lua values the way Redis does for scripts. */
import { lua, to_luastring, type LuaState } from "fengari";
import { ReplyError, type Reply } from "../reply.ts";
import { pushBytes, pushText, readText } from "./lua-strings.ts";

const INT32_MAX = 2147483647;
const MAX_DEPTH = 64;
const ERR = to_luastring("err");
const OK = to_luastring("ok");

/** fengari integers are 32-bit; larger numbers go in as floats. */
export function pushNumber(L: LuaState, n: number): void {
  if (Number.isInteger(n) && Math.abs(n) <= INT32_MAX) lua.lua_pushinteger(L, n);
  else lua.lua_pushnumber(L, n);
}

/** Pushes a `{err = message}` table, the Lua form of an error reply. */
export function pushErrorTable(L: LuaState, message: string): void {
  lua.lua_createtable(L, 0, 1);
  pushText(L, message);
  lua.lua_setfield(L, -2, ERR);
}

/** Redis -> Lua conversion: integers to numbers, nil to false, arrays to tables, errors to {err=}. */
export function pushReply(L: LuaState, reply: Reply): void {
  if (reply === null) lua.lua_pushboolean(L, false);
  else if (typeof reply === "number") pushNumber(L, reply);
  else if (typeof reply === "bigint") lua.lua_pushnumber(L, Number(reply));
  else if (typeof reply === "string") pushText(L, reply);
  else if (Buffer.isBuffer(reply)) pushBytes(L, new Uint8Array(reply));
  else if (reply instanceof ReplyError) pushErrorTable(L, reply.message);
  else {
    lua.lua_createtable(L, reply.length, 0);
    reply.forEach((item, i) => {
      pushReply(L, item);
      lua.lua_rawseti(L, -2, i + 1);
    });
  }
}

function stringField(L: LuaState, table: number, name: Uint8Array): string | undefined {
  const type = lua.lua_getfield(L, table, name);
  const value = type === lua.LUA_TSTRING ? readText(L, -1) : undefined;
  lua.lua_pop(L, 1);
  return value;
}

/**
 * Lua -> Redis conversion of the value at `idx`, as Redis does for a script's return value:
 * numbers are truncated to integers, true is 1 and false nil, `{err=}` / `{ok=}` tables are
 * error / status replies, other tables are arrays up to their first nil.
 */
export function toReply(L: LuaState, idx: number, depth = 0): Reply {
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TNUMBER) return Math.trunc(lua.lua_tonumber(L, idx));
  if (type === lua.LUA_TSTRING) return Buffer.from(lua.lua_tostring(L, idx) ?? new Uint8Array());
  if (type === lua.LUA_TBOOLEAN) return lua.lua_toboolean(L, idx) ? 1 : null;
  if (type !== lua.LUA_TTABLE || depth > MAX_DEPTH) return null;
  const table = lua.lua_absindex(L, idx);
  const err = stringField(L, table, ERR);
  if (err !== undefined) return new ReplyError(err);
  const ok = stringField(L, table, OK);
  if (ok !== undefined) return ok;
  const items: Reply[] = [];
  for (let i = 1; ; i++) {
    if (lua.lua_rawgeti(L, table, i) === lua.LUA_TNIL) {
      lua.lua_pop(L, 1);
      return items;
    }
    items.push(toReply(L, -1, depth + 1));
    lua.lua_pop(L, 1);
  }
}

/** A Lua argument of redis.call as a command argument; Redis accepts strings and numbers only. */
export function toArgument(L: LuaState, idx: number): string | undefined {
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TSTRING) return readText(L, idx);
  if (type !== lua.LUA_TNUMBER) return undefined;
  if (lua.lua_isinteger(L, idx)) return String(lua.lua_tointeger(L, idx));
  const n = lua.lua_tonumber(L, idx);
  return Number.isInteger(n) ? n.toFixed(0) : String(n);
}
