/** @module The emulator's regular-expression string.match against fengari's own matcher, case by case. */
import { describe, expect, it } from "vitest";
import { lauxlib, lua, lualib, to_jsstring, to_luastring, type LuaState } from "fengari";
import { installFastMatch, translatePattern } from "../../../../../../tools/upstash-local/redis/embedded/lua-match.ts";

/** A fresh Lua state, with or without the fast string.match. */
function state(fast: boolean): LuaState {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  if (fast) installFastMatch(L);
  return L;
}

/** Runs `code` (which returns one ASCII string: the results in hex) and answers it, or the error it raised. */
function run(L: LuaState, code: string): string {
  const chunk = to_luastring(code);
  if (lauxlib.luaL_loadbuffer(L, chunk, chunk.length, to_luastring("case")) !== lua.LUA_OK || lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) {
    const error = lua.lua_tostring(L, -1);
    lua.lua_settop(L, 0);
    return `error: ${error === null ? "?" : to_jsstring(error).replace(/^.*?:\d+: /, "")}`;
  }
  const out = lua.lua_tostring(L, -1);
  lua.lua_settop(L, 0);
  return out === null ? "(nil)" : to_jsstring(out);
}

const lit = (s: string): string => `"${[...s].map((c) => `\\${c.charCodeAt(0)}`).join("")}"`;

// What the session scripts match, and the pattern items Lua has: classes, sets, anchors, quantifiers, captures.
const PATTERNS = [
  "e(%d+)",
  "^([^|]+)|(.*)$",
  "^[^|]+",
  '^{"id":"([^"]*)"',
  "^(%d+)$",
  "(%a+)",
  "[%w_]+",
  "^([^:]+):(.*)$",
  "%s*(.-)%s*$",
  ".-b",
  "a*b?",
  "[^%c]+",
  "%u%l+",
  "[%p]",
  "(%x%x)",
  "()a",
  "%bxy",
  "%f[%w]%w+",
  "(a)%1",
  "[a-c]+",
  "[]]",
  "[^]]+",
  "%.",
  "a-",
  "(h)(e)(l)",
  "$",
  "^",
  "",
];
const SUBJECTS = [
  "",
  "abc",
  "123",
  "a:b:c",
  "  trim me  ",
  "e42|rest",
  '{"id":"f1","x":1}',
  "Hello World",
  "x1y2",
  "aab",
  "h\u00e9llo",
  "\u0000\u0001z",
  "]]a]",
];
const INITS = [undefined, 1, 2, -1, -3, 0, 50];

describe("string.match by regular expression", () => {
  it("answers exactly as fengari's matcher for every subject, pattern and start", () => {
    const fast = state(true);
    const slow = state(false);
    let compared = 0;
    for (const pattern of PATTERNS)
      for (const subject of SUBJECTS)
        for (const init of INITS) {
          const call = `string.match(${lit(subject)}, ${lit(pattern)}${init === undefined ? "" : `, ${init}`})`;
          const code = `local r = table.pack(${call}); local out = {} for i = 1, r.n do out[i] = tostring(r[i]) end local joined = r.n .. ":" .. table.concat(out, "|") return (joined:gsub(".", function(c) return string.format("%02x", c:byte()) end))`;
          expect(run(fast, code), call).toBe(run(slow, code));
          compared++;
        }
    expect(compared).toBe(PATTERNS.length * SUBJECTS.length * INITS.length);
  });

  it("leaves to fengari what a regular expression cannot say exactly", () => {
    for (const pattern of ["()a", "%bxy", "%f[%w]%w+", "(a)%1"]) expect(translatePattern(pattern), pattern).toBeNull();
    expect(translatePattern("e(%d+)")).not.toBeNull();
  });
});
