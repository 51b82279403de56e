import { describe, expect, it } from "vitest";
import { checkFactText, factTextProblem } from "../../../../src/memory/facts/fact-text.ts";

describe("the fact text rule", () => {
  it("refuses NUL, lone surrogates and every bidi embedding, override and isolate control", () => {
    expect(factTextProblem("lives in\u0000 Berlin")).toBe("must not hold a NUL character");
    for (const lone of ["\ud800", "a\udbffb", "\udc00 at the start", "ends with \ud83d"]) {
      expect(factTextProblem(lone), JSON.stringify(lone)).toMatch(/lone surrogate/);
    }
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const code of bidi) {
      expect(factTextProblem(`likes ${String.fromCharCode(code)}tea`)).toContain(`U+${code.toString(16).toUpperCase()}`);
    }
  });

  it("allows every other text: emoji (surrogate pairs), other scripts, ordinary controls around them", () => {
    for (const ok of [
      "likes 🍵 and 🐕",
      "住在柏林",
      "שלום עולם",
      "مرحبا",
      "tab\tand\nnewline",
      "\u200f marks \u200e",
      "U+2065 \u2065",
      "\u2029",
    ]) {
      expect(factTextProblem(ok), JSON.stringify(ok)).toBeNull();
    }
  });

  it("checkFactText throws an invalid MemoryError naming the field", () => {
    expect(() => checkFactText("a\u202eb", "facts.3.text")).toThrow(/^facts\.3\.text must not hold bidirectional/);
    expect(() => checkFactText("fine")).not.toThrow();
  });
});
