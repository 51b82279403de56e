import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { SessionMemory } from "../../../../src/memory/sessions/session-memory.ts";
import {
  compressSession,
  resetSession,
  SESSION_PAGE_LIMIT,
  sessionHistory,
  sessionState,
  updateSessionSettings,
} from "../../../../src/memory/sessions/session-state.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

let clock = Date.UTC(2026, 0, 1);
let sessions: InMemorySessionStore;
let deps: TestDeps;

beforeEach(() => {
  clock += 60_000;
  sessions = new InMemorySessionStore(() => clock);
  deps = testDeps({ counter, sessions, now: () => clock, options: { maxTokens: 2000, keep: 4 } });
});

/** A session of `rounds` user/assistant exchanges behind a pinned prompt, owned by u1. */
async function conversation(sessionId: string, rounds: number): Promise<void> {
  const memory = new SessionMemory(deps, { sessionId, userId: "u1" });
  await memory.add([{ role: "system", content: "Be brief." }]);
  for (let i = 1; i <= rounds; i++)
    await memory.add([
      { id: `u${i}`, role: "user", content: `question ${i}` },
      { id: `a${i}`, role: "assistant", content: `answer ${i}` },
    ]);
}

describe("sessionState", () => {
  it("shows a session that does not exist with the defaults and an empty page", async () => {
    const state = await sessionState(deps, "nobody");
    expect(state).toMatchObject({
      sessionId: "nobody",
      exists: false,
      userId: null,
      createdAt: null,
      updatedAt: null,
      settings: { maxTokens: 2000, keep: 4, ttlSeconds: deps.options.sessionTtlSeconds, overrides: {} },
      summary: null,
      system: [],
      window: [],
      page: { offset: 0, limit: SESSION_PAGE_LIMIT, total: 0, next: null },
    });
    expect(state.stats).toMatchObject({ messages: 0, tokens: 0, windowMessages: 0 });
  });

  it("shows the owner, times, stats and one page of the window, oldest first", async () => {
    await conversation("s1", 3);
    const state = await sessionState(deps, "s1", { offset: 2, limit: 3 });
    expect(state).toMatchObject({ exists: true, userId: "u1", updatedAt: clock });
    expect(state.createdAt).not.toBeNull();
    expect(state.system.map((m) => m.content)).toEqual(["Be brief."]);
    expect(state.window.map((m) => m.id)).toEqual(["u2", "a2", "u3"]);
    expect(state.page).toEqual({ offset: 2, limit: 3, total: 6, next: 5 });
    expect(state.stats).toMatchObject({ messages: 7, windowMessages: 6, maxTokens: 2000 });
    expect((await sessionState(deps, "s1", { offset: 3, limit: 3 })).page.next).toBeNull();
  });
});

describe("updateSessionSettings", () => {
  it("changes the named settings only, resolves them over the defaults, and null restores a default", async () => {
    await conversation("s1", 1);
    const changed = await updateSessionSettings(deps, "s1", { maxTokens: 500, keep: 2 });
    expect(changed.settings).toMatchObject({ maxTokens: 500, keep: 2, overrides: { maxTokens: 500, keep: 2 } });
    expect(changed.stats.maxTokens).toBe(500);
    const restored = await updateSessionSettings(deps, "s1", { maxTokens: null });
    expect(restored.settings).toMatchObject({ maxTokens: 2000, keep: 2, overrides: { keep: 2 } });
    expect((await sessionState(deps, "s1")).settings.overrides).toEqual({ keep: 2 });
  });
});

describe("resetSession", () => {
  it("clears the window and keeps the pinned prompt and owner when asked", async () => {
    await conversation("s1", 2);
    expect(await resetSession(deps, "s1", true)).toEqual({ removedMessages: 4, keptSystem: 1 });
    const state = await sessionState(deps, "s1");
    expect(state.window).toEqual([]);
    expect(state.system.map((m) => m.content)).toEqual(["Be brief."]);
    expect(state.userId).toBe("u1");
  });

  it("drops the pinned prompt too when not asked to keep it", async () => {
    await conversation("s1", 1);
    const result = await resetSession(deps, "s1", false);
    expect(result.keptSystem).toBe(0);
    expect((await sessionState(deps, "s1")).system).toEqual([]);
  });
});

describe("compressSession and sessionHistory", () => {
  it("does nothing below the threshold unless forced", async () => {
    await conversation("s1", 6);
    expect(await compressSession(deps, "s1", false)).toMatchObject({ compressed: false, reason: "below_threshold" });
    expect(await sessionHistory(deps, "s1", { offset: 0, limit: 10 })).toEqual({ summary: null, archived: [], total: 0 });
  });

  it("forced, folds all but the newest `keep` messages into the summary; the history shows the originals", async () => {
    await conversation("s1", 6);
    const result = await compressSession(deps, "s1", true);
    expect(result).toMatchObject({ compressed: true, reason: "forced", removed: 8 });
    const state = await sessionState(deps, "s1");
    expect(state.window.map((m) => m.id)).toEqual(["u5", "a5", "u6", "a6"]);
    expect(state.summary?.covered).toBe(8);
    const history = await sessionHistory(deps, "s1", { offset: 2, limit: 3 });
    expect(history.total).toBe(8);
    expect(history.archived.map((m) => m.id)).toEqual(["u2", "a2", "u3"]);
    expect(history.summary).toEqual(state.summary);
  });
});
