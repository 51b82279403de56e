import { describe, expect, it } from "vitest";
import type { Fact } from "../../../src/memory/model.ts";
import { factFromMetadata, factToMetadata } from "../../../src/stores/fact-metadata.ts";

const minimal: Fact = {
  id: "f1",
  text: "Ada sails on weekends",
  type: "preference",
  importance: 0.7,
  createdAt: 1000,
  updatedAt: 2000,
  lastAccessedAt: 3000,
  accessCount: 4,
  version: 2,
};

const full: Fact = {
  ...minimal,
  contentId: "f0123456789abcdef01234567",
  agentId: "planner",
  sourceSession: "s1",
  sourceMessage: "m1",
  history: [{ text: "Ada sails", updatedAt: 1500 }],
  metadata: { topic: "hobby", n: 2 },
  supersededAt: 4000,
  supersededBy: "f2",
};

describe("fact metadata", () => {
  it.each([
    ["a fact with only the required fields", minimal],
    ["a fact with every optional field", full],
  ])("round-trips %s: fact -> metadata -> fact", (_label, fact) => {
    expect(factFromMetadata(fact.id, factToMetadata(fact))).toEqual(fact);
  });

  it("keeps the id out of the metadata (it is the vector id) and leaves absent optional fields out", () => {
    const md = factToMetadata({ ...minimal, agentId: undefined, metadata: undefined });
    expect(md).not.toHaveProperty("id");
    expect(Object.keys(md).sort()).toEqual(
      ["accessCount", "createdAt", "importance", "lastAccessedAt", "text", "type", "updatedAt", "version"].sort(),
    );
    // JSON has no undefined: the stored form must be identical after a JSON round trip
    expect(JSON.parse(JSON.stringify(md))).toEqual(md);
  });

  it("reads a numeric vector id as a string id", () => {
    expect(factFromMetadata(42, factToMetadata(minimal))?.id).toBe("42");
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", [{ text: "x", type: "fact" }]],
    ["a string", "text"],
    ["metadata without text", { type: "fact" }],
    ["a non-string text", { text: 5, type: "fact" }],
    ["an unknown type", { text: "x", type: "opinion" }],
    ["no type", { text: "x" }],
  ])("is not a fact: %s", (_label, md) => {
    expect(factFromMetadata("v1", md)).toBeNull();
  });

  it("fills missing or non-finite numbers with defaults derived from createdAt", () => {
    const fact = factFromMetadata("f9", { text: "t", type: "fact", createdAt: 500, importance: Number.NaN, accessCount: "3" });
    expect(fact).toEqual({
      id: "f9",
      text: "t",
      type: "fact",
      importance: 0.5,
      createdAt: 500,
      updatedAt: 500,
      lastAccessedAt: 500,
      accessCount: 0,
      version: 1,
    });
    expect(factFromMetadata("f0", { text: "t", type: "fact" })?.createdAt).toBe(0);
  });

  it("drops optional fields of the wrong kind instead of trusting them", () => {
    const fact = factFromMetadata("f1", {
      text: "t",
      type: "fact",
      agentId: 7,
      sourceSession: null,
      metadata: ["not", "a", "record"],
      supersededAt: Number.POSITIVE_INFINITY,
      supersededBy: 3,
    });
    expect(fact).not.toBeNull();
    for (const key of ["agentId", "sourceSession", "metadata", "supersededAt", "supersededBy", "history"]) {
      expect(fact).not.toHaveProperty(key);
    }
  });

  it("keeps only the history entries that have a text, with a missing time read as 0", () => {
    const fact = factFromMetadata("f1", {
      text: "t",
      type: "fact",
      history: [{ text: "old", updatedAt: 10 }, { text: "older" }, { updatedAt: 5 }, "junk", null, [1]],
    });
    expect(fact?.history).toEqual([
      { text: "old", updatedAt: 10 },
      { text: "older", updatedAt: 0 },
    ]);
    expect(factFromMetadata("f1", { text: "t", type: "fact", history: "old" })).not.toHaveProperty("history");
  });
});
