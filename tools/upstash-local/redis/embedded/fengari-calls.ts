// Faster Lua function calls for fengari 0.1.x. Its call path pops stack slots with `delete`,
// which V8 runs as a generic property deletion (no fast path): with a session script calling a
// helper per stored message, the calls' setup and teardown cost a quarter of the script's time.
// The replacements below are fengari's own luaD_precall / luaD_poscall / adjust_top for the common
// cases (a Lua function with fixed parameters, a JavaScript function, no call or return hooks)
// with popped slots set to undefined, which reads the same; every other case goes to fengari's
// originals. The VM reaches these through the `ldo` module object, so replacing its properties
// is enough; fengari's own internal calls keep the originals.
import { createRequire } from "node:module";
import type { LuaState } from "fengari";

interface TValue {
  type: number;
  value: unknown;
  setfrom(other: TValue): void;
  setnilvalue(): void;
}
interface Proto {
  maxstacksize: number;
  numparams: number;
  is_vararg: boolean;
  code: unknown;
}
interface CallInfo {
  funcOff: number;
  nresults: number;
  func: TValue;
  top: number;
  l_base: number;
  l_code: unknown;
  l_savedpc: number;
  callstatus: number;
  previous: CallInfo;
  next: CallInfo | null;
}
interface State {
  stack: (TValue | undefined)[];
  top: number;
  stack_last: number;
  ci: CallInfo;
  hookmask: number;
}
type Precall = (L: State, off: number, nresults: number) => boolean;
type Poscall = (L: State, ci: CallInfo, firstResult: number, nres: number) => boolean;

const load = createRequire(import.meta.url);
const ldo = load("fengari/src/ldo.js") as {
  adjust_top(L: State, top: number): void;
  luaD_precall: Precall;
  luaD_poscall: Poscall;
  luaD_checkstack(L: State, n: number): void;
};
const lstate = load("fengari/src/lstate.js") as { luaE_extendCI(L: State): CallInfo; CIST_LUA: number };
const lobject = load("fengari/src/lobject.js") as { TValue: new (type: number, value: unknown) => TValue };
const defs = load("fengari/src/defs.js") as {
  constant_types: { LUA_TLCL: number; LUA_TLCF: number; LUA_TCCL: number; LUA_TNIL: number };
  LUA_MINSTACK: number;
  LUA_MULTRET: number;
  LUA_MASKCALL: number;
  LUA_MASKRET: number;
  LUA_MASKLINE: number;
};

const { LUA_TLCL, LUA_TLCF, LUA_TCCL, LUA_TNIL } = defs.constant_types;
const { LUA_MINSTACK, LUA_MULTRET, LUA_MASKCALL, LUA_MASKRET, LUA_MASKLINE } = defs;
const { TValue } = lobject;

let installed = false;

/** Installs the faster call path once per process (fengari's module is shared). */
export function installFastCalls(): void {
  if (installed) return;
  installed = true;
  const originalPrecall = ldo.luaD_precall;
  const originalPoscall = ldo.luaD_poscall;

  const adjustTop = (L: State, newtop: number): void => {
    const stack = L.stack;
    let top = L.top;
    if (top < newtop) {
      while (top < newtop) stack[top++] = new TValue(LUA_TNIL, null);
    } else {
      while (top > newtop) stack[--top] = undefined;
    }
    L.top = top;
  };

  const moveResults = (L: State, firstResult: number, res: number, nres: number, wanted: number): boolean => {
    const stack = L.stack;
    if (wanted === LUA_MULTRET) {
      for (let i = 0; i < nres; i++) stack[res + i]!.setfrom(stack[firstResult + i]!);
      for (let i = L.top; i >= res + nres; i--) stack[i] = undefined;
      L.top = res + nres;
      return false;
    }
    if (wanted === 1) {
      if (nres === 0) stack[res]!.setnilvalue();
      else stack[res]!.setfrom(stack[firstResult]!);
    } else if (wanted !== 0) {
      let i = 0;
      const moved = Math.min(wanted, nres);
      for (; i < moved; i++) stack[res + i]!.setfrom(stack[firstResult + i]!);
      for (; i < wanted; i++) {
        if (res + i >= L.top) stack[res + i] = new TValue(LUA_TNIL, null);
        else stack[res + i]!.setnilvalue();
      }
    }
    const newtop = res + wanted;
    for (let i = L.top; i >= newtop; i--) stack[i] = undefined;
    L.top = newtop;
    return true;
  };

  const poscall: Poscall = (L, ci, firstResult, nres) => {
    if (L.hookmask & (LUA_MASKRET | LUA_MASKLINE)) return originalPoscall(L, ci, firstResult, nres);
    const res = ci.funcOff;
    L.ci = ci.previous;
    L.ci.next = null;
    return moveResults(L, firstResult, res, nres, ci.nresults);
  };

  const precall: Precall = (L, off, nresults) => {
    const func = L.stack[off]!;
    if (L.hookmask & LUA_MASKCALL) return originalPrecall(L, off, nresults);
    if (func.type === LUA_TLCF || func.type === LUA_TCCL) {
      const f = (func.type === LUA_TCCL ? (func.value as { f: (L: LuaState) => number }).f : func.value) as (L: LuaState) => number;
      ldo.luaD_checkstack(L, LUA_MINSTACK);
      const ci = lstate.luaE_extendCI(L);
      ci.funcOff = off;
      ci.nresults = nresults;
      ci.func = func;
      ci.top = L.top + LUA_MINSTACK;
      ci.callstatus = 0;
      const n = f(L as unknown as LuaState);
      if (typeof n !== "number" || n < 0 || (n | 0) !== n) throw Error("invalid return value from JS function (expected integer)");
      poscall(L, ci, L.top - n, n);
      return true;
    }
    if (func.type !== LUA_TLCL) return originalPrecall(L, off, nresults);
    const p = (func.value as { p: Proto }).p;
    if (p.is_vararg) return originalPrecall(L, off, nresults);
    let n = L.top - off - 1;
    const fsize = p.maxstacksize;
    ldo.luaD_checkstack(L, fsize);
    for (; n < p.numparams; n++) L.stack[L.top++] = new TValue(LUA_TNIL, null);
    const base = off + 1;
    const ci = lstate.luaE_extendCI(L);
    ci.funcOff = off;
    ci.nresults = nresults;
    ci.func = func;
    ci.l_base = base;
    ci.top = base + fsize;
    adjustTop(L, ci.top);
    ci.l_code = p.code;
    ci.l_savedpc = 0;
    ci.callstatus = lstate.CIST_LUA;
    return false;
  };

  ldo.adjust_top = adjustTop;
  ldo.luaD_precall = precall;
  ldo.luaD_poscall = poscall;
}
