import { describe, expect, it } from "vitest";
import { FactService } from "../../../../src/memory/facts/fact-service.ts";
import { createFact, supersededFact } from "../../../../src/memory/facts/identity.ts";
import { repairAfterDelete } from "../../../../src/memory/facts/supersession.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";

const scope = { tenant: "t", userId: "u" };

const fact = (id: string, text: string, at: number): Fact => createFact(id, { text, type: "fact", importance: 0.5 }, at);

function service(facts = new InMemoryFactStore()) {
  let clock = 10_000;
  return new FactService({ facts, scope, options: DEFAULT_MEMORY_OPTIONS, now: () => (clock += 1) });
}

/** Berlin (1000) superseded by Munich (2000), Munich superseded by Hamburg (3000). */
async function chain(facts: InMemoryFactStore) {
  const berlin = fact("fberlin", "lives in Berlin", 1000);
  const munich = fact("fmunich", "lives in Munich", 2000);
  const hamburg = fact("fhamburg", "lives in Hamburg", 3000);
  await facts.upsert(scope, [supersededFact(berlin, munich.id, 2000), supersededFact(munich, hamburg.id, 3000), hamburg]);
  return { berlin, munich, hamburg };
}

const danglingIn = (all: Fact[]): string[] =>
  all.filter((f) => f.supersededBy !== undefined && !all.some((g) => g.id === f.supersededBy)).map((f) => f.id);

describe("repairAfterDelete", () => {
  it("makes the newest fact a deleted current fact superseded current again and points the older ones at it", () => {
    const gone = fact("fnew", "lives in Munich", 5000);
    const older = supersededFact(fact("fold", "lives in Paris", 1000), gone.id, 5000);
    const newer = supersededFact(fact("fmid", "lives in Berlin", 3000), gone.id, 5000);
    const unrelated = supersededFact(fact("fx", "likes tea", 2000), "fother", 2500);
    const repair = repairAfterDelete(gone, [older, newer, unrelated]);
    expect(repair.restored).toBe("fmid");
    expect(repair.updates).toHaveLength(2);
    const [restored, repointed] = repair.updates;
    expect(restored).toMatchObject({ id: "fmid", version: newer.version + 1 });
    expect(restored?.supersededAt).toBeUndefined();
    expect(restored?.supersededBy).toBeUndefined();
    expect(repointed).toMatchObject({ id: "fold", supersededBy: "fmid", supersededAt: 5000, version: older.version + 1 });
  });

  it("hands what a deleted superseded fact replaced on to its successor, restoring nothing", () => {
    const gone = supersededFact(fact("fmid", "lives in Munich", 2000), "fnew", 3000);
    const replaced = supersededFact(fact("fold", "lives in Berlin", 1000), gone.id, 2000);
    expect(repairAfterDelete(gone, [replaced])).toEqual({
      updates: [{ ...replaced, supersededBy: "fnew", version: replaced.version + 1 }],
      restored: null,
    });
  });

  it("changes nothing when the deleted fact superseded nothing", () => {
    expect(repairAfterDelete(fact("fa", "likes tea", 1000), [])).toEqual({ updates: [], restored: null });
  });
});

describe("FactService.delete and list with superseded facts", () => {
  it("deleting the current fact restores the one it superseded; none is left naming a deleted fact", async () => {
    const facts = new InMemoryFactStore();
    const { munich, hamburg } = await chain(facts);
    const s = service(facts);
    expect(await s.delete(hamburg.id)).toEqual({ restored: munich.id });
    const all = facts.all(scope);
    expect(danglingIn(all)).toEqual([]);
    expect(all.find((f) => f.id === munich.id)?.supersededAt).toBeUndefined();
    expect(all.find((f) => f.id === "fberlin")).toMatchObject({ supersededBy: munich.id });
    // Recall sees the restored fact again.
    const recalled = await s.recall("Where does the user live?", { k: 5, minScore: 0 });
    expect(recalled.map((r) => r.fact.id)).toEqual([munich.id]);
  });

  it("deleting a superseded fact in the middle of a chain re-points what it replaced", async () => {
    const facts = new InMemoryFactStore();
    const { berlin, munich, hamburg } = await chain(facts);
    expect(await service(facts).delete(munich.id)).toEqual({ restored: null });
    const all = facts.all(scope);
    expect(danglingIn(all)).toEqual([]);
    expect(all.find((f) => f.id === berlin.id)).toMatchObject({ supersededBy: hamburg.id });
    expect(all.find((f) => f.id === hamburg.id)?.supersededAt).toBeUndefined();
  });

  it("a failed repair deletes nothing, and the retry completes the delete", async () => {
    const facts = new InMemoryFactStore();
    const { munich, hamburg } = await chain(facts);
    const s = service(facts);
    facts.failNext("patch");
    await expect(s.delete(hamburg.id)).rejects.toThrow();
    expect(facts.all(scope).map((f) => f.id)).toContain(hamburg.id);
    expect(await s.delete(hamburg.id)).toEqual({ restored: munich.id });
    expect(danglingIn(facts.all(scope))).toEqual([]);
  });

  it("an unknown fact is not_found and changes nothing", async () => {
    const facts = new InMemoryFactStore();
    await chain(facts);
    const before = facts.all(scope);
    await expect(service(facts).delete("fnone")).rejects.toMatchObject({ kind: "not_found" });
    expect(facts.all(scope)).toEqual(before);
  });

  it("lists only current facts when asked, all of them otherwise", async () => {
    const facts = new InMemoryFactStore();
    const { hamburg } = await chain(facts);
    const s = service(facts);
    expect((await s.list("", 100, undefined, undefined, { current: true })).facts.map((f) => f.id)).toEqual([hamburg.id]);
    expect((await s.list("", 100)).facts).toHaveLength(3);
    expect((await s.list("", 100, undefined, undefined, { current: false })).facts).toHaveLength(3);
  });
});
