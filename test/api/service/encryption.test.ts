import { Index } from "@upstash/vector/cloudflare";
import { env } from "cloudflare:test";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { call, uniqueId as freshId } from "../support/helpers.ts";
import { addFact, listAll, runCron } from "../support/facts.ts";
import { compress, readHistory, resetLlm, setLlmMode } from "../support/llm.ts";
import { testRedis } from "../support/redis.ts";
import { append, readSession, sessionPath } from "../support/sessions.ts";

/**
 * A re-seal batch small enough to need several runs, large enough that 200 runs pass every key of
 * the test Redis (other files' keys too: the scan walks the whole keyspace) more than twice.
 */
const resealBatch = async (): Promise<string> => String(Math.max(50, Math.ceil((await testRedis.dbsize()) / 80)));

const bindings = env as unknown as { UPSTASH_VECTOR_REST_TOKEN: string; DENSE_VECTOR_URL: string };
// The Worker embeds (EMBEDDINGS=openai), so this file uses a dense-only index of its own.
const denseVectorUrl = bindings.DENSE_VECTOR_URL;
const rawVector = new Index({ url: denseVectorUrl, token: bindings.UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });

// Every id this file makes, so afterAll can erase what it sealed: later files read the tenant's facts
// (stats) without these keys, and a value sealed under a key they do not have is a clear error.
const made: string[] = [];
const uniqueId = (prefix: string): string => {
  const id = freshId(prefix);
  made.push(id);
  return id;
};

const secret = (): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const K1 = `k1:${secret()}`;
const K2 = `k2:${secret()}`;

/** Sealed at rest; the Worker embeds, so Vector holds sealed text only. */
const sealed = (keys: string) => ({ MEMORY_ENCRYPTION_KEYS: keys, ...clear });
// The emulator's dense index has 384 dimensions. The file's own tenant ("sealed", reached with the
// usual test key): other files read the acme tenant's facts (stats, cron) without these keys.
const clear = {
  EMBEDDINGS: "openai",
  OPENAI_EMBEDDING_DIMENSIONS: "384",
  API_KEYS: "sealed:acme-key",
  UPSTASH_VECTOR_REST_URL: denseVectorUrl,
  VECTOR_INDEX: "dense",
};

/** Everything Redis holds about a session and a user, as text, read from Redis itself (not the API). */
async function rawRedis(sessionId: string, userId: string): Promise<string> {
  const keys = [...(await testRedis.keys(`am:sealed:s:${sessionId}:*`)), ...(await testRedis.keys(`am:sealed:u:${userId}:*`))];
  const values = await Promise.all(
    keys.map(async (key) => {
      const type = await testRedis.type(key);
      if (type === "list") return testRedis.lrange(key, 0, -1);
      if (type === "hash") return testRedis.hgetall(key);
      if (type === "set") return testRedis.smembers(key);
      if (type === "zset") return testRedis.zrange(key, 0, -1);
      return testRedis.get(key);
    }),
  );
  return JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, values[i]])));
}

/** Every vector of a user's namespace with metadata and data, read from the Vector emulator. */
async function rawFacts(userId: string): Promise<string> {
  const page = await rawVector.range(
    { cursor: 0, limit: 1000, includeMetadata: true, includeData: true },
    { namespace: `am.6.sealed.${userId}` },
  );
  return JSON.stringify(page.vectors);
}

/** Distinct words per stored thing, so a hit names what leaked. */
function markers() {
  const tag = crypto.randomUUID().slice(0, 8);
  return {
    message: `Zanzibar${tag}`,
    argument: `Quokka${tag}`,
    tool: `Wombat${tag}`,
    note: `Narwhal${tag}`,
    pad: `Axolotl${tag}`,
    fact: `Pangolin${tag}`,
    turn: `Capybara${tag}`,
  };
}

async function writeEverything(sessionId: string, userId: string, m: ReturnType<typeof markers>, options: { env: Record<string, string> }) {
  await append(
    sessionId,
    [
      { role: "user", content: `${m.message} is the name of my boat`, persist: true },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: m.argument }) } }],
      },
      { role: "tool", tool_call_id: "call_1", content: `${m.tool} found` },
      { role: "assistant", content: `${m.message} sounds lovely` },
      { role: "user", content: "thanks" },
      { role: "assistant", content: "you are welcome" },
    ],
    { userId, env: options.env },
  );
  const note = await call("PUT", `${sessionPath(sessionId)}/notes/goal`, { body: { value: `${m.note} plan` }, env: options.env });
  expect(note.status, note.text).toBe(200);
  const pad = await call("POST", `${sessionPath(sessionId)}/scratchpad`, { body: { entry: `${m.pad} step` }, env: options.env });
  expect(pad.status, pad.text).toBe(200);
  await addFact(userId, { text: `${m.fact} is my favourite animal` }, { env: options.env });
  // A chat turn records its outcome (the echoed reply) for retries with the same key.
  const turn = await call("POST", `${sessionPath(sessionId)}/chat`, {
    body: { message: `${m.turn} please`, userId },
    headers: { "idempotency-key": uniqueId("turn") },
    env: options.env,
  });
  expect(turn.status, turn.text).toBe(200);
  // "summary" mode repeats the first words of each line, so the summary holds the message marker.
  await setLlmMode({ mode: "summary" });
  await compress(sessionId, { force: true, env: options.env });
}

