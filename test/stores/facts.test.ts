import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FactScope } from "../../src/memory/ports/facts.ts";
import type { Fact, FactType } from "../../src/memory/model.ts";
import { InvalidIdError, InvalidStoreInput } from "../../src/stores/errors.ts";
import { typeFilter } from "../../src/stores/fact-filter.ts";
import { namespaceToScope, scopeToNamespace } from "../../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../../src/stores/facts-vector.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { REAL_REDIS_URL } from "../emulator/redis/variants.ts";

let local: UpstashLocal;
let index: Index;
let store: VectorFactStore;

const scope = (userId: string): FactScope => ({ tenant: "acme", userId });

function fact(id: string, text: string, type: FactType = "fact", extra: Partial<Fact> = {}): Fact {
  return { id, text, type, importance: 0.5, createdAt: 1000, updatedAt: 1000, lastAccessedAt: 1000, accessCount: 0, version: 1, ...extra };
}

beforeAll(async () => {
  local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, redisUrl: REAL_REDIS_URL, vector: { kind: "dense" } });
  index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
  store = new VectorFactStore(index);
});

afterAll(async () => {
  await local.close();
});

describe("VectorFactStore (index embeds the text)", () => {
  it("upserts in one request and finds a fact by meaning, with every field round-tripped", async () => {
    const full = fact("f-coffee", "The user drinks black coffee every morning", "preference", {
      importance: 0.9,
      accessCount: 3,
      version: 2,
      sourceSession: "s1",
      sourceMessage: "m7",
      history: [{ text: "The user drinks tea", updatedAt: 900 }],
      metadata: { origin: "chat", tags: ["drinks"] },
    });
    local.vector.resetLog();
    await store.upsert(scope("u1"), [full, fact("f-city", "The user lives in Berlin"), fact("f-dog", "The user has a dog named Rex")]);
    expect(local.vector.log).toHaveLength(1);
    expect(local.vector.log[0]?.path).toBe(`/upsert-data/${scopeToNamespace(scope("u1"))}`);

    const { scale, candidates: hits } = await store.query(scope("u1"), { text: "black coffee every morning", topK: 2 });
    expect(scale).toBe("dense");
    expect(hits[0]?.fact).toEqual(full);
    expect(hits[0]?.similarity).toBeGreaterThan(0);
    expect(hits[0]?.similarity).toBeLessThanOrEqual(1);
  });

  it("searches every wording of a query in one request, each fact once with its best score", async () => {
    await store.upsert(scope("u-voices"), [
      fact("f-sister", "The user's sister Mia lives in Lisbon"),
      fact("f-own", "I grew up in Galway"),
    ]);
    local.vector.resetLog();
    const { candidates: both } = await store.query(scope("u-voices"), {
      text: "where does my sister live",
      also: ["where does the user's sister live"],
      topK: 5,
    });
    expect(local.vector.log).toHaveLength(1);
    expect(new Set(both.map((c) => c.fact.id)).size).toBe(both.length);
    const { candidates: first } = await store.query(scope("u-voices"), { text: "where does my sister live", topK: 5 });
    const { candidates: third } = await store.query(scope("u-voices"), { text: "where does the user's sister live", topK: 5 });
    const score = (list: typeof both, id: string) => list.find((c) => c.fact.id === id)?.similarity ?? 0;
    expect(score(both, "f-sister")).toBeCloseTo(Math.max(score(first, "f-sister"), score(third, "f-sister")), 6);
  });

  it("keeps one fact per id (same content hash written twice)", async () => {
    const s = scope("u2");
    await store.upsert(s, [fact("same", "likes jazz")]);
    await store.upsert(s, [fact("same", "likes jazz", "preference", { version: 2 })]);
    const page = await store.list(s, "", 10);
    expect(page.facts.map((f) => [f.id, f.type, f.version])).toEqual([["same", "preference", 2]]);
  });

  it("never returns a superseded fact from a query (with or without a type filter), but keeps it for get and list; a refresh makes it current again", async () => {
    const s = scope("u-superseded");
    const paris = fact("f-paris", "The user lives in Paris", "fact", { supersededAt: 2000, supersededBy: "f-berlin" });
    await store.upsert(s, [paris, fact("f-berlin", "The user lives in Berlin")]);
    expect((await store.query(s, { text: "The user lives in Paris", topK: 10 })).candidates.map((h) => h.fact.id)).toEqual(["f-berlin"]);
    expect((await store.query(s, { text: "lives in Paris", topK: 10, types: ["fact"] })).candidates.map((h) => h.fact.id)).toEqual([
      "f-berlin",
    ]);
    expect(await store.get(s, ["f-paris"])).toEqual([paris]);
    expect((await store.list(s, "", 10)).facts.find((f) => f.id === "f-paris")).toEqual(paris);
    expect(await store.refresh(s, [{ id: "f-paris", version: 2, updatedAt: 3000 }])).toEqual([]);
    const [current] = await store.get(s, ["f-paris"]);
    expect(current).toEqual({ ...fact("f-paris", "The user lives in Paris"), version: 2, updatedAt: 3000 });
    expect((await store.query(s, { text: "lives in Paris", topK: 10 })).candidates.map((h) => h.fact.id).sort()).toEqual([
      "f-berlin",
      "f-paris",
    ]);
  });

  it("filters by type", async () => {
    const s = scope("u3");
    await store.upsert(s, [
      fact("p1", "prefers window seats", "preference"),
      fact("f1", "works as a nurse"),
      fact("c1", "is planning a trip", "context"),
    ]);
    const { candidates: prefs } = await store.query(s, { text: "seats", topK: 10, types: ["preference"] });
    expect(prefs.map((h) => h.fact.id)).toEqual(["p1"]);
    const { candidates: two } = await store.query(s, { text: "anything", topK: 10, types: ["fact", "context", "fact"] });
    expect(two.map((h) => h.fact.id).sort()).toEqual(["c1", "f1"]);
    expect(typeFilter(["fact", "context", "fact"])).toBe("type IN ('fact', 'context')");
  });

  it("finds facts by content id in one round trip: never edited (by id), edited (by the recorded content id), legacy (no content id)", async () => {
    const s = scope("ana.lima+test@example.com");
    const [a, b, c, d] = [
      "f000000000000000000000a01",
      "f000000000000000000000a02",
      "f000000000000000000000a03",
      "f000000000000000000000a04",
    ];
    await store.upsert(s, [
      fact(a, "likes tea", "fact", { contentId: a }),
      fact(b, "likes coffee now", "fact", { contentId: c }), // edited: created as b's text, holds c's now
      fact(d, "a legacy fact"),
    ]);
    local.vector.resetLog();
    const found = await store.findByContent(s, [
      { contentId: a, text: "likes tea" },
      { contentId: c, text: "likes coffee now" },
      { contentId: b, text: "what b was created with" },
      { contentId: d, text: "a legacy fact" },
      { contentId: "f000000000000000000000a05", text: "nothing" },
    ]);
    expect(found.map((m) => [m.holder?.id ?? null, m.idTaken])).toEqual([
      [a, true],
      [b, false],
      [null, true], // b's first content id is its id, but b no longer says that
      [d, true],
      [null, false],
    ]);
    // A fetch and a filtered query, sent together; the namespace of an e-mail-like user is literal in the path.
    expect(local.vector.log.map((r) => r.path.split("/")[1]).sort()).toEqual(["fetch", "query-data"]);
    expect(local.vector.log.every((r) => r.path.endsWith(`/${scopeToNamespace(s)}`) && r.path.includes("+test@example.com"))).toBe(true);
    await expect(store.findByContent(s, [{ contentId: "f1') OR (1 = 1", text: "x" }])).rejects.toBeInstanceOf(InvalidStoreInput);
  });

  it("keeps users apart", async () => {
    await store.upsert(scope("ua"), [fact("secret", "the vault code is 1234")]);
    expect((await store.query(scope("ub"), { text: "vault code", topK: 5 })).candidates).toEqual([]);
    expect(await store.get(scope("ub"), ["secret"])).toEqual([null]);
  });

  it("gets by id, patches metadata without touching the text, deletes", async () => {
    const s = scope("u4");
    await store.upsert(s, [fact("g1", "speaks French"), fact("g2", "speaks Dutch")]);
    const [g1, missing] = await store.get(s, ["g1", "nope"]);
    expect(g1?.text).toBe("speaks French");
    expect(missing).toBeNull();

    await store.patch(s, [{ ...g1!, accessCount: 5, lastAccessedAt: 2000, importance: 0.8 }]);
    const [patched] = await store.get(s, ["g1"]);
    expect(patched).toEqual({ ...g1!, accessCount: 5, lastAccessedAt: 2000, importance: 0.8 });
    expect((await store.query(s, { text: "speaks French", topK: 1 })).candidates[0]?.fact.id).toBe("g1");

    expect(await store.delete(s, ["g1", "nope"])).toBe(1);
    expect(await store.get(s, ["g1", "g2"])).toEqual([null, expect.objectContaining({ id: "g2" })]);
    expect(await store.delete(s, [])).toBe(0);
  });

  it("touch sets only the access fields: a concurrent edit survives and a deleted fact stays deleted", async () => {
    const s = scope("u4t");
    await store.upsert(s, [fact("t1", "likes tea"), fact("t2", "likes coffee")]);
    const [stale] = await store.get(s, ["t1"]);
    await store.patch(s, [{ ...stale!, text: "likes green tea", importance: 0.9, version: 2 }]);
    await store.delete(s, ["t2"]);
    await store.touch(s, [
      { id: "t1", accessCount: 1, lastAccessedAt: 3000 },
      { id: "t2", accessCount: 1, lastAccessedAt: 3000 },
    ]);
    const [t1, t2] = await store.get(s, ["t1", "t2"]);
    expect(t1).toMatchObject({ text: "likes green tea", importance: 0.9, version: 2, accessCount: 1, lastAccessedAt: 3000 });
    expect(t2).toBeNull();
  });

  it("lists with a cursor until it is empty", async () => {
    const s = scope("u5");
    const facts = Array.from({ length: 7 }, (_, i) => fact(`l${i}`, `fact number ${i}`));
    await store.upsert(s, facts);
    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const page = await store.list(s, cursor, 3);
      expect(page.facts.length).toBeLessThanOrEqual(3);
      seen.push(...page.facts.map((f) => f.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== "" && pages < 10);
    expect(seen.sort()).toEqual(facts.map((f) => f.id).sort());
    expect(pages).toBe(3);
  });

  it("deleteAll drops the namespace, scopes() lists only our namespaces", async () => {
    const s = scope("u6");
    await store.upsert(s, [fact("d1", "one"), fact("d2", "two"), fact("d3", "three")]);
    await index.upsert({ id: "x", data: "not ours" }, { namespace: "foreign" });
    const before = await store.scopes();
    expect(before).toContainEqual(s);
    expect(before.every((sc) => sc.tenant === "acme")).toBe(true);

    expect(await store.deleteAll(s)).toBe(3);
    expect(await store.scopes()).not.toContainEqual(s);
    expect(await store.list(s, "", 10)).toEqual({ facts: [], nextCursor: "" });
    expect((await store.query(s, { text: "one", topK: 3 })).candidates).toEqual([]);
    expect(await store.deleteAll(scope("never-written"))).toBe(0);
  });
});

describe("VectorFactStore with an injected embedder", () => {
  // deterministic 384-dim vectors: one hot bucket per word
  const embed = async (texts: string[]): Promise<number[][]> =>
    texts.map((t) => {
      const v = new Array<number>(384).fill(0);
      for (const w of t.toLowerCase().split(/\W+/).filter(Boolean)) v[[...w].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 384, 7)]! += 1;
      return v;
    });

  it("upserts and queries with vectors", async () => {
    const vstore = new VectorFactStore(index, { embed });
    const s = scope("emb");
    local.vector.resetLog();
    await vstore.upsert(s, [fact("e1", "red bicycle"), fact("e2", "green apple")]);
    const { scale, candidates: hits } = await vstore.query(s, { text: "apple green", topK: 1 });
    expect(scale).toBe("dense");
    expect(hits[0]?.fact.id).toBe("e2");
    expect(local.vector.log.map((e) => e.path)).toEqual([`/upsert/${scopeToNamespace(s)}`, `/query/${scopeToNamespace(s)}`]);
  });
});

