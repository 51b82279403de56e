import { describe, expect, it } from "vitest";
import { InvalidStoreInput } from "../../../src/stores/errors.ts";
import { allOf, contentIdFilter, filterLiteral, scopeFilter, supersededByFilter, typeFilter } from "../../../src/stores/fact-filter.ts";

// How the filters compare with the Worker's own rule is in test/unit/memory/facts/filter.test.ts;
// here: what each builder lets through and what it refuses.

const CONTENT_ID = `f${"0123456789abcdef".repeat(2).slice(0, 24)}`;

describe("fact filters for the Vector index", () => {
  it("filterLiteral quotes only allowed values and escapes quotes and backslashes", () => {
    expect(filterLiteral("fact", ["fact"])).toBe("'fact'");
    expect(filterLiteral("it's", ["it's"])).toBe("'it\\'s'");
    expect(filterLiteral("a\\b", ["a\\b"])).toBe("'a\\\\b'");
    expect(() => filterLiteral("fact' OR '1'='1", ["fact"])).toThrow(InvalidStoreInput);
  });

  it("typeFilter names each type once, and no types is no filter", () => {
    expect(typeFilter(undefined)).toBeUndefined();
    expect(typeFilter([])).toBeUndefined();
    expect(typeFilter(["fact", "preference", "fact"])).toBe("type IN ('fact', 'preference')");
  });

  it("typeFilter refuses a type that is not a fact type", () => {
    expect(() => typeFilter(["fact", "secret" as "fact"])).toThrow(InvalidStoreInput);
  });

  it("contentIdFilter takes content ids only, each once", () => {
    expect(contentIdFilter([CONTENT_ID, CONTENT_ID])).toBe(`contentId IN ('${CONTENT_ID}')`);
    for (const bad of [[], ["f123"], [CONTENT_ID.toUpperCase()], [`${CONTENT_ID}0`], [CONTENT_ID, "x' OR 'a'='a"]]) {
      expect(() => contentIdFilter(bad)).toThrow(InvalidStoreInput);
    }
  });

  it("supersededByFilter takes a valid id and nothing a quote could break out of", () => {
    expect(supersededByFilter("f2")).toBe("supersededBy = 'f2'");
    expect(() => supersededByFilter("f2' OR '1'='1")).toThrow(InvalidStoreInput);
    expect(() => supersededByFilter("")).toThrow(InvalidStoreInput);
  });

  it("a null agent means the shared facts only", () => {
    expect(scopeFilter({ agentId: null })).toBe("HAS NOT FIELD agentId");
  });

  it("a time range becomes two clauses on createdAt, the end excluded", () => {
    expect(scopeFilter({ createdAfter: 100, createdBefore: 200 })).toBe("(createdAt >= 100) AND (createdAt < 200)");
    expect(() => scopeFilter({ createdAfter: Number.MAX_SAFE_INTEGER + 2 })).toThrow(InvalidStoreInput);
  });

  it("a metadata value also matches the number or boolean it spells", () => {
    expect(scopeFilter({ metadata: { topic: "sailing" } })).toBe("metadata.topic = 'sailing'");
    expect(scopeFilter({ metadata: { n: "-1.5" } })).toBe("(metadata.n = '-1.5' OR metadata.n = -1.5)");
    expect(scopeFilter({ metadata: { on: "false" } })).toBe("(metadata.on = 'false' OR metadata.on = false)");
    // not a plain decimal: compared as text only
    expect(scopeFilter({ metadata: { n: "1e3" } })).toBe("metadata.n = '1e3'");
  });

  it("a metadata value holding a single quote is quoted with double quotes", () => {
    expect(scopeFilter({ metadata: { quote: "it's" } })).toBe(`metadata.quote = "it's"`);
  });

  it("a metadata value may be at most 256 characters", () => {
    expect(scopeFilter({ metadata: { k: "v".repeat(256) } })).toBe(`metadata.k = '${"v".repeat(256)}'`);
    expect(() => scopeFilter({ metadata: { k: "v".repeat(257) } })).toThrow(InvalidStoreInput);
  });

  it("allOf leaves a single clause bare and drops empty ones", () => {
    expect(allOf(["a = 1"])).toBe("a = 1");
    expect(allOf(["a = 1", undefined, "", "b = 2 OR c = 3"])).toBe("(a = 1) AND (b = 2 OR c = 3)");
    expect(allOf([])).toBeUndefined();
  });
});
