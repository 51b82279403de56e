import { describe, expect, it } from "vitest";
import { MAX_NOTES_BYTES_PER_SESSION, MAX_NOTES_PER_SESSION, NOTES_PAGE_LIMIT } from "../../../src/memory/sessions/working-memory.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { testRedis } from "../support/redis.ts";
import { append, sessionPath } from "../support/sessions.ts";

/**
 * Everything a client can grow is bounded: notes per session (count and bytes, checked in the same
 * atomic step as the write), notes read a page at a time, export pages bounded in bytes - so one
 * write token cannot make a session unreadable or its user unexportable.
 */

const notePath = (sid: string, key: string) => `${sessionPath(sid)}/notes/${key}`;

describe("notes of one session", () => {
  it("1,500 writes of 8 KB store at most the cap; the rest are refused with 409 and change nothing", async () => {
    const user = uniqueId("notes-user");
    const sid = uniqueId("notes-s");
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: user });
    const value = "x".repeat(8000);
    const statuses: number[] = [];
    for (let batch = 0; batch < 1500; batch += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call("PUT", notePath(sid, `n${batch + i}`), { body: { value } })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_NOTES_PER_SESSION);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1500 - MAX_NOTES_PER_SESSION);
    expect(await testRedis.hlen(`am:acme:s:${sid}:notes`)).toBe(MAX_NOTES_PER_SESSION);
    // Replacing an existing note is still allowed at the cap.
    expect((await call("PUT", notePath(sid, "n0"), { body: { value: "short now" } })).status).toBe(200);

    // Read a page at a time; every note once.
    const seen = new Set<string>();
    let cursor: string | null = "";
    for (let pages = 0; cursor !== null && pages < 50; pages++) {
      const res: { status: number; json: { notes: Record<string, string>; nextCursor: string | null } } = await call(
        "GET",
        `${sessionPath(sid)}/notes?limit=10${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(Object.keys(res.json.notes).length).toBeLessThanOrEqual(NOTES_PAGE_LIMIT);
      for (const key of Object.keys(res.json.notes)) seen.add(key);
      cursor = res.json.nextCursor;
    }
    expect(seen.size).toBe(MAX_NOTES_PER_SESSION);

    // The user can still be exported, page by page.
    const exported = await call<{ sessions: { notes: Record<string, string> }[]; nextCursor: string | null }>(
      "GET",
      `/v1/users/${user}/export`,
    );
    expect(exported.status, exported.text.slice(0, 200)).toBe(200);
    expect(Object.keys(exported.json.sessions[0]?.notes ?? {})).toHaveLength(MAX_NOTES_PER_SESSION);
  });

  it("a session's notes hold at most the byte cap, counted as stored", async () => {
    const sid = uniqueId("notes-bytes");
    // Two bytes per character: 16 KB per note, so the byte cap binds before the count cap.
    const value = "é".repeat(8000);
    let stored = 0;
    for (let i = 0; i < MAX_NOTES_PER_SESSION; i++) {
      const res = await call("PUT", notePath(sid, `b${i}`), { body: { value } });
      if (res.status === 409) {
        expect(res.text).toMatch(/bytes/);
        break;
      }
      expect(res.status, res.text).toBe(200);
      stored++;
    }
    expect(stored).toBe(Math.floor(MAX_NOTES_BYTES_PER_SESSION / (16_000 + 4)));
    expect(await testRedis.hlen(`am:acme:s:${sid}:notes`)).toBe(stored);
  });
});

describe("export pages", () => {
  it("end when their stored text passes the byte budget, and the cursor continues", async () => {
    const user = uniqueId("big-export");
    const big = "y".repeat(30_000);
    const sessions = Array.from({ length: 8 }, () => uniqueId("big-export-s"));
    for (const sid of sessions) {
      await append(
        sid,
        Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, role: "user" as const, content: big })),
        { userId: user },
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; text: string; json: { sessions: { sessionId: string }[]; nextCursor: string | null } } = await call(
        "GET",
        `/v1/users/${user}/export${cursor ? `?cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      // 300 KB per session: a 2 MB page ends after the seventh session.
      expect(res.text.length).toBeLessThan(3_000_000);
      seen.push(...res.json.sessions.map((s) => s.sessionId));
      cursor = res.json.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(8);
  });
});
