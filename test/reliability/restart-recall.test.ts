import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/memory/compression/extractive-summary.ts";
import { SessionMemory } from "../../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../src/memory/options.ts";
import type { TokenCounter } from "../../src/memory/ports/llm.ts";
import { loadTokenCounter } from "../../src/llm/tokenizer.ts";
import { RedisSessionStore } from "../../src/stores/session-store.ts";
import { RedisUserStore } from "../../src/stores/user-store.ts";
import { VectorFactStore } from "../../src/stores/facts-vector.ts";
import { testDeps, type TestDeps } from "../support/memory-deps.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { deleteByPrefix, redisVariants } from "../emulator/redis/variants.ts";

// The "survives a restart" check for real: the emulators stop and start again on the same data folder
// (or the same real Redis), and a brand-new SessionMemory still recalls the user's fact.

const PROMPT = "你是客服小M，回答简洁友好。";
const FACT = "我叫小明，喜欢蓝色";
// The dev stack's index (hybrid: dense + BM25), read the way the Worker reads it.
const OPTIONS = { ...DEFAULT_MEMORY_OPTIONS, retrieval: "hybrid" as const, window: 8, maxTokens: 300, keep: 4 };

const variants = await redisVariants();

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

function managerOn(
  local: UpstashLocal,
  scope: { tenant: string; sessionId: string; userId: string },
): { mm: SessionMemory; sessions: RedisSessionStore; deps: TestDeps } {
  const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
  const index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
  const sessions = new RedisSessionStore(redis);
  const deps = testDeps({
    tenant: scope.tenant,
    counter,
    sessions,
    users: new RedisUserStore(redis),
    facts: new VectorFactStore(index, { retrieval: "hybrid" }),
    summarizer: new ExtractiveSummarizer(counter),
    options: OPTIONS,
  });
  return { mm: new SessionMemory(deps, { sessionId: scope.sessionId, userId: scope.userId }), sessions, deps };
}

describe.each(variants.map((v) => [v.name, v.redisUrl] as const))("restart of upstash-local (%s)", (_name, redisUrl) => {
  let dataDir = "";
  const tenant = `rr${randomUUID().slice(0, 8)}`;
  const scope = { tenant, sessionId: "restart", userId: "xiaoming" };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "agent-memory-restart-"));
  });

  afterAll(async () => {
    if (redisUrl) {
      const cleanup = await startUpstashLocal({ redisPort: 0, vectorPort: 0, redisUrl });
      try {
        await deleteByPrefix(new Redis({ url: cleanup.redis.url, token: cleanup.token, enableTelemetry: false }), `am:${tenant}:`);
      } finally {
        await cleanup.close();
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("a new SessionMemory after the restart still recalls 蓝色, with the prompt and the summary", async () => {
    const first = await startUpstashLocal({ redisPort: 0, vectorPort: 0, dataDir, redisUrl, vector: { kind: "hybrid" } });
    let summaryBefore: { text: string; version: number } | null = null;
    try {
      const { mm, sessions, deps } = managerOn(first, scope);
      await mm.add([{ id: "sys", role: "system", content: PROMPT }]);
      const persisted = await mm.add([{ id: "fact", role: "user", content: FACT, persist: true }]);
      expect(persisted.facts).toHaveLength(1);
      await deps.settle();
      for (let round = 0; round < 20; round++) {
        await mm.add([
          { id: `u${round}`, role: "user", content: `第${round}轮：周末我们去哪里玩比较好？请给一些建议。` },
          { id: `a${round}`, role: "assistant", content: `第${round}轮建议：可以去西湖边散步，再去附近的茶馆喝茶休息。` },
        ]);
        await mm.maybeCompress();
      }
      const snapshot = await sessions.read(scope);
      expect(snapshot.summary).not.toBeNull();
      summaryBefore = snapshot.summary && { text: snapshot.summary.text, version: snapshot.summary.version };
      expect((await mm.recall("用户叫什么名字?")).map((r) => r.fact.text)).toEqual([FACT]);
    } finally {
      await first.close();
    }

    const second = await startUpstashLocal({ redisPort: 0, vectorPort: 0, dataDir, redisUrl, vector: { kind: "hybrid" } });
    try {
      const { mm, sessions, deps } = managerOn(second, scope);
      const colors = await mm.recall("用户喜欢什么颜色?");
      expect(colors.some((r) => r.fact.text.includes("蓝色"))).toBe(true);

      const context = await mm.getContext({ query: "用户叫什么名字?" });
      expect(context.degraded).toEqual([]);
      expect(context.messages[0]).toEqual({ role: "system", content: PROMPT });
      expect(
        context.messages.some((m) => m.role === "system" && m.content.startsWith(OPTIONS.factsLabel) && m.content.includes("小明")),
      ).toBe(true);

      const snapshot = await sessions.read(scope);
      expect(snapshot.system.map((m) => m.content)).toEqual([PROMPT]);
      expect(snapshot.summary && { text: snapshot.summary.text, version: snapshot.summary.version }).toEqual(summaryBefore);
      expect(snapshot.window.some((m) => m.content.includes(OPTIONS.factsLabel))).toBe(false);
      expect((snapshot.summary?.covered ?? 0) + snapshot.window.length).toBe(41);
      await deps.settle();
    } finally {
      await second.close();
    }
  });
});
