import { Redis } from "@upstash/redis";
import type { CompressionCommit, SessionStore } from "../../../src/memory/ports/sessions.ts";
import type { UserStore } from "../../../src/memory/ports/facts.ts";
import type { Fact, Role, SessionRef, StoredMessage, ToolCall, TurnOutcome } from "../../../src/memory/model.ts";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { RedisUserStore } from "../../../src/stores/user-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../../tools/upstash-local/index.ts";
import { InMemoryUserStore } from "../../support/fakes/facts.ts";
import { InMemorySessionStore } from "../../support/fakes/sessions.ts";
import { deleteByPrefix, redisVariants } from "../../emulator/redis/variants.ts";
import { afterAll, beforeAll } from "vitest";

/**
 * The session-store contract: the same cases run against the Redis adapter (on upstash-local's
 * embedded engine, and on a real Redis when one answers) and against the in-memory fake the unit
 * tests use, so the fake cannot drift from what production does.
 */
export interface Harness {
  sessions: SessionStore;
  users: UserStore;
  /** Makes a session's keys disappear as an idle TTL would, leaving its index entries. */
  expire(ref: SessionRef): Promise<void>;
  close(): Promise<void>;
}

let clock = 1_800_000_000_000;
/** The stores' clock (ms). */
export const now = (): number => clock;
/** Moves the stores' clock on. */
export const tick = (ms = 1): void => {
  clock += ms;
};

async function redisHarness(redisUrl: string | undefined, tenantPrefix: string): Promise<Harness> {
  const local: UpstashLocal = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(redisUrl ? { redisUrl } : {}) });
  const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
  return {
    sessions: new RedisSessionStore(redis, { now, sweepLimit: 2 }),
    users: new RedisUserStore(redis),
    async expire(ref) {
      const k = sessionKeys(ref);
      await redis.del(k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.lock, k.turns);
    },
    async close() {
      await deleteByPrefix(redis, `am:${tenantPrefix}`);
      await local.close();
    },
  };
}

function fakeHarness(): Harness {
  const users = new InMemoryUserStore();
  const sessions = new InMemorySessionStore(now);
  sessions.users = users;
  return { sessions, users, expire: async (ref) => sessions.expire(ref), close: async () => undefined };
}

const run = `c${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
export const variants = [
  ...(await redisVariants()).map((v) => ({ name: `Redis store, ${v.name}`, make: () => redisHarness(v.redisUrl, run) })),
  { name: "in-memory fake", make: async () => fakeHarness() },
];

export const msg = (id: string, role: Role, content: string, tokens = 10): StoredMessage => ({
  id,
  role,
  content,
  tokens,
  importance: 0.5,
  ts: clock,
});
export const toolCall = (id: string): ToolCall => ({ id, type: "function", function: { name: "lookup", arguments: "{}" } });
export const calling = (id: string, ...callIds: string[]): StoredMessage => ({
  ...msg(id, "assistant", ""),
  tool_calls: callIds.map(toolCall),
});
export const result = (id: string, callId: string): StoredMessage => ({ ...msg(id, "tool", `result of ${callId}`), tool_call_id: callId });
export const outcome = (id: string, content: string): TurnOutcome => ({ id, content, finishReason: "stop", model: "m" });

export const fact = (id: string, text: string): Fact => ({
  id,
  text,
  type: "fact",
  importance: 0.5,
  createdAt: clock,
  updatedAt: clock,
  lastAccessedAt: clock,
  accessCount: 0,
  version: 1,
});

/** A contract describe block's harness (started before its tests, closed after) and its helpers. */
export function contractOn(make: () => Promise<Harness>) {
  let started: Harness | undefined;
  let seq = 0;
  let tenantSeq = 0;
  const TTL = 600;
  const current = (): Harness => {
    if (!started) throw new Error("the harness starts before the first test");
    return started;
  };
  beforeAll(async () => {
    started = await make();
  });
  afterAll(async () => {
    await started?.close();
  });
  const h: Harness = {
    get sessions() {
      return current().sessions;
    },
    get users() {
      return current().users;
    },
    expire: (ref) => current().expire(ref),
    close: () => current().close(),
  };
  const nextTenant = () => `${run}t${++tenantSeq}`;
  const nextRef = (tenant: string): SessionRef => ({ tenant, sessionId: `s${++seq}` });
  const commit = (epoch: number, version: number, prefixIds: string[]): CompressionCommit => ({
    epoch,
    expectedVersion: version,
    prefixIds,
    summary: {
      text: `sum ${prefixIds.join(",")}`,
      tokens: 5,
      version: version + 1,
      covered: prefixIds.length,
      method: "llm",
      updatedAt: clock,
      lastRatio: 0.5,
    },
    archiveLimit: 10,
    ttlSeconds: TTL,
  });
  return { h, TTL, nextTenant, nextRef, commit };
}
