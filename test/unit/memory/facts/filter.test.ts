import { describe, expect, it } from "vitest";
import { matchesFilter, type FactFilter } from "../../../../src/memory/facts/filter.ts";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { allOf, scopeFilter, typeFilter } from "../../../../src/stores/fact-filter.ts";
import { factToMetadata } from "../../../../src/stores/fact-metadata.ts";
import { evaluateFilter, parseFilter } from "../../../../tools/upstash-local/vector/filter/index.ts";

// The filter a list applies in the Worker and the one a recall sends to the index must agree:
// every fact and filter below is judged both ways.

const NOW = 1_800_000_000_000;
const fact = (id: string, extra: { agentId?: string; createdAt?: number; metadata?: Record<string, unknown> }): Fact =>
  createFact(id, { text: `text ${id}`, type: "fact", importance: 0.5, ...extra }, NOW);

const FACTS: Fact[] = [
  fact("f1", { createdAt: NOW - 3000, metadata: { topic: "family", n: 2, urgent: true } }),
  fact("f2", { agentId: "planner", createdAt: NOW - 2000, metadata: { topic: "travel", n: 0, urgent: false, quote: "it's" } }),
  fact("f3", { agentId: "coach", createdAt: NOW - 1000, metadata: { topic: 'say "hi"', n: 1.5, nested: { a: 1 } } }),
  fact("f4", {}),
];

const FILTERS: FactFilter[] = [
  {},
  { agentId: "planner" },
  { agentId: "coach" },
  { agentId: "other" },
  { createdAfter: NOW - 2000 },
  { createdBefore: NOW - 2000 },
  { createdAfter: NOW - 3000, createdBefore: NOW - 1000 },
  { metadata: { topic: "family" } },
  { metadata: { topic: "it's" } },
  { metadata: { quote: "it's" } },
  { metadata: { topic: 'say "hi"' } },
  { metadata: { n: "2" } },
  { metadata: { n: "1.5" } },
  { metadata: { n: "02" } },
  { metadata: { urgent: "true" } },
  { metadata: { urgent: "1" } },
  { metadata: { urgent: "0" } },
  { metadata: { n: "false" } },
  { metadata: { nested: "1" } },
  { metadata: { missing: "x" } },
  { metadata: { topic: "family' OR '1'='1" } },
  { agentId: "planner", metadata: { topic: "travel", urgent: "false" }, createdAfter: NOW - 5000 },
];

describe("fact filters", () => {
  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))(
    "%s: the Worker's rule and the index's filter pick the same facts",
    (_label, filter) => {
      const source = scopeFilter(filter);
      const node = source === undefined ? null : parseFilter(source);
      for (const f of FACTS) {
        const byIndex = node === null ? true : evaluateFilter(node, factToMetadata(f));
        expect(matchesFilter(f, filter), `${f.id} with ${source ?? "no filter"}`).toBe(byIndex);
      }
    },
  );

  it("names an agent's own facts and the shared ones", () => {
    expect(FACTS.filter((f) => matchesFilter(f, { agentId: "planner" })).map((f) => f.id)).toEqual(["f1", "f2", "f4"]);
    expect(scopeFilter({ agentId: "planner" })).toBe("(agentId = 'planner' OR HAS NOT FIELD agentId)");
  });

  it("composes with other clauses, each in parentheses", () => {
    const filter = allOf([typeFilter(["fact"]), scopeFilter({ agentId: "a", metadata: { n: "2" } }), "superseded = false"]);
    expect(filter).toBe(
      "(type IN ('fact')) AND (((agentId = 'a' OR HAS NOT FIELD agentId)) AND ((metadata.n = '2' OR metadata.n = 2))) AND (superseded = false)",
    );
    expect(allOf([undefined, ""])).toBeUndefined();
    expect(scopeFilter({})).toBeUndefined();
  });

  it.each<[string, FactFilter]>([
    ["an agent id with a quote", { agentId: "a' OR '1'='1" }],
    ["a metadata key with syntax", { metadata: { "topic = 'x' OR a": "x" } }],
    ["a nested metadata key", { metadata: { "a.b": "x" } }],
    ["a value with both quotes", { metadata: { topic: `a'b"c` } }],
    ["a value with a backslash", { metadata: { topic: "a\\'" } }],
    ["a value with a newline", { metadata: { topic: "a\nb" } }],
    ["a fractional time", { createdAfter: 1.5 }],
    ["a negative time", { createdBefore: -1 }],
    ["nine metadata keys", { metadata: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, "v"])) }],
  ])("refuses %s", (_label, filter) => {
    expect(() => scopeFilter(filter)).toThrow();
  });
});
