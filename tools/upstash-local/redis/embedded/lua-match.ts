// string.match on the runtime's regular expressions: fengari's pattern matcher, a JavaScript port
// of Lua's C one, was the largest single cost of the session scripts (one match per message
// header read). Patterns it cannot translate exactly go to fengari's own string.match.
import { lua, to_luastring, type LuaState } from "fengari";
import { pushBytes } from "./lua-strings.ts";

// Lua's classes in the C locale, as JavaScript class bodies over bytes (subjects are read as latin1).
const CLASSES: Record<string, string> = {
  a: "A-Za-z",
  c: "\\x00-\\x1f\\x7f",
  d: "0-9",
  g: "\\x21-\\x7e",
  l: "a-z",
  p: "!-\\/:-@\\[-`{-~",
  s: "\\t\\n\\v\\f\\r ",
  u: "A-Z",
  w: "A-Za-z0-9",
  x: "A-Fa-f0-9",
};

const escapeByte = (code: number): string => `\\x${code.toString(16).padStart(2, "0")}`;

/** `%x` inside or outside a set: a class body (and whether it is negated) or an escaped literal. */
function classEscape(ch: string): { body: string; negated: boolean } {
  const body = CLASSES[ch.toLowerCase()];
  if (body !== undefined) return { body, negated: ch !== ch.toLowerCase() };
  return { body: escapeByte(ch.charCodeAt(0)), negated: false };
}

/**
 * A Lua pattern (as latin1 text, anchor removed) as a JavaScript regular expression source, or
 * null when it uses what has no exact equivalent here (position captures, %b, %f, back references).
 */
export function translatePattern(pattern: string): string | null {
  let out = "";
  let i = 0;
  let open = 0;
  const n = pattern.length;
  while (i < n) {
    const ch = pattern[i]!;
    let atom: string;
    if (ch === "(") {
      if (pattern[i + 1] === ")") return null; // position capture
      open++;
      out += "(";
      i++;
      continue;
    }
    if (ch === ")") {
      if (open === 0) return null;
      open--;
      out += ")";
      i++;
      continue;
    }
    if (ch === "$" && i === n - 1) {
      out += "$";
      i++;
      continue;
    }
    if (ch === "%") {
      const next = pattern[i + 1];
      if (next === undefined || next === "b" || next === "f" || (next >= "0" && next <= "9")) return null;
      const { body, negated } = classEscape(next);
      atom = `[${negated ? "^" : ""}${body}]`;
      i += 2;
    } else if (ch === "[") {
      let j = i + 1;
      let negated = false;
      if (pattern[j] === "^") {
        negated = true;
        j++;
      }
      const parts: string[] = [];
      const negatedClasses: string[] = [];
      let first = true;
      while (j < n && (pattern[j] !== "]" || first)) {
        first = false;
        const c = pattern[j]!;
        if (c === "%") {
          const e = pattern[j + 1];
          if (e === undefined) return null;
          const cls = classEscape(e);
          if (cls.negated) negatedClasses.push(cls.body);
          else parts.push(cls.body);
          j += 2;
        } else if (pattern[j + 1] === "-" && pattern[j + 2] !== undefined && pattern[j + 2] !== "]") {
          parts.push(`${escapeByte(c.charCodeAt(0))}-${escapeByte(pattern.charCodeAt(j + 2))}`);
          j += 3;
        } else {
          parts.push(escapeByte(c.charCodeAt(0)));
          j++;
        }
      }
      if (j >= n) return null; // malformed set: fengari raises the error
      // a negated class inside a set ([%S]) is a union JavaScript sets cannot spell
      if (negatedClasses.length > 0) return null;
      atom = `[${negated ? "^" : ""}${parts.join("")}]`;
      i = j + 1;
    } else if (ch === ".") {
      atom = "[\\s\\S]";
      i++;
    } else {
      atom = escapeByte(ch.charCodeAt(0));
      i++;
    }
    const q = pattern[i];
    if (q === "*" || q === "+" || q === "?") {
      atom += q;
      i++;
    } else if (q === "-") {
      atom += "*?";
      i++;
    }
    out += atom;
  }
  return open === 0 ? out : null;
}

