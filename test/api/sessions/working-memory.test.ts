/** @module A session's working memory: notes by key and the ordered scratchpad. */
import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { sessionPath } from "../support/sessions.ts";

describe("working memory", () => {
  it("sets, reads, deletes and clears notes", async () => {
    const sid = uniqueId("notes");
    const base = `${sessionPath(sid)}/notes`;
    const put = await call("PUT", `${base}/destination`, { body: { value: "Kyoto" } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ sessionId: sid, key: "destination", value: "Kyoto" });
    // values that look like JSON come back as the same strings
    expect((await call("PUT", `${base}/budget`, { body: { value: "42" } })).status).toBe(200);
    expect((await call("PUT", `${base}/dates`, { body: { value: "[1, 2]" } })).status).toBe(200);

    expect((await call("GET", `${base}/destination`)).json).toEqual({ sessionId: sid, key: "destination", value: "Kyoto" });
    expect((await call("GET", base)).json).toEqual({
      sessionId: sid,
      notes: { destination: "Kyoto", budget: "42", dates: "[1, 2]" },
      nextCursor: null,
    });

    expect((await call("PUT", `${base}/destination`, { body: { value: "Osaka" } })).status).toBe(200);
    expect((await call("GET", `${base}/destination`)).json).toMatchObject({ value: "Osaka" });

    expect((await call("DELETE", `${base}/destination`)).json).toEqual({ sessionId: sid, key: "destination", deleted: 1 });
    // One delete convention: naming one thing that is not there is a 404.
    expect((await call("DELETE", `${base}/destination`)).status).toBe(404);
    const missing = await call<{ error: { code: string } }>("GET", `${base}/destination`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe("not_found");

    expect((await call("DELETE", base)).json).toEqual({ sessionId: sid, deleted: 2 });
    expect((await call("GET", base)).json).toEqual({ sessionId: sid, notes: {}, nextCursor: null });
  });

  it("appends to, reads and clears the scratchpad in order", async () => {
    const sid = uniqueId("pad");
    const path = `${sessionPath(sid)}/scratchpad`;
    expect((await call("GET", path)).json).toEqual({ sessionId: sid, entries: [] });
    const entries = ["step 1: search flights", "123", '{"k": 1}'];
    for (const [i, entry] of entries.entries()) {
      const res = await call("POST", path, { body: { entry } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ sessionId: sid, length: i + 1 });
    }
    expect((await call("GET", path)).json).toEqual({ sessionId: sid, entries });
    expect((await call("DELETE", path)).json).toEqual({ sessionId: sid, deleted: 3 });
    expect((await call("GET", path)).json).toEqual({ sessionId: sid, entries: [] });
  });
});
