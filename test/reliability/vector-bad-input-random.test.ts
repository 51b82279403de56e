/** @module The vector emulator answers generated random bodies and filters with results or JSON errors, never a 5xx. */
import { describe, expect, it } from "vitest";
import { prng } from "../support/prng.ts";
import { DIM, expectError, post, send, useVectorEmulator } from "./vector-bad-input-fixture.ts";

useVectorEmulator();

const ENDPOINTS = [
  "/upsert",
  "/upsert/ns",
  "/upsert-data",
  "/update",
  "/query",
  "/query/ns",
  "/query-data",
  "/fetch",
  "/delete",
  "/range",
  "/reset",
  "/reset?all",
  "/info",
  "/list-namespaces",
  "/delete-namespace/ns",
  "/resumable-query",
  "/resumable-query-data",
  "/resumable-query-next",
  "/resumable-query-end",
];
const FIELDS = [
  "id",
  "vector",
  "metadata",
  "data",
  "topK",
  "filter",
  "includeMetadata",
  "includeVectors",
  "includeData",
  "ids",
  "prefix",
  "cursor",
  "limit",
  "uuid",
  "additionalK",
  "maxIdle",
  "metadataUpdateMode",
  "sparseVector",
  "queryMode",
];
const FILTER_WORDS = [
  "a",
  "b.c",
  "t[0]",
  "t[#-1]",
  "=",
  "!=",
  "<",
  ">=",
  "AND",
  "or",
  "NOT",
  "GLOB",
  "IN",
  "CONTAINS",
  "HAS",
  "FIELD",
  "(",
  ")",
  ",",
  "'x'",
  '"y"',
  "1",
  "-2.5",
  "true",
  "[",
  "'",
  "é",
  "\n",
];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 7 : 10));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return Math.floor(rand() * 2000) - 500;
    case 3:
      return rand() * 1e6 * (rand() < 0.5 ? -1 : 1);
    case 4:
      return Array.from({ length: DIM }, () => rand() - 0.5); // a valid vector, sometimes
    case 5:
      return ["", "id-1", "0", "小明", "'", "a = 1", "x".repeat(Math.floor(rand() * 50))][Math.floor(rand() * 7)];
    case 6:
      return Array.from({ length: 1 + Math.floor(rand() * 6) }, () => FILTER_WORDS[Math.floor(rand() * FILTER_WORDS.length)]).join(" ");
    case 7:
      return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
    default: {
      const obj: Record<string, unknown> = {};
      const n = Math.floor(rand() * 6);
      for (let i = 0; i < n; i += 1) obj[FIELDS[Math.floor(rand() * FIELDS.length)] ?? "id"] = randomValue(rand, depth + 1);
      return obj;
    }
  }
}

describe("generated random bodies", () => {
  it("answers each with a JSON result or a JSON error, never a 5xx", async () => {
    const rand = prng(20240611);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 400; i += 1) {
      const path = ENDPOINTS[Math.floor(rand() * ENDPOINTS.length)] ?? "/query";
      const roll = rand();
      const body = roll < 0.1 ? `{"id": ${"[".repeat(Math.floor(rand() * 5))}` : JSON.stringify(randomValue(rand));
      const answer = await send(path, body);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) {
        expect(answer.json, `${path} ${body}`).toHaveProperty("result");
        expect(answer.json).not.toHaveProperty("error");
      } else {
        expect([400, 404, 422], `${path} ${body} -> ${JSON.stringify(answer.json)}`).toContain(answer.status);
        expectError(answer, answer.status);
      }
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    // The server still works after the storm.
    expect((await post("/upsert", { id: "alive", vector: [1, 0, 0, 0] })).json).toEqual({ result: "Success" });
    expect((await post("/query", { vector: [1, 0, 0, 0], topK: 1 })).json).toEqual({ result: [{ id: "alive", score: 1 }] });
  });

  it("answers random filters with results or a positioned 400", async () => {
    const rand = prng(7);
    await post("/upsert", { id: "f", vector: [1, 0, 0, 0], metadata: { a: 1, b: { c: "x" }, t: ["x", 1] } });
    for (let i = 0; i < 200; i += 1) {
      const filter = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => FILTER_WORDS[Math.floor(rand() * FILTER_WORDS.length)]).join(
        " ",
      );
      const answer = await post("/query", { vector: [1, 0, 0, 0], topK: 5, filter });
      if (answer.status !== 200) expectError(answer, 400, /^Invalid filter\. At line \d+:\d+ /);
    }
  });
});
