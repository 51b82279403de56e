import { beforeEach, describe, expect, it, vi } from "vitest";
import { UpstreamUnavailable } from "../../../src/memory/errors.ts";
import type { ChatModel } from "../../../src/memory/ports/llm.ts";
import type { TurnInput } from "../../../src/memory/sessions/chat-turn.ts";
import type { ProxiedTurnInput } from "../../../src/memory/sessions/run-turn.ts";
import { TenantMemory } from "../../../src/memory/tenant-memory.ts";
import { InMemorySessionStore } from "../../support/fakes/sessions.ts";
import { type TestDeps, testDeps } from "../../support/memory-deps.ts";

// Each use case is replaced by a spy answering a token of its own, so a test sees which use case
// a method called, with which deps and arguments, and that its answer is passed back unchanged.
const spies = vi.hoisted(() => {
  const answer = (name: string) => vi.fn((..._args: unknown[]) => Promise.resolve(`${name} result`));
  return {
    sessionState: answer("sessionState"),
    updateSessionSettings: answer("updateSessionSettings"),
    resetSession: answer("resetSession"),
    compressSession: answer("compressSession"),
    sessionHistory: answer("sessionHistory"),
    listUserSessions: answer("listUserSessions"),
    exportUser: answer("exportUser"),
    eraseUser: answer("eraseUser"),
    readTrace: answer("readTrace"),
    recentTraces: answer("recentTraces"),
    readStats: answer("readStats"),
    restoreFacts: answer("restoreFacts"),
    runChatTurn: answer("runChatTurn"),
    runProxiedTurn: answer("runProxiedTurn"),
    recordAudit: vi.fn(),
    add: answer("SessionMemory.add"),
    getContext: answer("SessionMemory.getContext"),
    sessionMemory: vi.fn(),
    workingMemory: vi.fn(),
    factService: vi.fn(),
  };
});

vi.mock("../../../src/memory/sessions/session-state.ts", () => ({
  sessionState: spies.sessionState,
  updateSessionSettings: spies.updateSessionSettings,
  resetSession: spies.resetSession,
  compressSession: spies.compressSession,
  sessionHistory: spies.sessionHistory,
}));
vi.mock("../../../src/memory/sessions/session-list.ts", () => ({ listUserSessions: spies.listUserSessions }));
vi.mock("../../../src/memory/users/user-data.ts", () => ({ exportUser: spies.exportUser, eraseUser: spies.eraseUser }));
vi.mock("../../../src/memory/observe/queries.ts", () => ({
  readTrace: spies.readTrace,
  recentTraces: spies.recentTraces,
  readStats: spies.readStats,
}));
vi.mock("../../../src/memory/facts/backup.ts", () => ({ restoreFacts: spies.restoreFacts }));
vi.mock("../../../src/memory/observe/audit-record.ts", () => ({ recordAudit: spies.recordAudit }));
vi.mock("../../../src/memory/sessions/run-turn.ts", () => ({ runChatTurn: spies.runChatTurn, runProxiedTurn: spies.runProxiedTurn }));
vi.mock("../../../src/memory/sessions/session-memory.ts", () => ({
  SessionMemory: class {
    constructor(...args: unknown[]) {
      spies.sessionMemory(...args);
    }
    add = spies.add;
    getContext = spies.getContext;
  },
}));
vi.mock("../../../src/memory/sessions/working-memory.ts", () => ({
  WorkingMemory: class {
    constructor(...args: unknown[]) {
      spies.workingMemory(...args);
    }
  },
}));
vi.mock("../../../src/memory/facts/fact-service.ts", () => ({
  FactService: class {
    constructor(...args: unknown[]) {
      spies.factService(...args);
    }
  },
}));

const counter = { count: (text: string) => text.length };
let deps: TestDeps;
let memory: TenantMemory;

beforeEach(() => {
  vi.clearAllMocks();
  deps = testDeps({ counter, sessions: new InMemorySessionStore(), now: () => 77 });
  memory = new TenantMemory(deps);
});

