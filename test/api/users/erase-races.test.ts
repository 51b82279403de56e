import { env as bindings } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId, type CallResult } from "../support/helpers.ts";
import { addFact, listAll } from "../support/facts.ts";
import { clearLlmRequests, resetLlm, setLlmMode, waitForChatRequests } from "../support/llm.ts";
import { testRedis } from "../support/redis.ts";
import { append, sessionPath } from "../support/sessions.ts";

/**
 * A chat turn overlapping an erase of the session's owner: whether or not the turn names the user,
 * the reply (which may repeat what was recalled) is never stored once the erase has begun, and
 * nothing of the user is left where export, the session list or a second erase cannot see it.
 */

const secret = (): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const denseEnv = (tenant: string) => ({
  EMBEDDINGS: "openai",
  OPENAI_EMBEDDING_DIMENSIONS: "384",
  API_KEYS: `${tenant}:acme-key`,
  VECTOR_INDEX: "dense",
  UPSTASH_VECTOR_REST_URL: (bindings as unknown as { DENSE_VECTOR_URL: string }).DENSE_VECTOR_URL,
});

beforeEach(async () => {
  await resetLlm();
});

afterEach(async () => {
  await resetLlm();
});

type Env = Partial<Record<string, string | undefined>>;

interface Variant {
  name: string;
  tenant: string;
  env: Env;
  /** Starts the turn; the session is named, the user only when `named`. */
  turn(sid: string, user: string, named: boolean, env: Env): Promise<CallResult<unknown>>;
}

const chatTurn: Variant["turn"] = (sid, user, named, env) =>
  call("POST", `${sessionPath(sid)}/chat`, {
    body: { message: "what am I allergic to?", ...(named ? { userId: user } : {}) },
    env,
    drain: false,
  });

const proxyTurn: Variant["turn"] = (sid, user, named, env) =>
  call("POST", "/v1/chat/completions", {
    body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "what am I allergic to?" }] },
    headers: { "x-memory-session": sid, ...(named ? { "x-memory-user": user } : {}) },
    env,
    drain: false,
  });

/** Every key of the tenant that mentions the session or the user. */
async function leftovers(tenant: string, sid: string, user: string): Promise<string[]> {
  const keys = [...(await testRedis.keys(`am:${tenant}:s:${sid}:*`)), ...(await testRedis.keys(`am:${tenant}:u:${user}:*`))];
  // The tombstone and the erase's own receipt record are what an erase leaves on purpose.
  return keys.filter((k) => !/:(erased|erase-job|erase-receipt)$/.test(k)).sort();
}

async function race(variant: Variant, named: boolean): Promise<void> {
  const { tenant, env } = variant;
  const user = uniqueId("racer");
  const sid = uniqueId("race-s");
  await append(sid, [{ id: "m0", role: "user", content: "hello" }], { userId: user, env });
  await addFact(user, { text: "The user is allergic to peanuts", type: "fact", importance: 0.9 }, { env });
  // The model repeats what memory put into its prompt, and answers only after the erase.
  await setLlmMode({ mode: "fixed", text: "You told me: allergic to peanuts", delayMs: 1500 });
  await clearLlmRequests();
  const turning = variant.turn(sid, user, named, env);
  await waitForChatRequests(1, 10_000);
  const erased = await call<{ done: boolean }>("DELETE", `/v1/users/${user}`, { env });
  expect(erased.status, erased.text).toBe(200);
  expect(erased.json.done).toBe(true);
  const turn = await turning;
  await turn.drained;
  // The erase won: the reply is refused, nothing was stored.
  expect(turn.status, turn.text).toBe(409);
  expect(await leftovers(tenant, sid, user)).toEqual([]);
  const exported = await call<{ sessions: unknown[]; facts: unknown[] }>("GET", `/v1/users/${user}/export`, { env });
  expect(exported.json).toMatchObject({ sessions: [], facts: [] });
  expect(await listAll(user, { env })).toEqual([]);
  const raw = JSON.stringify(await testRedis.keys(`am:${tenant}:s:${sid}:*`));
  expect(raw).toBe("[]");
}

const variants: Variant[] = [
  { name: "/chat", tenant: "acme", env: {}, turn: chatTurn },
  { name: "the proxy", tenant: "acme", env: {}, turn: proxyTurn },
];

describe("a chat turn racing an erase of the session's owner", () => {
  for (const variant of variants) {
    for (const named of [false, true]) {
      it(`${variant.name}, ${named ? "naming" : "not naming"} the user: the reply is not stored and nothing of the user is left`, async () => {
        await race(variant, named);
      });
    }
  }

  it("also with encryption at rest", async () => {
    const tenant = "sealedrace";
    const env: Env = { ...denseEnv(tenant), MEMORY_ENCRYPTION_KEYS: `k1:${secret()}` };
    await race({ name: "/chat sealed", tenant, env, turn: chatTurn }, false);
  });
});
