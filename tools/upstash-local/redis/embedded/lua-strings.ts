// JavaScript <-> Lua string conversion with the runtime's native UTF-8 codec (fengari's own loops
// over every character were the engine's largest cost on big replies).
import { lua, type LuaState } from "fengari";

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

/** A JavaScript string as Lua bytes (UTF-8). */
export const luaBytes = (text: string): Uint8Array => encoder.encode(text);

/** Pushes a JavaScript string as a Lua string. */
export function pushText(L: LuaState, text: string): void {
  lua.lua_pushstring(L, encoder.encode(text));
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
