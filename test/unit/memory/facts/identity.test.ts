import { describe, expect, it } from "vitest";
import { FactService } from "../../../../src/memory/facts/fact-service.ts";
import { factId } from "../../../../src/memory/facts/identity.ts";
import { deliverPendingFacts } from "../../../../src/memory/facts/learning.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { FactExtractor, FactOperation } from "../../../../src/memory/ports/llm.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";

const scope = { tenant: "t", userId: "u" };

function service(facts = new InMemoryFactStore()) {
  let clock = 1_000;
  // the learner's own operations; episodes are tested in episodes.test.ts
  const options = { ...DEFAULT_MEMORY_OPTIONS, episodes: false };
  return { facts, service: new FactService({ facts, scope, options, now: () => (clock += 1) }) };
}

const draft = (text: string) => ({ text, type: "fact" as const, importance: 0.5 });

describe("stable fact ids", () => {
  it("an edit keeps the id and records the content id of the new text; a new write of that text finds the fact", async () => {
    const { facts, service: s } = service();
    const { fact } = await s.remember(draft("works at a bank"));
    expect(fact.id).toBe(await factId(scope, "works at a bank"));
    const edited = await s.update(fact.id, { text: "works at a hospital" });
    expect(edited).toMatchObject({ id: fact.id, contentId: await factId(scope, "works at a hospital"), version: 2 });
    expect(await s.get(fact.id)).toMatchObject({ text: "works at a hospital" });

    const again = await s.remember(draft("Works at a hospital."));
    expect(again).toMatchObject({ created: false, fact: { id: fact.id, version: 3 } });
    // The first text said again is a new fact; its natural id is taken, so it gets another one.
    const old = await s.remember(draft("works at a bank"));
    expect(old.created).toBe(true);
    expect(old.fact.id).not.toBe(fact.id);
    expect(old.fact.id).toMatch(/^f[0-9a-f]{24}$/);
    expect(old.fact.contentId).toBe(fact.id);
    expect(facts.all(scope)).toHaveLength(2);
    expect((await s.remember(draft("works at a bank"))).fact.id).toBe(old.fact.id);
  });

  it("refuses to edit a fact into a text another fact holds (409), changing nothing", async () => {
    const { facts, service: s } = service();
    const a = (await s.remember(draft("likes tea"))).fact;
    const b = (await s.remember(draft("likes coffee"))).fact;
    const before = facts.all(scope);
    await expect(s.update(b.id, { text: "Likes tea!" })).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining(a.id),
    });
    expect(facts.all(scope)).toEqual(before);
    // Changing only case or punctuation is no new text: the same fact, patched.
    expect((await s.update(a.id, { text: "Likes tea.", importance: 0.9 })).id).toBe(a.id);
  });

  it("a queued (persisted) fact lands on the edited fact that now holds its text", async () => {
    const facts = new InMemoryFactStore();
    const users = new InMemoryUserStore();
    const { service: s } = service(facts);
    const original = (await s.remember(draft("lives in Porto"))).fact;
    await s.update(original.id, { text: "lives in Lisbon" });
    const queued = (
      await new FactService({ facts: new InMemoryFactStore(), scope, options: DEFAULT_MEMORY_OPTIONS }).remember(draft("lives in Lisbon"))
    ).fact;
    users.queue(scope, [queued]);
    expect(await deliverPendingFacts({ facts, users }, scope, 0)).toBe(1);
    expect(facts.all(scope).map((f) => [f.id, f.text])).toEqual([[original.id, "lives in Lisbon"]]);
    expect(await users.pendingFacts(scope, 10)).toEqual([]);
  });

  it("a learned update keeps the id; one whose new text another fact holds folds into that fact", async () => {
    const { facts, service: s } = service();
    const tea = (await s.remember(draft("likes tea"))).fact;
    const coffee = (await s.remember(draft("likes coffee"))).fact;
    const extractor = (ops: FactOperation[]): FactExtractor => ({ extract: async () => ops });
    const user = [{ id: "m1", role: "user" as const, content: "now I like green tea", tokens: 5, importance: 0.5, ts: 1 }];

    const learned = await s.learn(
      extractor([{ op: "update", id: tea.id, text: "likes green tea", type: "preference", importance: 0.7 }]),
      user,
      "s1",
    );
    expect(learned.updated).toEqual([tea.id]);
    expect(await s.get(tea.id)).toMatchObject({ text: "likes green tea", type: "preference" });

    const folded = await s.learn(
      extractor([{ op: "update", id: tea.id, text: "likes coffee", type: "preference", importance: 0.7 }]),
      user,
      "s1",
    );
    expect(folded.updated).toEqual([coffee.id]);
    expect(facts.all(scope).map((f) => f.id)).toEqual([coffee.id]);
    expect((await s.get(coffee.id)).history?.map((h) => h.text)).toContain("likes green tea");
  });
});
