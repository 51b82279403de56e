import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import {
  checkMetadataParams,
  CreatedAtSchema,
  FactTextSchema,
  FactTypeList,
  MAX_FACT_CHARS,
  metadataFilterKeyProblem,
  metadataFilterValueProblem,
  metadataParams,
  QueryTime,
} from "../../../../src/http/schemas/facts.ts";
import { scopeFilter } from "../../../../src/stores/fact-filter.ts";

/** The issues of a query checked as the fact routes check theirs (`known` plain parameters). */
function queryIssues(query: Record<string, unknown>, known: readonly string[] = ["limit"]): { path: PropertyKey[]; message: string }[] {
  const schema = z.record(z.string(), z.unknown()).superRefine(checkMetadataParams(known));
  const result = schema.safeParse(query);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe("fact schemas", () => {
  it("a fact text is trimmed and 1-4000 characters", () => {
    expect(FactTextSchema.parse("  Ada sails  ")).toBe("Ada sails");
    expect(FactTextSchema.safeParse("   ").success).toBe(false);
    expect(FactTextSchema.safeParse("x".repeat(MAX_FACT_CHARS)).success).toBe(true);
    expect(FactTextSchema.safeParse("x".repeat(MAX_FACT_CHARS + 1)).success).toBe(false);
  });

  it("a fact text with a NUL, a lone surrogate or a bidi control is refused, never stripped", () => {
    for (const bad of ["a\u0000b", "a\ud800b", "a\u202eb", "a\u2066b"]) expect(FactTextSchema.safeParse(bad).success).toBe(false);
  });

  it("a type list holds known types only", () => {
    expect(FactTypeList.parse("fact, preference,")).toEqual(["fact", "preference"]);
    expect(FactTypeList.safeParse("fact,secret").success).toBe(false);
    expect(FactTypeList.safeParse(",").success).toBe(false);
  });

  it("createdAt: epoch ms or ISO with offset, never in the future", () => {
    expect(CreatedAtSchema.parse(1735689600000)).toBe(1735689600000);
    expect(CreatedAtSchema.parse("2025-01-01T00:00:00Z")).toBe(1735689600000);
    expect(CreatedAtSchema.safeParse("2025-01-01").success).toBe(false);
    expect(CreatedAtSchema.safeParse(Date.now() + 3_600_000).success).toBe(false);
    expect(CreatedAtSchema.safeParse(-1).success).toBe(false);
  });

  it("a query time: epoch ms digits or ISO with offset", () => {
    expect(QueryTime.parse("1735689600000")).toBe(1735689600000);
    expect(QueryTime.parse("2025-01-01T01:00:00+01:00")).toBe(1735689600000);
    for (const bad of ["-1", "1e12", "2025-01-01", "yesterday", "2025-01-01T00:00:00"])
      expect(QueryTime.safeParse(bad).success).toBe(false);
  });

  it("a metadata key is a plain identifier and not a member every object has", () => {
    expect(metadataFilterKeyProblem("topic_2")).toBeNull();
    for (const bad of ["2topic", "a.b", "__proto__", "", "x".repeat(65)]) expect(metadataFilterKeyProblem(bad)).toMatch(/invalid/);
    for (const reserved of ["constructor", "toString", "hasOwnProperty"]) expect(metadataFilterKeyProblem(reserved)).toMatch(/reserved/);
  });

  it("a metadata value the edge accepts is one the index filter accepts, and the reverse", () => {
    for (const value of ["family", "it's", 'say "hi"', "v".repeat(256), "v".repeat(257), "a\\b", "a\nb", `a'b"c`, "x\u007f"]) {
      const accepted = metadataFilterValueProblem(value) === null;
      const filtered = (() => {
        try {
          scopeFilter({ metadata: { k: value } });
          return true;
        } catch {
          return false;
        }
      })();
      expect(filtered, JSON.stringify(value)).toBe(accepted);
    }
  });

  it("the query takes metadata.<key>=<value> beside its own parameters, and nothing else", () => {
    expect(queryIssues({ limit: "5", "metadata.topic": "family" })).toEqual([]);
    expect(queryIssues({ other: "x" })).toEqual([{ path: ["other"], message: "is not a known parameter" }]);
    expect(queryIssues({ filter: "topic = 'x'" })[0]?.message).toMatch(/^is not accepted/);
    expect(queryIssues({ "metadata.a.b": "x" })[0]?.path).toEqual(["metadata.a.b"]);
    expect(queryIssues({ "metadata.topic": ["a", "b"] })).toEqual([{ path: ["metadata.topic"], message: "must be given once" }]);
  });

  it("at most 8 metadata parameters", () => {
    const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`metadata.k${i}`, "v"]));
    expect(queryIssues(eight)).toEqual([]);
    expect(queryIssues({ ...eight, "metadata.k8": "v" })).toEqual([{ path: [], message: "at most 8 metadata.<key> parameters" }]);
  });

  it("metadataParams reads the equalities back, none as undefined", () => {
    expect(metadataParams({ limit: "5", "metadata.topic": "family", "metadata.n": "2" })).toEqual({ topic: "family", n: "2" });
    expect(metadataParams({ limit: "5" })).toBeUndefined();
  });
});