describe("encryption at rest", () => {
  afterEach(resetLlm);
  afterAll(async () => {
    for (const id of made) {
      const res = await call("DELETE", `/v1/users/${id}`, { env: sealed(`${K2},${K1}`) });
      expect([200, 202], res.text).toContain(res.status);
    }
  });

  it("without a key the raw stores hold the texts in clear (the check below can fail)", async () => {
    const [sid, user, m] = [uniqueId("clear"), uniqueId("u"), markers()];
    await writeEverything(sid, user, m, { env: clear });
    const redis = await rawRedis(sid, user);
    for (const word of [m.message, m.argument, m.tool, m.note, m.pad, m.turn]) expect(redis).toContain(word);
    expect(await rawFacts(user)).toContain(m.fact);
  });

  it("with a key neither Redis nor Vector holds any plaintext, and the API still reads it all", async () => {
    const [sid, user, m] = [uniqueId("seal"), uniqueId("u"), markers()];
    await writeEverything(sid, user, m, { env: sealed(K1) });

    const redis = await rawRedis(sid, user);
    for (const word of Object.values(m)) expect(redis).not.toContain(word);
    expect(redis).toContain("enc:v1:k1:");
    const vector = await rawFacts(user);
    expect(vector).not.toContain(m.fact);
    expect(vector).not.toContain(m.message);
    expect(vector).toContain("enc:v1:k1:");

    // The queued fact was delivered and unqueued: its sealed form matched what was stored.
    expect(await testRedis.hlen(`am:sealed:u:${user}:pending`)).toBe(0);

    const env = sealed(K1);
    const history = await readHistory(sid, { env });
    expect(history.summary?.text).toContain(m.message);
    expect(JSON.stringify(history.archived)).toContain(m.message);
    const read = JSON.stringify([await readSession(sid, { env }), history.archived]);
    for (const text of [m.argument, `${m.tool} found`, "you are welcome", `${m.turn} please`]) expect(read).toContain(text);
    const notes = await call<{ notes: Record<string, string> }>("GET", `${sessionPath(sid)}/notes`, { env });
    expect(notes.text).toContain(`${m.note} plan`);
    const pad = await call("GET", `${sessionPath(sid)}/scratchpad`, { env });
    expect(pad.text).toContain(`${m.pad} step`);
    const facts = (await listAll(user, { env })).map((f) => f.text);
    expect(facts).toContain(`${m.fact} is my favourite animal`);
    expect(facts).toContain(`${m.message} is the name of my boat`);
    const one = await call<{ text: string }>(
      "GET",
      `/v1/users/${user}/facts/${facts.length > 0 ? (await listAll(user, { env }))[0]!.id : "none"}`,
      { env },
    );
    expect(one.status, one.text).toBe(200);
    expect(one.json.text).toMatch(new RegExp(`${m.fact}|${m.message}`));
    const recalled = await call("GET", `/v1/users/${user}/facts?query=${encodeURIComponent(`${m.fact} favourite animal`)}`, { env });
    expect(recalled.text).toContain(`${m.fact} is my favourite animal`);
    const sessions = await call("GET", `/v1/users/${user}/sessions`, { env });
    expect(sessions.text).toContain(m.message);
  });

  it("rotation: data sealed under key 1 reads after key 2 is added first; the cron re-seals it under key 2", async () => {
    const [sid, user, m] = [uniqueId("rot"), uniqueId("u"), markers()];
    await writeEverything(sid, user, m, { env: sealed(K1) });
    const rotated = sealed(`${K2},${K1}`);
    expect((await readHistory(sid, { env: rotated })).summary?.text).toContain(m.message);
    await append(sid, [{ role: "user", content: "written after the rotation" }], { userId: user, env: rotated });
    expect(await rawFacts(user)).toContain("enc:v1:k1:");
    const mixed = await rawRedis(sid, user);
    expect(mixed).toContain("enc:v1:k1:");
    expect(mixed).toContain("enc:v1:k2:");

    // Bounded runs: a small batch needs several; each resumes where the previous one stopped.
    const batch = await resealBatch();
    for (let run = 0; run < 200; run++) {
      await runCron(Date.now(), { ...rotated, CLEANUP_BATCH: batch });
      const [r, v] = [await rawRedis(sid, user), await rawFacts(user)];
      if (!r.includes("enc:v1:k1:") && !v.includes("enc:v1:k1:")) break;
    }
    const [redis, vector] = [await rawRedis(sid, user), await rawFacts(user)];
    expect(redis).not.toContain("enc:v1:k1:");
    expect(vector).not.toContain("enc:v1:k1:");
    expect(redis).toContain("enc:v1:k2:");

    // key 1 can go now: everything reads with key 2 alone
    const only2 = sealed(K2);
    expect((await readHistory(sid, { env: only2 })).summary?.text).toContain(m.message);
    expect(JSON.stringify(await readSession(sid, { env: only2 }))).toContain("written after the rotation");
    expect((await listAll(user, { env: only2 })).map((f) => f.text)).toContain(`${m.fact} is my favourite animal`);
    const notes = await call("GET", `${sessionPath(sid)}/notes`, { env: only2 });
    expect(notes.text).toContain(`${m.note} plan`);
  });

  it("rotation re-seals stored traces too: they read with the new key alone", async () => {
    const [sid, user] = [uniqueId("rot-trace"), uniqueId("u")];
    const k1 = sealed(K1);
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: user, env: k1 });
    await addFact(user, { text: "Rides a red bicycle to work", type: "fact", importance: 0.9 }, { env: k1 });
    const read = await call("GET", `${sessionPath(sid)}/context?userId=${user}&query=${encodeURIComponent("red bicycle")}`, { env: k1 });
    const traceId = read.headers.get("x-memory-trace-id");
    const traceKey = `am:sealed:obs:tr:${traceId}`;
    expect(JSON.stringify(await testRedis.get(traceKey))).toContain("enc:v1:k1:");
    const rotated = sealed(`${K2},${K1}`);
    const batch = await resealBatch();
    for (let run = 0; run < 200; run++) {
      await runCron(Date.now(), { ...rotated, CLEANUP_BATCH: batch });
      if (!JSON.stringify(await testRedis.get(traceKey)).includes("enc:v1:k1:")) break;
    }
    expect(JSON.stringify(await testRedis.get(traceKey))).not.toContain("enc:v1:k1:");
    expect(await testRedis.ttl(traceKey)).toBeGreaterThan(0);
    const trace = await call("GET", `/v1/traces/${traceId}`, { env: sealed(K2) });
    expect(trace.status, trace.text).toBe(200);
    expect(trace.text).toContain("Rides a red bicycle");
  });

  it("a missing or wrong key gives a clear 500 error, never ciphertext or garbage", async () => {
    const [sid, user, m] = [uniqueId("miss"), uniqueId("u"), markers()];
    await writeEverything(sid, user, m, { env: sealed(K1) });
    const cases = [
      { env: { ...clear, MEMORY_ENCRYPTION_KEYS: undefined }, code: "encryption_key_missing" },
      { env: sealed(K2), code: "encryption_key_missing" },
      { env: sealed(`k1:${secret()}`), code: "encryption_key_invalid" },
    ];
    for (const c of cases) {
      for (const [method, path] of [
        ["GET", sessionPath(sid)],
        ["GET", `${sessionPath(sid)}/history`],
        ["GET", `${sessionPath(sid)}/notes`],
        ["GET", `/v1/users/${user}/facts`],
        ["GET", `/v1/users/${user}/export`],
      ] as const) {
        const res = await call<{ error: { code: string; message: string } }>(method, path, { env: c.env });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(500);
        expect(res.json.error.code).toBe(c.code);
        expect(res.json.error.message).toMatch(/MEMORY_ENCRYPTION_KEYS|encryption key/);
        expect(res.text).not.toContain("enc:v1:");
      }
    }
  });

  it("a malformed key is a config error naming the variable", async () => {
    const res = await call<{ error: { code: string; details: string[] } }>("GET", "/healthz", {
      key: null,
      env: { MEMORY_ENCRYPTION_KEYS: "k1:short" },
    });
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe("config_invalid");
    expect(res.json.error.details.join(" ")).toMatch(/MEMORY_ENCRYPTION_KEYS/);
  });
});

describe("fact metadata under encryption", () => {
  it("stays clear by default (Vector filters can read it) and is sealed with SEAL_FACT_METADATA=on, reading back the same", async () => {
    const marker = `ledger-${crypto.randomUUID().slice(0, 8)}`;
    for (const [mode, expectClear] of [
      ["off", true],
      ["on", false],
    ] as const) {
      const user = uniqueId(`md-${mode}`);
      const env = { ...sealed(K1), SEAL_FACT_METADATA: mode };
      const added = await call<{ id: string }>("POST", `/v1/users/${user}/facts`, {
        env,
        body: { text: "Keeps receipts in a shoebox", metadata: { source: marker } },
      });
      expect(added.status, added.text).toBe(201);
      const raw = await rawFacts(user);
      expect(raw.includes(marker)).toBe(expectClear);
      const read = await call<{ metadata?: Record<string, unknown> }>("GET", `/v1/users/${user}/facts/${added.json.id}`, { env });
      expect(read.json.metadata).toEqual({ source: marker });
      await call("DELETE", `/v1/users/${user}`, { env });
    }
  });
});
