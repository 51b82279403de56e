import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEY_B, call, uniqueId } from "../support/helpers.ts";
import { chatTurn, putSettings, resetLlm } from "../support/chat.ts";
import { compress } from "../support/llm.ts";
import { append, expectJsonError } from "../support/sessions.ts";

interface ListEntry {
  sessionId: string;
  createdAt: number;
  updatedAt: number;
  messages: number;
  title: string | null;
}

interface ListPage {
  userId: string;
  sessions: ListEntry[];
  nextCursor: string | null;
}

const list = (userId: string, query = "", key?: string) => call<ListPage>("GET", `/v1/users/${userId}/sessions${query}`, { key });

async function listAll(userId: string, limit: number): Promise<{ pages: number; sessions: ListEntry[] }> {
  const sessions: ListEntry[] = [];
  let cursor: string | null = "";
  let pages = 0;
  while (cursor !== null && pages < 20) {
    const res: Awaited<ReturnType<typeof list>> = await list(userId, `?limit=${limit}${cursor === "" ? "" : `&cursor=${cursor}`}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.sessions.length).toBeLessThanOrEqual(limit);
    sessions.push(...res.json.sessions);
    cursor = res.json.nextCursor;
    pages += 1;
  }
  return { pages, sessions };
}

describe("GET /v1/users/{userId}/sessions: a chat sidebar's list", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  it("lists the user's sessions newest activity first, paged, with created, last activity, message count and title", async () => {
    const uid = uniqueId("side");
    const ids = [uniqueId("s-a"), uniqueId("s-b"), uniqueId("s-c")];
    const longText = `Plan a two-week trip through Japan in spring, with ${"many ".repeat(30)}stops`;
    await append(
      ids[0]!,
      [
        { role: "system", content: "sys" },
        { role: "user", content: longText },
        { role: "assistant", content: "sure" },
      ],
      { userId: uid },
    );
    await chatTurn(ids[1]!, { message: "What is a good name for a cat?", userId: uid });
    await append(ids[2]!, [{ role: "assistant", content: "Hello! How can I help?" }], { userId: uid });
    // The first session becomes the most recent one.
    await append(ids[0]!, [{ role: "user", content: "and what about autumn?" }], { userId: uid });
    // Another user's and another tenant's sessions never show up.
    await append(uniqueId("s-other"), [{ role: "user", content: "not yours" }], { userId: uniqueId("other") });
    const tenantB = uniqueId("s-tenant-b");
    await call("POST", `/v1/sessions/${tenantB}/messages`, {
      body: { userId: uid, messages: [{ role: "user", content: "tenant B" }] },
      key: KEY_B,
    });

    const { pages, sessions } = await listAll(uid, 2);
    expect(pages).toBe(2);
    expect(sessions.map((s) => s.sessionId)).toEqual([ids[0], ids[2], ids[1]]);
    const [a, c, b] = sessions as [ListEntry, ListEntry, ListEntry];
    expect(a.messages).toBe(3); // system prompts are not counted
    expect(a.title?.length).toBe(80);
    expect(a.title?.endsWith("…")).toBe(true);
    expect(longText.startsWith(a.title!.slice(0, 40))).toBe(true);
    expect(b).toMatchObject({ messages: 2, title: "What is a good name for a cat?" });
    expect(c).toMatchObject({ messages: 1, title: null });
    for (const s of sessions) {
      expect(s.createdAt).toBeGreaterThan(0);
      expect(s.updatedAt).toBeGreaterThanOrEqual(s.createdAt);
    }
    expect(a.updatedAt).toBeGreaterThanOrEqual(c.updatedAt);
    expect((await list(uid, "", KEY_B)).json.sessions.map((s) => s.sessionId)).toEqual([tenantB]);
  });

  it("counts summarized messages, and a reset clears the count and the title", async () => {
    const uid = uniqueId("side-sum");
    const sid = uniqueId("s-sum");
    await putSettings(sid, { keep: 1 });
    await append(
      sid,
      Array.from({ length: 6 }, (_, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content: `message ${i}` })),
      { userId: uid },
    );
    expect((await compress(sid, { force: true })).compressed).toBe(true);
    expect((await list(uid)).json.sessions[0]).toMatchObject({ sessionId: sid, messages: 6, title: "message 0" });
    expect((await call("DELETE", `/v1/sessions/${sid}`)).status).toBe(200);
    expect((await list(uid)).json.sessions[0]).toMatchObject({ sessionId: sid, messages: 0, title: null });
    await append(sid, [{ role: "user", content: "a fresh start" }], { userId: uid });
    expect((await list(uid)).json.sessions[0]).toMatchObject({ messages: 1, title: "a fresh start" });
  });

  it("answers an empty page for a user without sessions and refuses a bad cursor or limit", async () => {
    expect((await list(uniqueId("nobody"))).json).toMatchObject({ sessions: [], nextCursor: null });
    expect(expectJsonError(await list("u1", "?cursor=abc"), 400).error.message).toBe(
      "invalid query: cursor must be the nextCursor of the previous page",
    );
    expect(expectJsonError(await list("u1", "?limit=500"), 400).error.message).toBe(
      "invalid query: limit must be an integer from 1 to 100",
    );
  });
});
