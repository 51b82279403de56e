/** @module The vector emulator answers malformed requests, bad tokens and invalid filters with Upstash error envelopes. */
import { describe, expect, it } from "vitest";
import { emulatorToken, expectError, post, send, useVectorEmulator } from "./vector-bad-input-fixture.ts";

useVectorEmulator();

describe("malformed requests", () => {
  it("answers malformed or missing JSON with 400", async () => {
    for (const path of [
      "/upsert",
      "/upsert-data",
      "/update",
      "/query",
      "/query-data",
      "/fetch",
      "/delete",
      "/range",
      "/resumable-query-next",
    ]) {
      expectError(await send(path, "{not json"), 400, /malformed JSON/);
      expectError(await send(path, ""), 400, /JSON body is required/);
      expectError(await send(path, Buffer.from([0xff, 0xfe, 0x00, 0x7b])), 400);
    }
  });

  it("ignores the body where the client sends []", async () => {
    for (const path of ["/info", "/list-namespaces", "/reset"]) {
      expect((await send(path, "garbage")).status).toBe(200);
    }
  });

  it("rejects wrong shapes with 400", async () => {
    const cases: [string, unknown, RegExp][] = [
      ["/upsert", { id: { a: 1 }, vector: [1, 2, 3, 4] }, /id must be/],
      ["/upsert", { id: "a", vector: "1,2,3,4" }, /vector must be an array/],
      ["/upsert", { id: "a", vector: [1, 2, "3", 4] }, /finite numbers/],
      ["/upsert", { id: "a", vector: [1, 2, 3, 4], metadata: [1] }, /metadata must be a JSON object/],
      ["/upsert", { id: "a", vector: [1, 2, 3, 4], data: 5 }, /data must be a string/],
      ["/upsert", { id: "a" }, /vector is required/],
      ["/upsert", [{ id: "a", vector: [1, 2, 3, 4] }, "x"], /item 1/],
      ["/upsert", { id: "", vector: [1, 2, 3, 4] }, /id cannot be empty/],
      ["/upsert", 42, /JSON object/],
      ["/query", { vector: [1, 2, 3, 4], topK: -1 }, /topK/],
      ["/query", { vector: [1, 2, 3, 4], topK: "5" }, /topK/],
      ["/query", { vector: [1, 2, 3, 4], topK: 1001 }, /topK must be less than or equal to 1000/],
      ["/query", { vector: [1, 2, 3, 4], includeMetadata: "yes" }, /includeMetadata must be a boolean/],
      ["/query", { topK: 1 }, /vector is required/],
      ["/query", [{ vector: [1, 2, 3, 4] }, { topK: 1 }], /vector is required/],
      ["/query-data", { data: 5, topK: 1 }, /data must be a string/],
      ["/fetch", { ids: "a" }, /ids must be an array/],
      ["/fetch", {}, /ids or prefix/],
      ["/range", { cursor: 0, limit: 0 }, /limit must be a positive integer/],
      ["/range", { cursor: "abc", limit: 1 }, /cursor/],
      ["/range", { cursor: 0 }, /limit/],
      ["/range", { cursor: 0, limit: 1001 }, /limit must be less than or equal to 1000/],
      ["/update", { id: "a", metadata: { x: 1 }, metadataUpdateMode: "MERGE" }, /metadataUpdateMode/],
      ["/update", { id: "a" }, /at least one of/],
      ["/update", { vector: [1, 2, 3, 4] }, /id must be/],
      ["/delete", { ids: ["a"], filter: "x = 1" }, /^Only and only one of the ids, prefix, or filter must be provided\.$/],
      ["/delete", { prefix: "" }, /^Only and only one/],
      ["/resumable-query-next", { uuid: "nope", additionalK: 1 }, /does not exist/],
      ["/resumable-query-end", {}, /uuid is required/],
    ];
    for (const [path, body, message] of cases) {
      const answer = await post(path, body);
      const expected = /does not exist/.test(message.source) ? 404 : 400;
      expectError(answer, expected, message);
    }
  });

  it("answers 422 for dimension mismatch and sparse vectors", async () => {
    expectError(await post("/upsert", { id: "a", vector: [1, 2] }), 422, "Invalid vector dimension: 2, expected: 4");
    expectError(await post("/update", { id: "a", vector: [1] }), 422, "Invalid vector dimension: 1, expected: 4");
    expectError(await post("/upsert", { id: "a", sparseVector: { indices: [0], values: [1] } }), 422, /sparse/);
    expectError(await post("/query-data", { data: "x", queryMode: "SPARSE" }), 422, /SPARSE/);
  });

  it("answers 404 for unknown endpoints", async () => {
    expectError(await post("/nope", {}), 404, /Not Found/);
    expectError(await post("/", {}), 404);
  });
});

describe("authentication", () => {
  it("answers 401 to a missing, wrong or malformed token", async () => {
    for (const auth of [null, "Bearer wrong", `Basic ${emulatorToken()}`, emulatorToken(), `Bearer ${emulatorToken()}x`, "Bearer "]) {
      expectError(await send("/info", "[]", auth), 401, /^Unauthorized: Invalid auth token$/);
    }
    expectError(await send("/nope", "[]", "Bearer wrong"), 401); // auth is checked before routing
    expect((await send("/info", "[]", `bearer ${emulatorToken()}`)).status).toBe(200); // the scheme is case-insensitive
  });
});

describe("invalid filters", () => {
  it("answers 400 with a position for each bad filter", async () => {
    const filters = [
      "a = ",
      "a = [1]",
      "(a = 1",
      "a = 1)",
      "a IN ('x'",
      "HAS FIELD",
      "a GLOB 1",
      "a < 'x'",
      "a == 1",
      "AND",
      "'x' = a",
      "a = 'unterminated",
    ];
    for (const filter of filters) {
      expectError(await post("/query", { vector: [1, 0, 0, 0], topK: 1, filter }), 400, /^Invalid filter\. At line \d+:\d+ /);
      expectError(await post("/delete", { filter }), 400, /^Invalid filter\. At line \d+:\d+ /);
    }
  });
});
