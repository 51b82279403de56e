import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { factsPath } from "../support/facts.ts";
import { expectJsonError } from "../support/sessions.ts";

// The deploy checks itself: the Vector index's own `info` is held against VECTOR_INDEX and the
// embedding settings in /healthz and before the first request that needs the index; a mismatch
// is a 503 naming the variable to set, never a degraded recall or an index's 400.

const bindings = env as unknown as { DENSE_VECTOR_URL: string };
const dense = bindings.DENSE_VECTOR_URL;

interface Logged {
  method: string;
  path: string;
}

async function denseLog(): Promise<Logged[]> {
  const res = await fetch(`${dense}/__control/log`);
  return ((await res.json()) as { requests: Logged[] }).requests;
}
async function clearDenseLog(): Promise<void> {
  await fetch(`${dense}/__control/log`, { method: "DELETE" });
}

/** A dense index under the default VECTOR_INDEX=hybrid; `tag` gives each test its own verdict (the expectation differs). */
const hybridOnDense = (tag: string) => ({ UPSTASH_VECTOR_REST_URL: dense, OPENAI_EMBEDDING_MODEL: `model-${tag}` });
const MESSAGE = "VECTOR_INDEX=hybrid but the index is DENSE: set VECTOR_INDEX=dense";

describe("a Vector index that does not fit the configuration", () => {
  it("fails /healthz naming VECTOR_INDEX", async () => {
    const res = await call("GET", "/healthz", { key: null, env: hybridOnDense("health") });
    expect(res.status, res.text).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(res.json).toMatchObject({ ok: false, redis: "ok", vector: "misconfigured", errors: { vector: MESSAGE } });
  });

  it("answers 503 naming the variable on fact routes, and writes nothing", async () => {
    const as = { env: hybridOnDense("facts") };
    const user = uniqueId("misfit");
    await clearDenseLog();
    const write = await call("POST", factsPath(user), { body: { text: "Lives in Lisbon" }, ...as });
    expect(write.status, write.text).toBe(503);
    expect(expectJsonError(write, 503).error.message).toBe(`the Vector index does not fit the configuration: ${MESSAGE}`);
    const recall = await call("GET", `${factsPath(user)}?query=lisbon`, as);
    expect(expectJsonError(recall, 503).error.message).toContain("set VECTOR_INDEX=dense");
    expect((await call("GET", factsPath(user), as)).status).toBe(503);
    // one `info`, then the verdict is remembered: nothing else reached the index
    expect((await denseLog()).map((r) => r.path)).toEqual(["/info"]);
  });

  it("refuses a context read and a chat turn with 503 instead of a degraded answer, storing nothing", async () => {
    const as = { env: hybridOnDense("context") };
    const sid = uniqueId("misfit");
    const context = await call("GET", `/v1/sessions/${sid}/context?userId=u1&query=${encodeURIComponent("where do I live")}`, as);
    expect(expectJsonError(context, 503).error.message).toContain(MESSAGE);
    const turn = await call("POST", `/v1/sessions/${sid}/chat`, { body: { userId: "u1", message: "where do I live?" }, ...as });
    expect(expectJsonError(turn, 503).error.message).toContain(MESSAGE);
    const session = await call<{ messages?: unknown[] }>("GET", `/v1/sessions/${sid}/history`);
    expect(session.status === 404 || (session.json.messages ?? []).length === 0, session.text).toBe(true);
    // a context without a query needs no index
    expect((await call("GET", `/v1/sessions/${sid}/context?userId=u1`, as)).status).toBe(200);
  });

  it("names OPENAI_EMBEDDING_DIMENSIONS when the Worker embeds to another size than the index's", async () => {
    const res = await call("GET", "/healthz", {
      key: null,
      env: { UPSTASH_VECTOR_REST_URL: dense, EMBEDDINGS: "openai", OPENAI_EMBEDDING_DIMENSIONS: "256" },
    });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({
      vector: "misconfigured",
      errors: {
        vector:
          "the index has dimension 384 but OPENAI_EMBEDDING_DIMENSIONS=256: set OPENAI_EMBEDDING_DIMENSIONS=384, or use an index of dimension 256",
      },
    });
    const byModel = await call("GET", "/healthz", { key: null, env: { UPSTASH_VECTOR_REST_URL: dense, EMBEDDINGS: "openai" } });
    expect((byModel.json as { errors: { vector: string } }).errors.vector).toBe(
      "the index has dimension 384 but OPENAI_EMBEDDING_MODEL=text-embedding-3-small (1536 dimensions): set OPENAI_EMBEDDING_DIMENSIONS=384, or use an index of dimension 1536",
    );
  });

  it("names EMBEDDINGS when the Worker embeds into a hybrid index", async () => {
    const res = await call("GET", "/healthz", { key: null, env: { EMBEDDINGS: "openai", OPENAI_EMBEDDING_DIMENSIONS: "1024" } });
    expect(res.status).toBe(503);
    expect((res.json as { errors: { vector: string } }).errors.vector).toMatch(
      /^EMBEDDINGS=openai stores dense vectors only, but the index is HYBRID/,
    );
  });
});

describe("an index that fits", () => {
  it("passes /healthz and serves facts, with one info per isolate and none after", async () => {
    const as = { env: { UPSTASH_VECTOR_REST_URL: dense, VECTOR_INDEX: "dense" } };
    expect((await call("GET", "/healthz", { key: null, ...as })).json).toMatchObject({ ok: true, vector: "ok" });
    const user = uniqueId("fit");
    await clearDenseLog();
    expect((await call("POST", factsPath(user), { body: { text: "Lives in Lisbon" }, ...as })).status).toBe(201);
    expect((await call("GET", `${factsPath(user)}?query=${encodeURIComponent("lives in Lisbon")}&minScore=0`, as)).status).toBe(200);
    // /healthz already judged this index: no request of the two went to /info
    expect((await denseLog()).map((r) => r.path)).not.toContain("/info");
  });

  it("the dev stack's hybrid index passes with the default VECTOR_INDEX", async () => {
    expect((await call("GET", "/healthz", { key: null })).json).toMatchObject({ ok: true, vector: "ok" });
  });
});