interface Compiled {
  /** Matches at lastIndex only (anchored pattern) or searches from it. */
  re: RegExp;
  captures: boolean;
}

const MAX_CACHED = 500;
let cache = new Map<string, Compiled | null>();
// A script's pattern constants are the same Lua strings on every run: looked up by identity first.
const byBytes = new WeakMap<Uint8Array, Compiled | null>();

function compiledFor(bytes: Uint8Array): Compiled | null {
  const known = byBytes.get(bytes);
  if (known !== undefined) return known;
  const compiled = compile(latin1(bytes));
  byBytes.set(bytes, compiled);
  return compiled;
}

function compile(pattern: string): Compiled | null {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  const anchored = pattern.startsWith("^");
  const source = translatePattern(anchored ? pattern.slice(1) : pattern);
  let compiled: Compiled | null = null;
  if (source !== null) {
    try {
      compiled = { re: new RegExp(source, anchored ? "yd" : "gd"), captures: source.includes("(") };
    } catch {
      compiled = null;
    }
  }
  if (cache.size >= MAX_CACHED) cache = new Map();
  cache.set(pattern, compiled);
  return compiled;
}

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

/**
 * Replaces `string.match` with one that runs translatable patterns as regular expressions and
 * hands the rest (and non-string arguments, which Lua converts) to the original.
 */
export function installFastMatch(L: LuaState): void {
  lua.lua_getglobal(L, to_luastring("string"));
  lua.lua_getfield(L, -1, to_luastring("match"));
  const at = lua.lua_gettop(L);
  lua.lua_pushvalue(L, at);
  lua.lua_pushjsclosure(
    L,
    (state) => {
      const top = lua.lua_gettop(state);
      if (top < 2 || top > 3 || lua.lua_type(state, 1) !== lua.LUA_TSTRING || lua.lua_type(state, 2) !== lua.LUA_TSTRING)
        return original(state, top);
      if (top === 3 && !lua.lua_isinteger(state, 3)) return original(state, top);
      const subject = lua.lua_tostring(state, 1);
      const patternBytes = lua.lua_tostring(state, 2);
      if (!subject || !patternBytes) return original(state, top);
      const compiled = compiledFor(patternBytes);
      if (compiled === null) return original(state, top);
      const length = subject.length;
      let init = top === 3 ? lua.lua_tointeger(state, 3) : 1;
      if (init < 0) init = length + init + 1;
      if (init < 1) init = 1;
      else if (init > length + 1) {
        lua.lua_pushnil(state);
        return 1;
      }
      const { re } = compiled;
      re.lastIndex = init - 1;
      const found = re.exec(latin1(subject));
      if (found === null) {
        lua.lua_pushnil(state);
        return 1;
      }
      const spans = found.indices;
      if (!spans) return original(state, top);
      const groups = compiled.captures ? spans.length - 1 : 0;
      if (groups === 0) {
        const whole = spans[0]!;
        pushBytes(state, subject.subarray(whole[0], whole[1]));
        return 1;
      }
      for (let g = 1; g <= groups; g++) {
        const span = spans[g];
        if (span === undefined) lua.lua_pushnil(state);
        else pushBytes(state, subject.subarray(span[0], span[1]));
      }
      return groups;
    },
    1,
  );
  lua.lua_setfield(L, -3, to_luastring("match"));
  lua.lua_settop(L, at - 2);
}

/** fengari's string.match (the closure's upvalue) on the `top` arguments as given. */
function original(L: LuaState, top: number): number {
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, top, lua.LUA_MULTRET);
  return lua.lua_gettop(L);
}
