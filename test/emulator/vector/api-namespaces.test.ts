import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Index } from "@upstash/vector";
import { describe, expect, it } from "vitest";
import { startVectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";
import { index, seededVector, withData } from "./api-fixture.ts";

describe("namespaces, info and reset", () => {
  it("isolates namespaces and lists them", async () => {
    const ns = index.namespace("tenant-a");
    await ns.upsert({ id: "n1", vector: seededVector(61), metadata: { t: "a" } });
    await index.upsert({ id: "d1", vector: seededVector(61) });
    expect(await ns.query({ vector: seededVector(61), topK: 5, includeMetadata: true })).toEqual([
      { id: "n1", score: 1, metadata: { t: "a" } },
    ]);
    expect(await index.query({ vector: seededVector(61), topK: 5 })).toEqual([{ id: "d1", score: 1 }]);
    expect(await ns.fetch(["n1", "d1"])).toEqual([{ id: "n1" }, null]);
    expect((await ns.range({ cursor: 0, limit: 10 })).vectors).toEqual([{ id: "n1" }]);
    expect(await index.listNamespaces()).toEqual(["", "tenant-a"]);
    expect(await ns.update({ id: "n1", metadata: { t: "b" } })).toEqual({ updated: 1 });
    expect(await ns.delete("n1")).toEqual({ deleted: 1 });
  });

  it("reports info with namespace counts", async () => {
    await index.upsert([
      { id: "a", vector: seededVector(71) },
      { id: "b", vector: seededVector(72) },
    ]);
    await index.namespace("ns").upsert({ id: "c", vector: seededVector(73) });
    const info = await index.info();
    expect(info).toMatchObject({
      vectorCount: 3,
      pendingVectorCount: 0,
      dimension: 384,
      similarityFunction: "COSINE",
      indexType: "DENSE",
      denseIndex: { dimension: 384, similarityFunction: "COSINE", embeddingModel: expect.any(String) },
      namespaces: { "": { vectorCount: 2, pendingVectorCount: 0 }, ns: { vectorCount: 1, pendingVectorCount: 0 } },
    });
    expect(info.indexSize).toBeGreaterThan(3 * 384);
  });

  it("resets one namespace, keeping it listed, or all of them", async () => {
    const ns = index.namespace("keep");
    await ns.upsert({ id: "k", vector: seededVector(81) });
    await index.upsert({ id: "d", vector: seededVector(82) });
    expect(await ns.reset()).toBe("Success");
    expect((await index.info()).namespaces).toEqual({
      "": { vectorCount: 1, pendingVectorCount: 0 },
      keep: { vectorCount: 0, pendingVectorCount: 0 },
    });
    await ns.upsert({ id: "k", vector: seededVector(81) });
    expect(await index.reset({ all: true })).toBe("Success");
    expect((await index.info()).vectorCount).toBe(0);
    expect(await index.listNamespaces()).toEqual(["", "keep"]);
  });

  it("resets only the default namespace without options", async () => {
    await index.namespace("other").upsert({ id: "o", vector: seededVector(83) });
    await index.upsert({ id: "d", vector: seededVector(84) });
    await index.reset();
    expect((await index.info()).namespaces).toMatchObject({ "": { vectorCount: 0 }, other: { vectorCount: 1 } });
  });

  it("deletes namespaces, but not a missing or the default one", async () => {
    await index.namespace("gone").upsert({ id: "g", vector: seededVector(85) });
    expect(await index.deleteNamespace("gone")).toBe("Success");
    expect(await index.listNamespaces()).not.toContain("gone");
    await expect(index.deleteNamespace("gone")).rejects.toThrow("Namespace gone for the index upstash-local does not exist");
    await expect(index.deleteNamespace("")).rejects.toThrow(/default namespace/);
  });
});

describe("persistence", () => {
  it("keeps data across close and restart with the same dataDir", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const first = await startVectorEmulator({ dataDir, index: { kind: "dense" } });
      const a = new Index({ url: first.url, token: first.token });
      await a.upsert(
        withData([
          { id: "keep-1", vector: seededVector(1), metadata: { m: "x" }, data: "hello" },
          { id: "keep-2", vector: seededVector(2) },
        ]),
      );
      await a.namespace("empty").upsert({ id: "tmp", vector: seededVector(3) });
      await a.namespace("empty").reset();
      await first.close();
      expect(JSON.parse(await readFile(join(dataDir, "vector.json"), "utf8"))).toMatchObject({ dimension: 384 });

      const second = await startVectorEmulator({ dataDir, index: { kind: "dense" } });
      const b = new Index({ url: second.url, token: second.token });
      expect(await b.fetch(["keep-1", "keep-2"], { includeMetadata: true, includeData: true, includeVectors: true })).toEqual([
        { id: "keep-1", vector: seededVector(1), metadata: { m: "x" }, data: "hello" },
        { id: "keep-2", vector: seededVector(2) },
      ]);
      expect(await b.listNamespaces()).toEqual(["", "empty"]);
      const [hit] = await b.query({ vector: seededVector(2), topK: 1 });
      expect(hit).toEqual({ id: "keep-2", score: 1 });
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("writes the file in the background after mutations (debounced)", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const emu2 = await startVectorEmulator({ dataDir, persistDebounceMs: 20, index: { kind: "dense" } });
      await new Index({ url: emu2.url, token: emu2.token }).upsert({ id: "bg", vector: seededVector(9) });
      // Poll instead of sleeping a fixed time: the write is asynchronous and the machine may be busy.
      let saved: { namespaces: { records: { id: string }[] }[] } | undefined;
      for (let i = 0; i < 100 && !saved; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        saved = await readFile(join(dataDir, "vector.json"), "utf8")
          .then((text) => JSON.parse(text) as NonNullable<typeof saved>)
          .catch(() => undefined);
      }
      expect(saved?.namespaces[0]?.records.map((r) => r.id)).toEqual(["bg"]);
      await emu2.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a data file written with another dimension", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const small = await startVectorEmulator({ dataDir, index: { kind: "dense", dimension: 2 } });
      await new Index({ url: small.url, token: small.token }).upsert({ id: "s", vector: [1, 0] });
      await small.close();
      await expect(startVectorEmulator({ dataDir, index: { kind: "dense" } })).rejects.toThrow(/2-dimensional/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
