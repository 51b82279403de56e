import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleContext } from "../../../src/memory/context/assemble.ts";
import { SessionMemory } from "../../../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../src/memory/options.ts";
import type { TokenCounter } from "../../../src/memory/ports/llm.ts";
import type { WindowBound } from "../../../src/memory/ports/sessions.ts";
import type { SessionRef, StoredMessage } from "../../../src/memory/model.ts";
import { snapshotTotals } from "../../../src/memory/context/window.ts";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { READ_LUA } from "../../../src/stores/lua/read.ts";
import { boundArgs } from "../../../src/stores/session-args.ts";
import { ScriptRunner } from "../../../src/stores/scripts.ts";
import { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { RedisUserStore } from "../../../src/stores/user-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../../tools/upstash-local/index.ts";
import { testDeps } from "../../support/memory-deps.ts";
import { prng } from "../../support/prng.ts";
import { deleteByPrefix, redisVariants } from "../../emulator/redis/variants.ts";

// What a session read and an append move does not grow with the window: the scripts return the
// newest messages a context of the budget can use, plus running totals, and the context built from
// them is the one the whole window gives.
const tenant = `sb${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const TTL = 600;
const BACKENDS: [string, string | undefined][] = (await redisVariants()).map((v) => [v.name, v.redisUrl]);
/** One token per character: predictable counts for the labels the context adds. */
const counter: TokenCounter = { count: (text) => text.length };

describe.each(BACKENDS)("bounded session scripts (%s)", (_name, redisUrl) => {
  let local: UpstashLocal;
  let redis: Redis;
  let store: RedisSessionStore;
  let seq = 0;
  const nextRef = (): SessionRef => ({ tenant, sessionId: `b${++seq}` });

  const msg = (id: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({
    id,
    role: "user",
    content: `message ${id} `.repeat(4),
    tokens: 30,
    importance: 0.5,
    ts: 1,
    ...extra,
  });

  async function fill(ref: SessionRef, messages: StoredMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 500) await store.append(ref, messages.slice(i, i + 500), { ttlSeconds: TTL });
  }

  /** The raw reply of the read script, as the client receives it. */
  async function readReplyBytes(ref: SessionRef, bound: WindowBound): Promise<number> {
    const k = sessionKeys(ref);
    const reply = await new ScriptRunner(redis).run(READ_LUA, [k.sys, k.win, k.sum, k.meta], boundArgs(bound));
    return JSON.stringify(reply).length;
  }

  beforeAll(async () => {
    local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(redisUrl ? { redisUrl } : {}) });
    redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
    store = new RedisSessionStore(redis);
  });

  afterAll(async () => {
    await deleteByPrefix(redis, `am:${tenant}:`);
    await local.close();
  });

  const bound: WindowBound = { allowance: 300, limit: 0, importanceThreshold: 0.3 };

  it("returns the same reply size with 2,000 more messages behind the same newest ones", async () => {
    const small = nextRef();
    const large = nextRef();
    const tail = Array.from({ length: 20 }, (_, i) => msg(`t${i}`));
    await fill(small, tail);
    await fill(large, [...Array.from({ length: 2000 }, (_, i) => msg(`o${i}`)), ...tail]);

    const [a, b] = [await store.read(small, bound), await store.read(large, bound)];
    expect(b.window.map((m) => m.id)).toEqual(a.window.map((m) => m.id));
    expect(a.window.length).toBeLessThan(20); // the budget is smaller than the session
    expect(b.windowCount).toBe(2020);
    expect(b.windowStart).toBe(2020 - b.window.length);
    const [bytesSmall, bytesLarge] = [await readReplyBytes(small, bound), await readReplyBytes(large, bound)];
    // only the counts' digits differ
    expect(bytesLarge - bytesSmall).toBeLessThan(40);
    const unbounded = await store.read(large);
    expect(unbounded.window).toHaveLength(2020);
  });

  it("appends without a snapshot return totals only, whatever the window's length", async () => {
    const ref = nextRef();
    await fill(
      ref,
      Array.from({ length: 1500 }, (_, i) => msg(`m${i}`, { importance: (i % 10) / 10 })),
    );
    const result = await store.append(ref, [msg("sys", { role: "system", importance: 1, tokens: 7 }), msg("last", { importance: 0.25 })], {
      ttlSeconds: TTL,
    });
    expect(result.snapshot).toBeUndefined();
    const whole = await store.read(ref);
    expect(result.totals).toEqual(snapshotTotals(whole));
    expect(result.totals).toMatchObject({ systemCount: 1, systemTokens: 7, windowCount: 1501, windowTokens: 1501 * 30 });
  });

  it("keeps the importance total through a compression and a reset", async () => {
    const ref = nextRef();
    const messages = Array.from({ length: 12 }, (_, i) => msg(`c${i}`, { importance: 0.1 + i * 0.07 }));
    await fill(ref, messages);
    const before = await store.read(ref);
    const committed = await store.commitCompression(ref, {
      epoch: before.meta?.epoch ?? 0,
      expectedVersion: 0,
      prefixIds: messages.slice(0, 5).map((m) => m.id),
      summary: { text: "s", tokens: 1, version: 1, covered: 5, method: "extractive", updatedAt: 1, lastRatio: 0.5 },
      archiveLimit: 10,
      ttlSeconds: TTL,
    });
    expect(committed.committed).toBe(true);
    const bounded = await store.read(ref, { allowance: 40, limit: 0, importanceThreshold: 0.3 });
    expect(bounded.windowImportanceMicros).toBe(snapshotTotals(await store.read(ref)).windowImportanceMicros);
    await store.reset(ref, { keepSystem: false });
    const after = await store.append(ref, [msg("n1", { importance: 0.9 })], { ttlSeconds: TTL });
    expect(after.totals).toMatchObject({ windowCount: 1, windowImportanceMicros: 900_000 });
  });

  it("builds the context the whole window gives, with low-importance messages and tool calls", async () => {
    const random = prng(7);
    for (let round = 0; round < 6; round++) {
      const ref = nextRef();
      const messages: StoredMessage[] = [];
      for (let i = 0; messages.length < 300; i++) {
        const importance = random() < 0.35 ? 0.1 : random() < 0.5 ? 0.5 : 0.9;
        const tokens = 5 + Math.floor(random() * 60);
        if (random() < 0.1) {
          const call = `call_${round}_${i}`;
          messages.push(
            msg(`a${i}`, {
              role: "assistant",
              content: "",
              tokens,
              importance,
              tool_calls: [{ id: call, type: "function", function: { name: "f", arguments: "{}" } }],
            }),
          );
          messages.push(
            msg(`r${i}`, { role: "tool", content: "ok", tokens: 3 + Math.floor(random() * 40), importance: 0.1, tool_call_id: call }),
          );
        } else {
          messages.push(msg(`u${i}`, { role: random() < 0.5 ? "user" : "assistant", tokens, importance }));
        }
      }
      await fill(ref, messages);
      const budget = 200 + Math.floor(random() * 900);
      const options = { ...DEFAULT_MEMORY_OPTIONS, budget, window: round === 5 ? 40 : 0 };
      const roundBound: WindowBound = {
        allowance: budget - Math.floor(budget * options.shares.reply),
        limit: options.window,
        importanceThreshold: options.importanceThreshold,
      };
      const [whole, tail] = [await store.read(ref), await store.read(ref, roundBound)];
      expect(tail.window.length).toBeLessThan(whole.window.length);
      const build = (window: StoredMessage[]) => assembleContext({ system: [], summary: null, window, options, counter }).messages;
      expect(build(tail.window)).toEqual(build(whole.window));
    }
  });

  it("pages the window from the oldest message", async () => {
    const ref = nextRef();
    await fill(
      ref,
      Array.from({ length: 25 }, (_, i) => msg(`p${i}`)),
    );
    const first = await store.readPage(ref, { offset: 0, limit: 10 });
    const last = await store.readPage(ref, { offset: 20, limit: 10 });
    expect(first.window.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
    expect(last.window.map((m) => m.id)).toEqual(["p20", "p21", "p22", "p23", "p24"]);
    expect(last).toMatchObject({ windowCount: 25, windowStart: 20, windowTokens: 750 });
    await expect(store.readPage(ref, { offset: -1, limit: 10 })).rejects.toThrow();
  });

  it("reads a bounded head for compression, with one lookahead message", async () => {
    const ref = nextRef();
    await fill(
      ref,
      Array.from({ length: 50 }, (_, i) => msg(`h${i}`)),
    );
    const byTokens = await store.readHead(ref, { maxTokens: 100, maxMessages: 1000 });
    expect(byTokens.window.map((m) => m.id)).toEqual(["h0", "h1", "h2", "h3"]); // 3 x 30 tokens fit, h3 looks ahead
    const byCount = await store.readHead(ref, { maxTokens: 100_000, maxMessages: 5 });
    expect(byCount.window).toHaveLength(6);
    expect(byCount.windowCount).toBe(50);
  });

  it("compresses a long window in bounded passes and says when more is left", async () => {
    const ref = nextRef();
    await fill(
      ref,
      Array.from({ length: 3000 }, (_, i) => msg(`x${i}`)),
    );
    const deps = testDeps({
      tenant,
      counter,
      sessions: store,
      users: new RedisUserStore(redis),
      facts: null,
      options: { maxTokens: 2000, keep: 4 },
    });
    deps.summarizer = deps.fallbackSummarizer;
    const manager = new SessionMemory(deps, { sessionId: ref.sessionId });
    const first = await manager.maybeCompress();
    expect(first).toMatchObject({ compressed: true, more: true, removed: 533 }); // 16,000 tokens / 30
    let passes = 1;
    for (let r = first; r.compressed && r.more; passes++) r = await manager.maybeCompress();
    const after = await store.read(ref, { allowance: 100, limit: 0, importanceThreshold: 0.3 });
    expect(after.windowTokens).toBeLessThanOrEqual(2000);
    expect(after.summary?.covered).toBe(3000 - snapshotTotals(after).windowCount);
    expect(passes).toBeGreaterThan(5);
  });
});
