// The parts of fengari 0.1.x (Lua 5.3 in JavaScript) the script runner uses; it ships no types.
declare module "fengari" {
  /** A Lua state; opaque to JavaScript. */
  export interface LuaState {
    readonly __luaState: never;
  }
  /** Lua strings are byte arrays. */
  export type LuaString = Uint8Array;
  export type LuaJsFunction = (L: LuaState) => number;
  export type LuaHook = (L: LuaState, ar: unknown) => void;

  export function to_luastring(s: string): LuaString;
  export function to_jsstring(s: LuaString): string;

  export const lua: {
    readonly LUA_OK: number;
    readonly LUA_TNIL: number;
    readonly LUA_TBOOLEAN: number;
    readonly LUA_TNUMBER: number;
    readonly LUA_TSTRING: number;
    readonly LUA_TTABLE: number;
    readonly LUA_MASKCOUNT: number;
    readonly LUA_REGISTRYINDEX: number;
    readonly LUA_MULTRET: number;
    lua_close(L: LuaState): void;
    lua_gettop(L: LuaState): number;
    lua_settop(L: LuaState, idx: number): void;
    lua_pop(L: LuaState, n: number): void;
    lua_absindex(L: LuaState, idx: number): number;
    lua_type(L: LuaState, idx: number): number;
    lua_toboolean(L: LuaState, idx: number): boolean;
    lua_tonumber(L: LuaState, idx: number): number;
    lua_isinteger(L: LuaState, idx: number): boolean;
    lua_tointeger(L: LuaState, idx: number): number;
    lua_tostring(L: LuaState, idx: number): LuaString | null;
    lua_tojsstring(L: LuaState, idx: number): string;
    lua_pushnil(L: LuaState): void;
    lua_pushboolean(L: LuaState, b: boolean): void;
    lua_pushinteger(L: LuaState, n: number): void;
    lua_pushnumber(L: LuaState, n: number): void;
    lua_pushstring(L: LuaState, s: LuaString): LuaString;
    lua_pushjsfunction(L: LuaState, f: LuaJsFunction): void;
    lua_pushjsclosure(L: LuaState, f: LuaJsFunction, n: number): void;
    lua_pushvalue(L: LuaState, idx: number): void;
    lua_upvalueindex(i: number): number;
    lua_insert(L: LuaState, idx: number): void;
    lua_call(L: LuaState, nargs: number, nresults: number): void;
    lua_rawset(L: LuaState, idx: number): void;
    lua_createtable(L: LuaState, narr: number, nrec: number): void;
    lua_rawseti(L: LuaState, idx: number, n: number): void;
    lua_rawgeti(L: LuaState, idx: number, n: number): number;
    lua_rawlen(L: LuaState, idx: number): number;
    lua_next(L: LuaState, idx: number): boolean;
    lua_setfield(L: LuaState, idx: number, k: LuaString): void;
    lua_getfield(L: LuaState, idx: number, k: LuaString): number;
    lua_setglobal(L: LuaState, name: LuaString): void;
    lua_getglobal(L: LuaState, name: LuaString): number;
    lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
    lua_error(L: LuaState): never;
    lua_sethook(L: LuaState, f: LuaHook | null, mask: number, count: number): void;
    lua_pushglobaltable(L: LuaState): void;
    lua_setmetatable(L: LuaState, idx: number): void;
    lua_setupvalue(L: LuaState, funcindex: number, n: number): LuaString | null;
  };

  export const lauxlib: {
    luaL_newstate(): LuaState;
    luaL_loadbuffer(L: LuaState, s: LuaString, sz: number | null, name: LuaString): number;
    luaL_error(L: LuaState, fmt: LuaString): never;
    luaL_ref(L: LuaState, t: number): number;
  };

  export const lualib: {
    luaL_openlibs(L: LuaState): void;
  };
}
