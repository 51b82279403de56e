/** @module The vector emulator enforces its batch, metadata, data and nesting limits without partial writes. */
import { describe, expect, it } from "vitest";
import { expectError, post, send, useVectorEmulator } from "./vector-bad-input-fixture.ts";

useVectorEmulator();

describe("limits", () => {
  it("rejects an upsert batch above 1000 vectors without writing any", async () => {
    const batch = Array.from({ length: 1001 }, (_, i) => ({ id: `big-${i}`, vector: [1, 0, 0, 0] }));
    expectError(await post("/upsert", batch), 400, /batch size 1001 exceeds the limit of 1000/);
    expect((await post("/fetch", { ids: ["big-0"] })).json).toEqual({ result: [null] });
    expect((await post("/upsert", batch.slice(0, 1000))).json).toEqual({ result: "Success" });
    await post("/reset", []);
  });

  it("rejects metadata above 48 KB and data above 1 MB", async () => {
    expectError(await post("/upsert", { id: "m", vector: [1, 0, 0, 0], metadata: { blob: "x".repeat(49 * 1024) } }), 400, /Metadata size/);
    expectError(await post("/upsert", { id: "d", vector: [1, 0, 0, 0], data: "x".repeat(1024 * 1024 + 1) }), 400, /Data size/);
    expectError(await post("/upsert-data", { id: "d", data: "汉".repeat(400 * 1024) }), 400, /Data size/); // 1.2 MB of UTF-8
    await post("/upsert", { id: "p", vector: [1, 0, 0, 0], metadata: { blob: "x".repeat(40 * 1024) } });
    expectError(
      await post("/update", { id: "p", metadata: { more: "y".repeat(10 * 1024) }, metadataUpdateMode: "PATCH" }),
      400,
      /Metadata size/,
    );
  });

  it("leaves the index unchanged when one item of a batch is bad", async () => {
    const answer = await post("/upsert", [
      { id: "ok-1", vector: [1, 0, 0, 0] },
      { id: "bad", vector: [1, 0] },
    ]);
    expectError(answer, 422);
    expect((await post("/fetch", { ids: ["ok-1"] })).json).toEqual({ result: [null] });
  });

  it("survives deeply nested JSON", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const answer = await send("/upsert", deep);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const nested = `{"id":"n","vector":[1,0,0,0],"metadata":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
    expectError(await send("/upsert", nested), 400, /nested too deeply/);
    await post("/upsert", { id: "n", vector: [1, 0, 0, 0], metadata: { a: 1 } });
    expectError(await send("/update", nested.replace('"vector":[1,0,0,0],', "")), 400, /nested too deeply/);
  });
});