describe("untrusted values never reach a filter or namespace", () => {
  it("rejects unknown fact types before any request", async () => {
    local.vector.resetLog();
    const evil = ["fact') OR (type != 'x", "FACT", "", "preference'"] as unknown as FactType[];
    for (const t of evil) {
      await expect(store.query(scope("u1"), { text: "x", topK: 3, types: [t] })).rejects.toBeInstanceOf(InvalidStoreInput);
    }
    await expect(store.upsert(scope("u1"), [fact("z", "x", "bogus" as FactType)])).rejects.toBeInstanceOf(InvalidStoreInput);
    expect(local.vector.log).toHaveLength(0);
  });

  it("rejects tenant and user ids that could escape the namespace", async () => {
    local.vector.resetLog();
    for (const bad of ["", "a/b", "../x", "a b", "a?b", "a#b", "é", "x".repeat(129)]) {
      await expect(store.query({ tenant: bad, userId: "u" }, { text: "x", topK: 1 })).rejects.toBeInstanceOf(InvalidIdError);
      await expect(store.upsert({ tenant: "acme", userId: bad }, [fact("a", "b")])).rejects.toBeInstanceOf(InvalidIdError);
      await expect(store.deleteAll({ tenant: "acme", userId: bad })).rejects.toBeInstanceOf(InvalidIdError);
    }
    expect(local.vector.log).toHaveLength(0);
  });

  it("namespaces are reversible and unambiguous", () => {
    const pairs: FactScope[] = [
      { tenant: "a__b", userId: "c" },
      { tenant: "a", userId: "b__c" },
      { tenant: "t.1", userId: "u.2" },
      { tenant: "x".repeat(128), userId: "y" },
    ];
    const names = pairs.map(scopeToNamespace);
    expect(new Set(names).size).toBe(pairs.length);
    expect(names.map(namespaceToScope)).toEqual(pairs);
    for (const foreign of ["", "foreign", "am.", "am.0.x.y", "am.5.ab.c", "am.1.a", "am.1.a.", "am.1.a.b/c"]) {
      expect(namespaceToScope(foreign), foreign).toBeNull();
    }
  });
});
