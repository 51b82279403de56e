import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Index, WeightingStrategy } from "@upstash/vector";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startVectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "vector-snapshot-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const f64 = (values: number[]): string => Buffer.from(Float64Array.from(values).buffer).toString("base64");

/** A file as the dense-only emulator wrote it (format version 1, no `kind`). */
async function writeVersion1(
  records: { id: string; vector: number[]; data?: string; metadata?: Record<string, unknown> }[],
): Promise<void> {
  const file = {
    format: "upstash-local-vector",
    version: 1,
    dimension: 2,
    namespaces: [{ name: "", records: records.map((r) => ({ ...r, vector: f64(r.vector) })) }],
  };
  await writeFile(join(dataDir, "vector.json"), JSON.stringify(file));
}

describe("snapshots", () => {
  it("keep sparse parts of a hybrid index across a restart (format version 2)", async () => {
    const first = await startVectorEmulator({ dataDir, index: { kind: "hybrid", dimension: 2 } });
    const a = new Index({ url: first.url, token: first.token });
    await a.upsert({ id: "h", vector: [0.1, 0.2], sparseVector: { indices: [5, 3], values: [0.5, 0.25] }, metadata: { m: 1 } });
    await a.namespace("ns").upsert({ id: "t", data: "我对花生过敏" });
    await first.close();
    expect(JSON.parse(await readFile(join(dataDir, "vector.json"), "utf8"))).toMatchObject({ version: 2, kind: "hybrid", dimension: 2 });

    const second = await startVectorEmulator({ dataDir, index: { kind: "hybrid", dimension: 2 } });
    const b = new Index({ url: second.url, token: second.token });
    expect(await b.fetch(["h"], { includeVectors: true, includeMetadata: true })).toEqual([
      { id: "h", vector: [0.1, 0.2], sparseVector: { indices: [5, 3], values: [0.5, 0.25] }, metadata: { m: 1 } },
    ]);
    expect(await b.query({ sparseVector: { indices: [3], values: [2] }, topK: 1 })).toEqual([{ id: "h", score: 0.5 }]);
    const [hit] = await b.namespace("ns").query({ data: "花生", topK: 1, weightingStrategy: WeightingStrategy.IDF });
    expect(hit?.id).toBe("t");
    await second.close();
  });

  it("keep a sparse index across a restart", async () => {
    const first = await startVectorEmulator({ dataDir, index: { kind: "sparse" } });
    await new Index({ url: first.url, token: first.token }).upsert({ id: "s", sparseVector: { indices: [1, 2], values: [1, 2] } });
    await first.close();
    const second = await startVectorEmulator({ dataDir, index: { kind: "sparse" } });
    const b = new Index({ url: second.url, token: second.token });
    expect(await b.fetch(["s"], { includeVectors: true })).toEqual([{ id: "s", sparseVector: { indices: [1, 2], values: [1, 2] } }]);
    await second.close();
  });

  it("load a version 1 (dense) file into a dense index unchanged", async () => {
    await writeVersion1([{ id: "old", vector: [0.6, 0.8], metadata: { m: "x" } }]);
    const emu = await startVectorEmulator({ dataDir, index: { kind: "dense", dimension: 2 } });
    const index = new Index({ url: emu.url, token: emu.token });
    expect(await index.fetch(["old"], { includeVectors: true, includeMetadata: true })).toEqual([
      { id: "old", vector: [0.6, 0.8], metadata: { m: "x" } },
    ]);
    await emu.close();
  });

  it("rebuild a version 1 dense file into a hybrid index from the stored texts", async () => {
    await writeVersion1([
      { id: "peanut", vector: [1, 0], data: "I am allergic to peanuts", metadata: { t: "fact" } },
      { id: "dog", vector: [0, 1], data: "My dog is named Biscuit" },
    ]);
    const emu = await startVectorEmulator({ dataDir }); // the default: hybrid, 1024 dimensions
    const index = new Index({ url: emu.url, token: emu.token });
    const [rec] = await index.fetch(["peanut"], { includeVectors: true, includeMetadata: true, includeData: true });
    expect(rec?.vector).toHaveLength(1024);
    expect(rec?.sparseVector?.indices.length).toBeGreaterThan(0);
    expect(rec?.metadata).toEqual({ t: "fact" });
    expect((await index.query({ data: "peanuts", topK: 1 }))[0]?.id).toBe("peanut");
    await emu.close();
    expect(JSON.parse(await readFile(join(dataDir, "vector.json"), "utf8"))).toMatchObject({ version: 2, kind: "hybrid" });
  });

  it("refuse a file of another kind whose records cannot be re-embedded, saying what to change", async () => {
    await writeVersion1([{ id: "raw", vector: [1, 0] }]);
    await expect(startVectorEmulator({ dataDir, index: { kind: "hybrid" } })).rejects.toThrow(
      /holds a dense index but the index is configured as hybrid.*UPSTASH_LOCAL_VECTOR_INDEX=dense/,
    );
  });
});