describe("TenantMemory delegates each request to its use case with the tenant's deps", () => {
  const page = { offset: 0, limit: 10 };
  const turn: TurnInput = { sessionId: "s1", userId: "u1", messages: [{ role: "user", content: "hi" }], query: "hi", fields: {} };
  const run = { admitted: () => Promise.resolve(), stream: false };
  const request = { body: { model: "m", messages: [] }, messages: [{ role: "user" as const, content: "hi" }] };
  const proxied: ProxiedTurnInput = { sessionId: "s1", userId: "u1", key: "k1", request };
  const cases: [string, (m: TenantMemory) => Promise<unknown>, keyof typeof spies, unknown[]][] = [
    ["session", (m) => m.session("s1", page), "sessionState", ["s1", page]],
    ["reset", (m) => m.reset("s1", true), "resetSession", ["s1", true]],
    ["compress", (m) => m.compress("s1", false), "compressSession", ["s1", false]],
    ["history", (m) => m.history("s1", page), "sessionHistory", ["s1", page]],
    ["userSessions", (m) => m.userSessions("u1", { cursor: "5", limit: 2 }), "listUserSessions", ["u1", { cursor: "5", limit: 2 }]],
    ["exportUser", (m) => m.exportUser("u1", "c1"), "exportUser", ["u1", "c1"]],
    ["eraseUser", (m) => m.eraseUser("u1"), "eraseUser", ["u1"]],
    ["trace", (m) => m.trace("t1"), "readTrace", ["t1"]],
    ["recentTraces", (m) => m.recentTraces("s1", 5), "recentTraces", ["s1", 5]],
    ["stats", (m) => m.stats(), "readStats", []],
    ["restoreFacts", (m) => m.restoreFacts("u1"), "restoreFacts", ["u1"]],
    ["chatTurn", (m) => m.chatTurn(turn, run), "runChatTurn", [turn, run]],
    ["proxiedTurn", (m) => m.proxiedTurn(proxied, run), "runProxiedTurn", [proxied, run]],
  ];

  it.each(cases)("%s", async (_name, call, spy, args) => {
    const result = await call(memory);
    const fn = spies[spy];
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(deps, ...args);
    expect(result).toBe(await fn.mock.results[0]?.value);
  });

  it("updateSettings updates through its use case and audits the changed fields, sorted", async () => {
    const change = { maxTokens: 100, window: null };
    expect(await memory.updateSettings("s1", change)).toBe("updateSessionSettings result");
    expect(spies.updateSessionSettings).toHaveBeenCalledWith(deps, "s1", change);
    expect(spies.recordAudit).toHaveBeenCalledWith(deps, "session.settings", { sessionId: "s1" }, { fields: "maxTokens,window" });
  });

  it("append and context go through the session's SessionMemory, with its user", async () => {
    const messages = [{ role: "user" as const, content: "hi" }];
    expect(await memory.append("s1", { userId: "u1", messages })).toBe("SessionMemory.add result");
    expect(spies.sessionMemory).toHaveBeenLastCalledWith(deps, { sessionId: "s1", userId: "u1" });
    expect(spies.add).toHaveBeenCalledWith(messages);

    const request = { userId: "u2", query: "trip" };
    expect(await memory.context("s2", request)).toBe("SessionMemory.getContext result");
    expect(spies.sessionMemory).toHaveBeenLastCalledWith(deps, { sessionId: "s2", userId: "u2" });
    expect(spies.getContext).toHaveBeenCalledWith(request);
  });

  it("working builds the session's WorkingMemory", () => {
    memory.working("s1");
    expect(spies.workingMemory).toHaveBeenCalledWith(deps, "s1");
  });

  it("facts builds the user's FactService whose audit hook records in the tenant's log", () => {
    memory.facts("u1");
    const [serviceDeps] = spies.factService.mock.calls[0] ?? [];
    expect(serviceDeps).toMatchObject({ facts: deps.facts, scope: { tenant: "acme", userId: "u1" }, options: deps.options });
    (serviceDeps as { audited: (action: string, factId: string) => void }).audited("fact.delete", "f1");
    expect(spies.recordAudit).toHaveBeenCalledWith(deps, "fact.delete", { userId: "u1", factId: "f1" });
  });

  it("facts is unavailable without long-term memory", () => {
    const off = new TenantMemory({ ...deps, facts: null });
    expect(() => off.facts("u1")).toThrow(UpstreamUnavailable);
    expect(spies.factService).not.toHaveBeenCalled();
  });

  it("audit records the event as given", () => {
    memory.audit("token.mint", { userId: "u1", tokenId: "t1" }, { ttl: 60 });
    expect(spies.recordAudit).toHaveBeenCalledWith(deps, "token.mint", { userId: "u1", tokenId: "t1" }, { ttl: 60 });
  });
});

describe("TenantMemory reads its ports directly", () => {
  it("options are the tenant's options", () => {
    expect(memory.options).toBe(deps.options);
  });

  it("sessionOwner asks the session store for the tenant's session", async () => {
    await deps.sessions.append({ tenant: "acme", sessionId: "s1" }, [], { userId: "u1", ttlSeconds: 60 });
    expect(await memory.sessionOwner("s1")).toBe("u1");
    expect(await memory.sessionOwner("s2")).toBeNull();
  });

  it("auditLog lists the tenant's audit entries", async () => {
    const entry = { id: "e1", ts: 5, actor: { kind: "anonymous" as const }, action: "auth.failed" as const, target: {} };
    await deps.audit.append("acme", entry);
    await deps.audit.append("other", { ...entry, id: "e2" });
    expect(await memory.auditLog({ since: 0, limit: 10 })).toEqual([entry]);
  });

  it("models come from the chat model, and are unavailable without one", async () => {
    const chat = { models: async () => ({ data: [{ id: "m1" }] }) } as unknown as ChatModel;
    expect(await new TenantMemory({ ...deps, chat }).models()).toEqual({ data: [{ id: "m1" }] });
    await expect(memory.models()).rejects.toMatchObject({ upstream: "llm", reason: "not_configured" });
  });
});
