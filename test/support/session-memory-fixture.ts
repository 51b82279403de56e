import { beforeAll, beforeEach } from "vitest";
import { loadTokenCounter } from "../../src/llm/tokenizer.ts";
import { SessionMemory } from "../../src/memory/sessions/session-memory.ts";
import type { MemoryOptions } from "../../src/memory/options.ts";
import type { MemoryLogger } from "../../src/memory/ports/operations.ts";
import type { Summarizer, TokenCounter } from "../../src/memory/ports/llm.ts";
import type { SessionRef } from "../../src/memory/model.ts";
import { testDeps, type TestDeps } from "./memory-deps.ts";
import { InMemoryFactStore, InMemoryUserStore } from "./fakes/facts.ts";
import { ScriptedSummarizer } from "./fakes/llm.ts";
import { InMemorySessionStore } from "./fakes/sessions.ts";

/**
 * The setup the session-memory unit tests share: fresh in-memory stores before each test and a
 * manager over them. A test file calls {@link useSessionMemoryFixture} once at its top level; the
 * `let` exports are live bindings, reassigned before each test.
 */
export let counter: TokenCounter;

export const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
export const scope = { tenant: "acme", userId: "u1" };
export let clock = Date.UTC(2026, 0, 1);
export let sessions: InMemorySessionStore;
export let users: InMemoryUserStore;
export let facts: InMemoryFactStore;
export let logs: { level: string; message: string }[];
export let deps: TestDeps;

export const logger: MemoryLogger = {
  debug: (message) => logs.push({ level: "debug", message }),
  info: (message) => logs.push({ level: "info", message }),
  warn: (message) => logs.push({ level: "warn", message }),
  error: (message) => logs.push({ level: "error", message }),
};

/**
 * Registers the fixture's hooks in the calling test file. Called by each file, not on import: test
 * files share one module cache (the unit project does not isolate them), so an import's hooks would
 * land in whichever file imported it first.
 */
export function useSessionMemoryFixture(): void {
  beforeAll(async () => {
    counter = await loadTokenCounter();
  });
  beforeEach(() => {
    clock += 1000;
    sessions = new InMemorySessionStore(() => clock);
    users = new InMemoryUserStore();
    sessions.users = users;
    facts = new InMemoryFactStore();
    logs = [];
  });
}

export interface ManagerOverrides {
  userId?: string | undefined;
  sessionId?: string;
  facts?: InMemoryFactStore | null;
  summarizer?: Summarizer;
  options?: Partial<MemoryOptions>;
}

/** A manager over the shared fakes; its background work lands in `deps` (see `settle`). */
export function manager(overrides: ManagerOverrides = {}): SessionMemory {
  deps = testDeps({
    counter,
    sessions,
    users,
    facts: overrides.facts === undefined ? facts : overrides.facts,
    summarizer: overrides.summarizer ?? new ScriptedSummarizer(),
    options: overrides.options,
    now: () => clock,
    logger,
  });
  return new SessionMemory(deps, {
    sessionId: overrides.sessionId ?? ref.sessionId,
    userId: "userId" in overrides ? overrides.userId : "u1",
  });
}

/** Runs the background work the last manager scheduled. */
export const settle = () => deps.settle();
