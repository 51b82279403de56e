/** @module The `cjson` Lua library for embedded scripts, backed by JavaScript's JSON. */
import { lauxlib, lua, to_luastring, type LuaState } from "fengari";
import { luaBytes, pushText, readText } from "./lua-strings.ts";
import { pushNumber } from "./lua-values.ts";

const MAX_DEPTH = 64;

function pushJson(L: LuaState, value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) lauxlib.luaL_error(L, to_luastring("cjson.decode: nesting too deep"));
  if (value === null || value === undefined) lua.lua_pushnil(L);
  else if (typeof value === "boolean") lua.lua_pushboolean(L, value);
  else if (typeof value === "number") pushNumber(L, value);
  else if (typeof value === "string") pushText(L, value);
  else if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    value.forEach((item: unknown, i) => {
      pushJson(L, item, depth + 1);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else if (typeof value === "object") {
    lua.lua_createtable(L, 0, 0);
    for (const [key, item] of Object.entries(value)) {
      pushJson(L, item, depth + 1);
      lua.lua_setfield(L, -2, luaBytes(key));
    }
  } else lua.lua_pushnil(L);
}

function readJson(L: LuaState, idx: number, depth: number): unknown {
  if (depth > MAX_DEPTH) lauxlib.luaL_error(L, to_luastring("cjson.encode: nesting too deep"));
  const type = lua.lua_type(L, idx);
  if (type === lua.LUA_TNIL) return null;
  if (type === lua.LUA_TBOOLEAN) return lua.lua_toboolean(L, idx);
  if (type === lua.LUA_TNUMBER) return lua.lua_tonumber(L, idx);
  if (type === lua.LUA_TSTRING) return readText(L, idx);
  if (type !== lua.LUA_TTABLE) return lauxlib.luaL_error(L, to_luastring("cjson.encode: cannot serialise this type"));
  const table = lua.lua_absindex(L, idx);
  const entries: [unknown, unknown][] = [];
  lua.lua_pushnil(L);
  while (lua.lua_next(L, table)) {
    const keyType = lua.lua_type(L, -2);
    const key: unknown = keyType === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -2) : readText(L, -2);
    entries.push([key, readJson(L, -1, depth + 1)]);
    lua.lua_pop(L, 1);
  }
  // Like cjson: a table whose keys are exactly 1..n is an array; an empty table is an object.
  const isArray =
    entries.length > 0 && entries.every(([k]) => typeof k === "number" && Number.isInteger(k) && k >= 1 && k <= entries.length);
  if (isArray) {
    const out: unknown[] = new Array(entries.length);
    for (const [k, v] of entries) out[(k as number) - 1] = v;
    return out;
  }
  return Object.fromEntries(entries.map(([k, v]) => [String(k), v]));
}

/** Installs a `cjson` table with `encode` and `decode`, backed by JavaScript's JSON. */
export function installCjson(L: LuaState): void {
  lua.lua_createtable(L, 0, 2);
  lua.lua_pushjsfunction(L, (state) => {
    pushText(state, JSON.stringify(readJson(state, 1, 0)));
    return 1;
  });
  lua.lua_setfield(L, -2, to_luastring("encode"));
  lua.lua_pushjsfunction(L, (state) => {
    let value: unknown;
    try {
      value = JSON.parse(readText(state, 1));
    } catch (err) {
      return lauxlib.luaL_error(state, to_luastring(`cjson.decode: ${err instanceof Error ? err.message : "invalid JSON"}`));
    }
    pushJson(state, value, 0);
    return 1;
  });
  lua.lua_setfield(L, -2, to_luastring("decode"));
  lua.lua_setglobal(L, to_luastring("cjson"));
}
