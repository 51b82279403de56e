/** @module Tests of the recall benches' held-out split. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Dataset } from "../../../bench/data/recall/schema.ts";
import { fnv1a32, PERSONA_HALVES, textHalf } from "../../../bench/support/recall/split.ts";

const dataset = JSON.parse(readFileSync(new URL("../../../bench/data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;

describe("held-out split", () => {
  it("hashes text with FNV-1a (32 bits, UTF-8 bytes)", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
    expect(textHalf("a")).toBe(0);
  });

  it("cuts the unrelated queries of each language into two halves of similar size", () => {
    for (const language of ["en", "zh"] as const) {
      const texts = dataset.unrelated.filter((u) => u.language === language).map((u) => u.text);
      const first = texts.filter((t) => textHalf(t) === 0).length;
      expect(first / texts.length, language).toBeGreaterThan(0.35);
      expect(first / texts.length, language).toBeLessThan(0.65);
    }
  });

  it("splits the personas into two disjoint halves that cover them all", () => {
    const [a, b] = PERSONA_HALVES;
    expect(a.filter((p) => b.includes(p))).toEqual([]);
    expect([...a, ...b].sort()).toEqual(dataset.personas.map((p) => p.id).sort());
  });
});
