import { describe, expect, it } from "vitest";
import type { VectorIndex } from "../../../../src/stores/fact-index.ts";
import { scopeToNamespace } from "../../../../src/stores/fact-namespace.ts";
import { FieldCipher, isSealed } from "../../../../src/stores/sealed/cipher.ts";
import { sealedVectorIndex } from "../../../../src/stores/sealed/sealed-vector-index.ts";

type Stored = { id: string; metadata?: Record<string, unknown> };

/**
 * The calls of the index the decorator maps (upsert, update, fetch, query, range), over a map of
 * vectors by namespace; the rest are never called here.
 */
function fakeIndex() {
  const stored = new Map<string, Stored>();
  const key = (ns: string | undefined, id: string) => `${ns ?? ""}/${id}`;
  const all = (ns: string | undefined) => [...stored.entries()].filter(([k]) => k.startsWith(`${ns ?? ""}/`)).map(([, v]) => v);
  const fake = {
    upsert: async (args: Stored | Stored[], options?: { namespace?: string }) => {
      for (const v of Array.isArray(args) ? args : [args]) stored.set(key(options?.namespace, v.id), structuredClone(v));
      return "Success";
    },
    update: async (args: Stored, options?: { namespace?: string }) => {
      const current = stored.get(key(options?.namespace, args.id));
      if (current) stored.set(key(options?.namespace, args.id), { ...current, ...structuredClone(args) });
      return { updated: current ? 1 : 0 };
    },
    fetch: async (ids: string[], options?: { namespace?: string }) =>
      ids.map((id) => structuredClone(stored.get(key(options?.namespace, id)) ?? null)),
    query: async (_args: unknown, options?: { namespace?: string }) =>
      all(options?.namespace).map((v) => ({ ...structuredClone(v), score: 1 })),
    queryMany: async (args: unknown[], options?: { namespace?: string }) =>
      args.map(() => all(options?.namespace).map((v) => ({ ...structuredClone(v), score: 1 }))),
    range: async (_args: unknown, options?: { namespace?: string }) => ({
      nextCursor: "",
      vectors: structuredClone(all(options?.namespace)),
    }),
  };
  return { stored, index: fake as unknown as VectorIndex };
}

const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(13) }]);
const namespace = scopeToNamespace({ tenant: "acme", userId: "ada" });
const fact = {
  id: "f1",
  data: "Ada sails",
  metadata: { text: "Ada sails", type: "fact", history: [{ text: "Ada rows", updatedAt: 1 }], metadata: { topic: "hobby" } },
};

describe("the sealed Vector index", () => {
  it("seals the fact text and every superseded text in metadata; client metadata stays clear unless asked", async () => {
    const { stored, index } = fakeIndex();
    await sealedVectorIndex(index, cipher).upsert([fact], { namespace });
    const kept = stored.get(`${namespace}/f1`)?.metadata ?? {};
    expect(isSealed(String(kept.text))).toBe(true);
    expect(isSealed(String((kept.history as { text: string }[])[0]?.text))).toBe(true);
    expect(kept.type).toBe("fact");
    expect(kept.metadata).toEqual({ topic: "hobby" });
  });

  it("with sealMetadata the client metadata is sealed as one value, and every read opens it", async () => {
    const { stored, index } = fakeIndex();
    const sealed = sealedVectorIndex(index, cipher, { sealMetadata: true });
    await sealed.upsert(fact, { namespace });
    expect(isSealed(String(stored.get(`${namespace}/f1`)?.metadata?.metadata))).toBe(true);
    const [fetched] = await sealed.fetch(["f1"], { namespace });
    expect(fetched?.metadata).toEqual(fact.metadata);
    expect((await sealed.query({ data: "sail", topK: 1, includeMetadata: true }, { namespace }))[0]?.metadata).toEqual(fact.metadata);
    expect((await sealed.range({ cursor: "", limit: 10, includeMetadata: true }, { namespace })).vectors[0]?.metadata).toEqual(
      fact.metadata,
    );
  });

  it("without a key nothing is sealed, metadata included", async () => {
    const { stored, index } = fakeIndex();
    await sealedVectorIndex(index, new FieldCipher([]), { sealMetadata: true }).upsert(fact, { namespace });
    expect(stored.get(`${namespace}/f1`)?.metadata).toEqual(fact.metadata);
  });

  it("an update of the metadata is sealed too; one without metadata passes as it is", async () => {
    const { stored, index } = fakeIndex();
    const sealed = sealedVectorIndex(index, cipher);
    await sealed.upsert(fact, { namespace });
    await sealed.update({ id: "f1", metadata: { ...fact.metadata, text: "Ada sails boats" } }, { namespace });
    expect(isSealed(String(stored.get(`${namespace}/f1`)?.metadata?.text))).toBe(true);
    expect((await sealed.fetch(["f1"], { namespace }))[0]?.metadata?.text).toBe("Ada sails boats");
  });

  it("reads facts stored before a key and after it alike: sealed ones open, clear ones come back as stored", async () => {
    const { index } = fakeIndex();
    await sealedVectorIndex(index, new FieldCipher([])).upsert(
      { ...fact, id: "f0", metadata: { text: "Ada rows", type: "fact" } },
      { namespace },
    );
    const sealed = sealedVectorIndex(index, cipher);
    const clearOnly = await sealed.query({ data: "row", topK: 5, includeMetadata: true }, { namespace });
    expect(clearOnly.map((r) => r.metadata?.text)).toEqual(["Ada rows"]);
    await sealed.upsert(fact, { namespace });
    const groups = await sealed.queryMany(
      [
        { data: "sail", topK: 5, includeMetadata: true },
        { data: "row", topK: 5, includeMetadata: true },
      ],
      { namespace },
    );
    for (const results of groups) {
      expect(results.map((r) => r.metadata?.text).sort()).toEqual(["Ada rows", "Ada sails"]);
      expect(results.find((r) => r.id === "f1")?.metadata?.history).toEqual(fact.metadata.history);
    }
  });

  it("values are bound to the namespace's tenant: another tenant cannot open them", async () => {
    const { stored, index } = fakeIndex();
    await sealedVectorIndex(index, cipher).upsert(fact, { namespace });
    const other = scopeToNamespace({ tenant: "globex", userId: "ada" });
    stored.set(`${other}/f1`, structuredClone(stored.get(`${namespace}/f1`) as Stored));
    await expect(sealedVectorIndex(index, cipher).fetch(["f1"], { namespace: other })).rejects.toThrow();
  });
});
