import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../tools/upstash-local/vector/standalone.ts";
import { prng } from "../support/prng.ts";

const DIM = 4;
let emu: VectorEmulator;

interface Answer {
  status: number;
  json: unknown;
}

async function send(
  path: string,
  body: string | Uint8Array | undefined,
  auth: string | null = `Bearer ${emu.token}`,
  method = "POST",
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth !== null) headers.authorization = auth;
  // Bytes go out exactly as given (split multi-byte sequences included).
  const res = await fetch(`${emu.url}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, json };
}

const post = (path: string, value: unknown): Promise<Answer> => send(path, JSON.stringify(value));

/** Asserts the Upstash error envelope: `{"error": "...", "status": N}` with HTTP status N. */
function expectError(answer: Answer, status: number, message?: string | RegExp): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json).toMatchObject({ error: expect.any(String), status });
  if (message !== undefined) expect((answer.json as { error: string }).error).toMatch(message);
}

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "dense", dimension: DIM } });
});
afterAll(async () => {
  await emu.close();
});

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
    for (const auth of [null, "Bearer wrong", `Basic ${emu.token}`, emu.token, `Bearer ${emu.token}x`, "Bearer "]) {
      expectError(await send("/info", "[]", auth), 401, /^Unauthorized: Invalid auth token$/);
    }
    expectError(await send("/nope", "[]", "Bearer wrong"), 401); // auth is checked before routing
    expect((await send("/info", "[]", `bearer ${emu.token}`)).status).toBe(200); // the scheme is case-insensitive
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
