import type { TenantDeps } from "../../src/memory/tenant-deps.ts";
import { ExtractiveSummarizer } from "../../src/memory/compression/extractive-summary.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../src/memory/options.ts";
import type { MemoryLogger } from "../../src/memory/ports/operations.ts";
import type { TokenCounter } from "../../src/memory/ports/llm.ts";
import { InMemoryFactStore, InMemoryUserStore } from "./fakes/facts.ts";
import { ScriptedSummarizer } from "./fakes/llm.ts";
import { InMemoryAuditLog, InMemoryEraseJournal } from "./fakes/operations.ts";
import { InMemorySessionStore } from "./fakes/sessions.ts";

let idSeq = 0;
const silent: MemoryLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** TenantDeps whose background work is collected, so a test can wait for it (`settle`). */
export interface TestDeps extends TenantDeps {
  /** Waits for every background job scheduled so far (and those they schedule). */
  settle(): Promise<void>;
  /** Background jobs that failed, in order. */
  failures: unknown[];
}

export type TestDepsOverrides = Omit<Partial<TenantDeps>, "options" | "counter"> & {
  counter: TokenCounter;
  options?: Partial<MemoryOptions>;
};

/**
 * Dependencies of the use cases for unit tests and benchmarks: in-memory stores by default, a
 * scripted summarizer, a fixed tenant, and a background queue the test drains itself.
 */
export function testDeps(overrides: TestDepsOverrides): TestDeps {
  const { counter, options, ...rest } = overrides;
  const users = rest.users ?? new InMemoryUserStore();
  const sessions = rest.sessions ?? new InMemorySessionStore();
  if (sessions instanceof InMemorySessionStore && users instanceof InMemoryUserStore) sessions.users ??= users;
  const eraseJournal = rest.eraseJournal ?? new InMemoryEraseJournal();
  if (sessions instanceof InMemorySessionStore && eraseJournal instanceof InMemoryEraseJournal) sessions.journal ??= eraseJournal;
  const jobs: Promise<unknown>[] = [];
  const failures: unknown[] = [];
  return {
    tenant: "acme",
    working: unusedWorking,
    audit: new InMemoryAuditLog(),
    eraseJournal,
    actor: { kind: "key", id: "k_test" },
    facts: new InMemoryFactStore(),
    backups: null,
    summarizer: new ScriptedSummarizer(),
    fallbackSummarizer: new ExtractiveSummarizer(counter),
    extractor: null,
    chat: null,
    workingTtlSeconds: 3600,
    limits: { maxMessagesPerRequest: 100, maxMessageChars: 32_000 },
    now: Date.now,
    newId: () => `id${++idSeq}`,
    logger: silent,
    ...rest,
    sessions,
    users,
    counter: async () => counter,
    // The in-memory fact store scores like a dense cosine index.
    options: { ...DEFAULT_MEMORY_OPTIONS, retrieval: "dense", ...options },
    background: (work) => {
      jobs.push(work.catch((err: unknown) => failures.push(err)));
    },
    failures,
    async settle() {
      while (jobs.length > 0) await jobs.shift();
    },
  };
}

const refuse = (): never => {
  throw new Error("working memory is not part of this test");
};
const unusedWorking: TenantDeps["working"] = {
  setNote: refuse,
  getNotes: refuse,
  getNotesPage: refuse,
  getNote: refuse,
  deleteNote: refuse,
  clearNotes: refuse,
  appendScratch: refuse,
  getScratch: refuse,
  clearScratch: refuse,
};
