import { describe, expect, it } from "vitest";
import { intentQueryText, queryIntents, QUERY_INTENTS } from "../../../../src/memory/facts/query-intents.ts";
import { recallQueryTexts } from "../../../../src/memory/facts/recall-query.ts";

const relations = (query: string): string[] => queryIntents(query).map((i) => i.relation);

describe("query intents", () => {
  it("reads the relation a question about the user asks for", () => {
    expect(relations("What do I do for a living?")).toEqual(["job"]);
    expect(relations("Where do I live?")).toEqual(["home"]);
    expect(relations("What is the user's job?")).toEqual(["job"]);
    expect(relations("Am I allergic to anything?")).toEqual(["health"]);
    expect(relations("Where am I originally from?")).toEqual(["origin"]);
    expect(relations("What is my wife’s profession?")).toEqual(["job", "relative:spouse"]);
    expect(relations("How old are my kids?")).toEqual(["age", "relative:child"]);
  });

  it("finds no intent in a question that is not about the user", () => {
    for (const query of [
      "How do I center a div with CSS?",
      "What is the capital of France?",
      "Where do penguins live?",
      "What's a good name for a goldfish?",
      "What do engineers do for a living?",
      "Hi there!",
    ]) {
      expect(relations(query), query).toEqual([]);
    }
  });

  it("appends the relation's fact words to the query, each word once", () => {
    expect(intentQueryText("What do I do for a living?")).toBe("What do I do for a living? works as job profession became teaches");
    expect(intentQueryText("Where do I work and where do I live?")).toBe(
      "Where do I work and where do I live? lives in living based moved to works at for joined employed",
    );
    expect(intentQueryText("Tell me a joke")).toBeNull();
  });

  it("every relation's cue and wording are set", () => {
    for (const intent of QUERY_INTENTS) {
      expect(intent.wording.trim().length, intent.relation).toBeGreaterThan(0);
      expect(intent.cue.flags, intent.relation).not.toContain("g");
    }
  });

  it("is searched as one more wording of the same request", () => {
    expect(recallQueryTexts("Where do I live?")).toEqual([
      "Where do I live?",
      "Where do the user live?",
      "Where do I live? lives in living based moved to",
    ]);
    expect(recallQueryTexts("What is the capital of France?")).toEqual(["What is the capital of France?"]);
  });
});
