// JavaScript <-> Lua string conversion with the runtime's native UTF-8 codec (fengari's own loops
// over every character were the engine's largest cost on big replies).
import { createRequire } from "node:module";
import { lua, type LuaState } from "fengari";

// fengari's string constructor and stack push, which take the bytes as they are: its public
// lua_pushstring copies every string it is given, twice the work for bytes made just for it.
const internal = createRequire(import.meta.url);
const { luaS_bless } = internal("fengari/src/lstring.js") as { luaS_bless(L: LuaState, bytes: Uint8Array): object };
const { pushsvalue2s } = internal("fengari/src/lobject.js") as { pushsvalue2s(L: LuaState, ts: object): void };

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

/** A JavaScript string as Lua bytes (UTF-8). */
export const luaBytes = (text: string): Uint8Array => encoder.encode(text);

/** Pushes bytes nothing will change (Lua strings are immutable) as a Lua string, without a copy. */
export function pushBytes(L: LuaState, bytes: Uint8Array): void {
  pushsvalue2s(L, luaS_bless(L, bytes));
}

/** Pushes a JavaScript string as a Lua string. */
export function pushText(L: LuaState, text: string): void {
  pushBytes(L, encoder.encode(text));
}

/**
 * The Lua string at `idx` as JavaScript text. Bytes that are not UTF-8 go through fengari's
 * conversion, which raises the error scripts have always seen for them.
 */
export function readText(L: LuaState, idx: number): string {
  const bytes = lua.lua_tostring(L, idx);
  if (bytes === null || bytes === undefined) return lua.lua_tojsstring(L, idx);
  try {
    return strict.decode(bytes);
  } catch {
    return lua.lua_tojsstring(L, idx);
  }
}
