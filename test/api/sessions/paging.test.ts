import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { append, expectJsonError, putSettings, readContext, sessionPath, type SessionState } from "../support/sessions.ts";

interface PagedState extends SessionState {
  page: { offset: number; limit: number; total: number; next: number | null };
}

async function readPage(sessionId: string, query: string): Promise<PagedState> {
  const res = await call<PagedState>("GET", `${sessionPath(sessionId)}?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

describe("GET /v1/sessions/{id} pages the window", () => {
  it("returns one page from the oldest message, the whole session's stats and the next offset", async () => {
    const sid = uniqueId("page");
    await putSettings(sid, { maxTokens: 1_000_000 });
    const messages = Array.from({ length: 30 }, (_, i) => ({
      id: `p${i}`,
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `turn ${i}`,
    }));
    await append(sid, [{ id: "sys", role: "system", content: "be brief" }, ...messages]);

    const middle = await readPage(sid, "offset=10&limit=5");
    expect(middle.window.map((m) => m.id)).toEqual(["p10", "p11", "p12", "p13", "p14"]);
    expect(middle.page).toEqual({ offset: 10, limit: 5, total: 30, next: 15 });
    expect(middle.system.map((m) => m.id)).toEqual(["sys"]);
    expect(middle.stats).toMatchObject({ messages: 31, windowMessages: 30 });

    const end = await readPage(sid, "offset=28&limit=5");
    expect(end.window.map((m) => m.id)).toEqual(["p28", "p29"]);
    expect(end.page.next).toBeNull();
    const first = await readPage(sid, "");
    expect(first.window).toHaveLength(30);
    expect(first.page).toEqual({ offset: 0, limit: 200, total: 30, next: null });
  });

  it("rejects a bad page", async () => {
    const sid = uniqueId("page-bad");
    expectJsonError(await call("GET", `${sessionPath(sid)}?limit=0`), 400);
    expectJsonError(await call("GET", `${sessionPath(sid)}?limit=1001`), 400);
    expectJsonError(await call("GET", `${sessionPath(sid)}?offset=-1`), 400);
  });

  it("an append answers with stats only, and the context still counts what it left out", async () => {
    const sid = uniqueId("stats-only");
    await putSettings(sid, { maxTokens: 1_000_000 });
    const many = Array.from({ length: 60 }, (_, i) => ({
      id: `s${i}`,
      role: "user" as const,
      content: `message number ${i} with a few more words in it`,
    }));
    const res = await append(sid, many);
    expect(Object.keys(res).sort()).toEqual(["added", "compressionDue", "facts", "sessionId", "stats"]);
    expect(res.stats).toMatchObject({ messages: 60, windowMessages: 60 });
    const context = await readContext(sid, "budget=200");
    expect(context.stats).toMatchObject({ messages: 60, windowMessages: 60 });
    const shown = context.messages.length;
    expect(shown).toBeGreaterThan(0);
    expect(context.omitted.window).toBe(60 - shown);
  });
});
