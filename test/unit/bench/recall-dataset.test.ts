import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildDataset, serializeDataset } from "../../../bench/data/recall/build.ts";
import { datasetProblems, longestSharedRun, MAX_SHARED_RUN } from "../../../bench/data/recall/rules.ts";
import { LIFETIME_SECONDS, type Dataset } from "../../../bench/data/recall/schema.ts";
import { LEARNED_TYPES as FACT_TYPES } from "../../../src/memory/model.ts";

const committedText = readFileSync(new URL("../../../bench/data/recall/dataset.json", import.meta.url), "utf8");
const dataset = JSON.parse(committedText) as Dataset;

describe("recall dataset", () => {
  it("is exactly what the generator produces", () => {
    expect(committedText).toBe(serializeDataset(buildDataset()));
  });

  it("meets the minimum counts: 6+ personas (2+ English, 2+ Chinese), 40+ facts of all five types each", () => {
    expect(dataset.personas.length).toBeGreaterThanOrEqual(6);
    // A persona is English (Chinese) when at least 90% of its facts are; the rest are other-language distractors.
    const shareOf = (persona: string, language: string): number => {
      const facts = dataset.facts.filter((f) => f.persona === persona);
      return facts.filter((f) => f.language === language).length / facts.length;
    };
    expect(dataset.personas.filter((p) => shareOf(p.id, "en") >= 0.9).length).toBeGreaterThanOrEqual(2);
    expect(dataset.personas.filter((p) => shareOf(p.id, "zh") >= 0.9).length).toBeGreaterThanOrEqual(2);
    for (const p of dataset.personas) {
      const facts = dataset.facts.filter((f) => f.persona === p.id);
      expect(facts.length, p.id).toBeGreaterThanOrEqual(40);
      expect(new Set(facts.map((f) => f.type)), p.id).toEqual(new Set(FACT_TYPES));
    }
  });

  it("has 100+ queries in both languages, single- and multi-answer, and 100+ unrelated ones", () => {
    const q = dataset.queries;
    expect(q.length).toBeGreaterThanOrEqual(100);
    expect(q.filter((x) => x.language === "en").length).toBeGreaterThanOrEqual(40);
    expect(q.filter((x) => x.language === "zh").length).toBeGreaterThanOrEqual(40);
    expect(q.filter((x) => x.answers.length === 1).length).toBeGreaterThanOrEqual(50);
    expect(q.filter((x) => x.answers.length > 1).length).toBeGreaterThanOrEqual(10);
    expect(dataset.unrelated.length).toBeGreaterThanOrEqual(100);
    expect(dataset.unrelated.filter((u) => u.language === "en").length).toBeGreaterThanOrEqual(40);
    expect(dataset.unrelated.filter((u) => u.language === "zh").length).toBeGreaterThanOrEqual(40);
    const related = new Set(q.map((x) => x.text));
    expect(dataset.unrelated.filter((u) => related.has(u.text))).toEqual([]);
  });

  it("names only existing facts of the query's own persona as answers", () => {
    const facts = new Map(dataset.facts.map((f) => [f.id, f]));
    expect(facts.size).toBe(dataset.facts.length);
    for (const query of dataset.queries) {
      expect(query.answers.length, query.id).toBeGreaterThan(0);
      for (const id of query.answers) expect(facts.get(id)?.persona, `${query.id} -> ${id}`).toBe(query.persona);
    }
  });

  it("paraphrases: no query shares 12+ characters in a row with an answer (6+ for Chinese queries)", () => {
    const facts = new Map(dataset.facts.map((f) => [f.id, f]));
    const offenders = dataset.queries.flatMap((q) =>
      q.answers.flatMap((id) => {
        const run = longestSharedRun(q.text, facts.get(id)?.text ?? "");
        return run > MAX_SHARED_RUN[q.language] ? [`${q.id} ~ ${id}: ${run}`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it("dates every fact within its type's lifetime and spreads long-lived types over it", () => {
    for (const f of dataset.facts) {
      expect(f.ageSeconds, f.id).toBeGreaterThanOrEqual(0);
      expect(f.ageSeconds, f.id).toBeLessThan(LIFETIME_SECONDS[f.type]);
      expect(f.importance, f.id).toBeGreaterThanOrEqual(0);
      expect(f.importance, f.id).toBeLessThanOrEqual(1);
    }
    expect(dataset.lifetimeSeconds).toEqual(LIFETIME_SECONDS);
    const DAY = 86_400;
    expect(LIFETIME_SECONDS).toMatchObject({ fact: 365 * DAY, preference: 180 * DAY, context: 7 * DAY });
    expect(LIFETIME_SECONDS.temporary).toBe(3600);
    for (const type of FACT_TYPES) {
      const ages = dataset.facts.filter((f) => f.type === type).map((f) => f.ageSeconds / LIFETIME_SECONDS[type]);
      expect(Math.max(...ages) - Math.min(...ages), type).toBeGreaterThan(0.7);
    }
    const importances = dataset.facts.map((f) => f.importance);
    expect(importances.filter((x) => x >= 0.4 && x <= 0.8).length / importances.length).toBeGreaterThan(0.8);
    expect(importances.filter((x) => x < 0.4).length).toBeGreaterThanOrEqual(5);
  });
});

describe("recall dataset rules", () => {
  it("measures the longest shared run in code points, after folding case, width and spaces", () => {
    expect(longestSharedRun("What is my name?", "my  NAME is Emma")).toBe("my name".length);
    expect(longestSharedRun("我的生日是几号", "我的生日是三月")).toBe(5);
    expect(longestSharedRun("ＡＢＣ", "abc")).toBe(3);
    expect(longestSharedRun("abc", "xyz")).toBe(0);
  });

  it("reports a copied query, an unknown answer and an expired fact", () => {
    const broken = structuredClone(dataset);
    const query = broken.queries[0];
    const fact = broken.facts.find((f) => f.id === query?.answers[0]);
    if (!query || !fact) throw new Error("dataset has no queries");
    query.text = fact.text;
    query.answers.push("nobody.nothing");
    const temporary = broken.facts.find((f) => f.type === "temporary");
    if (!temporary) throw new Error("dataset has no temporary facts");
    temporary.ageSeconds = 7_200;
    const problems = datasetProblems(broken).join("\n");
    expect(problems).toContain(`${query.id}: shares`);
    expect(problems).toContain(`${query.id}: unknown answer nobody.nothing`);
    expect(problems).toContain(`${temporary.id}: age 7200 s`);
    expect(datasetProblems(dataset)).toEqual([]);
  });
});
