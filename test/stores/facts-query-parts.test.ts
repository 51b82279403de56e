/** The query parts of a recall on a hybrid index fused in the Worker: which queries the fact store's one batch holds. */
import { Index } from "@upstash/vector";
import { describe, expect, it } from "vitest";
import type { FactScope } from "../../src/memory/ports/facts.ts";
import type { Fact } from "../../src/memory/model.ts";
import { VectorFactStore } from "../../src/stores/facts-vector.ts";
import { startVectorEmulator } from "../../tools/upstash-local/vector/standalone.ts";

const scope = (userId: string): FactScope => ({ tenant: "acme", userId });

function fact(id: string, text: string): Fact {
  return { id, text, type: "fact", importance: 0.5, createdAt: 1000, updatedAt: 1000, lastAccessedAt: 1000, accessCount: 0, version: 1 };
}

describe("VectorFactStore on a hybrid index fused in the Worker: the query parts of a recall", () => {
  it("searches each distinct wording densely and the sparse text once, in one batch, and says how many queries it sent", async () => {
    const hybrid = await startVectorEmulator({ index: { kind: "hybrid" } });
    try {
      const store = new VectorFactStore(new Index({ url: hybrid.url, token: hybrid.token, enableTelemetry: false }), {
        retrieval: "hybrid",
      });
      const s = scope("u-parts");
      await store.upsert(s, [fact("f-sister", "The user's sister Mia lives in Lisbon"), fact("f-own", "I grew up in Galway")]);
      const first = "where does my sister live";
      const third = "where does the user's sister live";
      const batches: string[] = [];
      hybrid.listener.resetLog();
      const found = await store.query(s, { text: first, also: [third, first], sparseText: `${first} the user's`, topK: 5 });
      batches.push(...hybrid.listener.log.filter((e) => e.path.startsWith("/query-data")).map((e) => e.body));
      expect(found.queries).toBe(3);
      expect(batches).toHaveLength(1);
      const sent = JSON.parse(batches[0]!) as { data: string; queryMode: string }[];
      expect(sent.map((q) => [q.queryMode, q.data])).toEqual([
        ["DENSE", first],
        ["DENSE", third],
        ["SPARSE", `${first} the user's`],
      ]);
      // the sister fact was found by both parts: a dense and a sparse score
      const sister = found.candidates.find((c) => c.fact.id === "f-sister");
      expect([typeof sister?.dense, typeof sister?.sparse]).toEqual(["number", "number"]);
      // without a sparse text every wording is searched in both parts, as before
      expect((await store.query(s, { text: first, also: [third], topK: 5 })).queries).toBe(4);
    } finally {
      await hybrid.close();
    }
  });
});
