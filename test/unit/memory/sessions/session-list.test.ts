import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { MemoryError } from "../../../../src/memory/errors.ts";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { SessionMemory } from "../../../../src/memory/sessions/session-memory.ts";
import { listUserSessions, sessionTitle, TITLE_CHARS } from "../../../../src/memory/sessions/session-list.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

let clock = Date.UTC(2026, 0, 1);
let deps: TestDeps;

beforeEach(() => {
  clock += 60_000;
  const sessions = new InMemorySessionStore(() => clock);
  deps = testDeps({ counter, sessions, now: () => clock });
});

async function say(sessionId: string, userId: string, content: string): Promise<void> {
  clock += 1000;
  await new SessionMemory(deps, { sessionId, userId }).add([{ role: "user", content }]);
}

describe("sessionTitle", () => {
  it("is the first non-blank user message on one line", () => {
    expect(
      sessionTitle([
        { role: "system", content: "rules" },
        { role: "user", content: "   " },
        { role: "user", content: "plan\n  my   trip" },
        { role: "user", content: "later" },
      ]),
    ).toBe("plan my trip");
    expect(sessionTitle([{ role: "assistant", content: "hi" }])).toBeUndefined();
  });

  it("clips long messages with an ellipsis, never inside a surrogate pair", () => {
    const title = sessionTitle([{ role: "user", content: "😀".repeat(TITLE_CHARS + 5) }])!;
    expect([...title]).toHaveLength(TITLE_CHARS);
    expect(title.endsWith("😀…")).toBe(true);
    expect(sessionTitle([{ role: "user", content: "x".repeat(TITLE_CHARS) }])).toBe("x".repeat(TITLE_CHARS));
  });
});

describe("listUserSessions", () => {
  it("lists only the user's sessions, newest activity first, with their titles", async () => {
    await say("a", "u1", "first topic");
    await say("b", "u1", "second topic");
    await say("c", "u2", "someone else");
    await say("a", "u1", "back to the first");
    const page = await listUserSessions(deps, "u1", {});
    expect(page.userId).toBe("u1");
    expect(page.sessions.map((s) => [s.sessionId, s.title, s.messages])).toEqual([
      ["a", "first topic", 2],
      ["b", "second topic", 1],
    ]);
    expect(page.nextCursor).toBeNull();
  });

  it("pages with an opaque cursor until it is null", async () => {
    for (const id of ["s1", "s2", "s3"]) await say(id, "u1", `topic ${id}`);
    const first = await listUserSessions(deps, "u1", { limit: 2 });
    expect(first.sessions.map((s) => s.sessionId)).toEqual(["s3", "s2"]);
    expect(first.nextCursor).not.toBeNull();
    const second = await listUserSessions(deps, "u1", { limit: 2, cursor: first.nextCursor! });
    expect(second.sessions.map((s) => s.sessionId)).toEqual(["s1"]);
    expect(second.nextCursor).toBeNull();
  });

  it("refuses a cursor it did not hand out", async () => {
    for (const cursor of ["abc", "-1", "1e3", "1234567890"]) {
      const refusal = await listUserSessions(deps, "u1", { cursor }).catch((err: unknown) => err);
      expect(refusal, cursor).toBeInstanceOf(MemoryError);
      expect((refusal as MemoryError).kind).toBe("invalid");
    }
    expect((await listUserSessions(deps, "u1", { cursor: "" })).sessions).toEqual([]);
  });
});
