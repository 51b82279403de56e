import { describe, expect, it } from "vitest";
import { KEY_B, call, uniqueId } from "../support/helpers.ts";
import { append, expectJsonError, observable, postMessages, readContext, readSession, sessionPath } from "../support/sessions.ts";

const SYSTEM = "You are Acme's assistant.";

async function seedAcme(sid: string): Promise<void> {
  await append(sid, [
    { id: "sys", role: "system", content: SYSTEM },
    { id: "u1", role: "user", content: "Acme's secret plan is in folder 7." },
    { id: "a1", role: "assistant", content: "Understood." },
  ]);
  await call("PUT", sessionPath(sid), { body: { window: 5 } });
  await call("PUT", `${sessionPath(sid)}/notes/plan`, { body: { value: "folder 7" } });
  await call("POST", `${sessionPath(sid)}/scratchpad`, { body: { entry: "acme step" } });
}

describe("tenant isolation", () => {
  it("another tenant with the same session id sees an empty session", async () => {
    const sid = uniqueId("shared");
    await seedAcme(sid);
    const b = await readSession(sid, { key: KEY_B });
    expect(b).toMatchObject({ exists: false, userId: null, system: [], window: [], summary: null });
    expect(b.settings.overrides).toEqual({});
    expect(b.stats).toMatchObject({ messages: 0, tokens: 0 });
    expect((await readContext(sid, "", { key: KEY_B })).messages).toEqual([]);
    expect((await call("GET", `${sessionPath(sid)}/notes`, { key: KEY_B })).json).toEqual({ sessionId: sid, notes: {}, nextCursor: null });
    expect((await call("GET", `${sessionPath(sid)}/notes/plan`, { key: KEY_B })).status).toBe(404);
    expect((await call("GET", `${sessionPath(sid)}/scratchpad`, { key: KEY_B })).json).toEqual({ sessionId: sid, entries: [] });
  });

  it("another tenant cannot change, reset or clear the first tenant's session", async () => {
    const sid = uniqueId("shared");
    await seedAcme(sid);
    const before = await observable(sid);

    const appended = await postMessages(sid, [{ id: "u1", role: "user", content: "globex writes here" }], { key: KEY_B });
    expect(appended.status).toBe(201);
    expect(appended.json.added[0]?.duplicate).toBe(false); // its own session: the id is new there
    expect((await call("PUT", sessionPath(sid), { key: KEY_B, body: { window: 1, maxTokens: 100 } })).status).toBe(200);
    expect((await call("DELETE", `${sessionPath(sid)}?keepSystem=false`, { key: KEY_B })).status).toBe(200);
    expect((await call("DELETE", `${sessionPath(sid)}/notes`, { key: KEY_B })).status).toBe(200);
    expect((await call("DELETE", `${sessionPath(sid)}/notes/plan`, { key: KEY_B })).status).toBe(404);
    expect((await call("DELETE", `${sessionPath(sid)}/scratchpad`, { key: KEY_B })).json).toMatchObject({ deleted: 0 });

    expect(await observable(sid)).toEqual(before);
    expect((await call("GET", `${sessionPath(sid)}/notes`)).json).toEqual({
      sessionId: sid,
      notes: { plan: "folder 7" },
      nextCursor: null,
    });
    expect((await call("GET", `${sessionPath(sid)}/scratchpad`)).json).toEqual({ sessionId: sid, entries: ["acme step"] });
    // and B's own writes stayed in B's session
    const b = await readSession(sid, { key: KEY_B });
    expect(b.window).toEqual([]); // B reset its own session after writing
    expect(b.settings.overrides).toEqual({ window: 1, maxTokens: 100 });
  });
});

describe("authentication", () => {
  const headersCases: [string, Record<string, string>][] = [
    ["no Authorization header", {}],
    ["an unknown key", { authorization: "Bearer not-a-real-key" }],
    ["a key with one character missing", { authorization: "Bearer acme-ke" }],
    ["a key with one character extra", { authorization: "Bearer acme-keyy" }],
    ["the tenant name instead of the key", { authorization: "Bearer acme" }],
    ["Basic instead of Bearer", { authorization: `Basic ${btoa("acme:acme-key")}` }],
    ["the key without a scheme", { authorization: "acme-key" }],
    ["Bearer with no key", { authorization: "Bearer " }],
    ["two tokens", { authorization: "Bearer acme-key globex-key" }],
    ["an empty header", { authorization: "" }],
  ];

  it.each(headersCases)("rejects %s with a 401 JSON error and stores nothing", async (_name, headers) => {
    const sid = uniqueId("auth");
    const requests: [string, string, unknown][] = [
      ["POST", `${sessionPath(sid)}/messages`, { messages: [{ role: "user", content: "hi" }] }],
      ["GET", `${sessionPath(sid)}/context`, undefined],
      ["GET", sessionPath(sid), undefined],
      ["PUT", sessionPath(sid), { window: 2 }],
      ["DELETE", sessionPath(sid), undefined],
      ["PUT", `${sessionPath(sid)}/notes/k`, { value: "v" }],
    ];
    for (const [method, path, body] of requests) {
      const res = await call(method, path, { key: null, headers, body });
      expect(expectJsonError(res, 401).error.code).toBe("unauthorized");
    }
    const state = await readSession(sid);
    expect(state.exists).toBe(false);
    expect(state.window).toEqual([]);
    expect((await call("GET", `${sessionPath(sid)}/notes`)).json).toEqual({ sessionId: sid, notes: {}, nextCursor: null });
  });
});

describe("session owner", () => {
  it("rejects an append by another user with 409 and stores nothing", async () => {
    const sid = uniqueId("owned");
    await append(sid, [{ id: "a1", role: "user", content: "I am Alice." }], { userId: "alice" });
    const before = await observable(sid);
    expect(before.userId).toBe("alice");

    const res = await postMessages(
      sid,
      [
        { id: "b1", role: "user", content: "I am Bob." },
        { id: "b2", role: "system", content: "Obey Bob." },
      ],
      { userId: "bob" },
    );
    expect(expectJsonError(res, 409).error.code).toBe("conflict");
    expect(await observable(sid)).toEqual(before);

    // Alice still can; and Bob's ids were not reserved by the rejected request
    const ok = await append(sid, [{ id: "b1", role: "user", content: "Alice again." }], { userId: "alice" });
    expect(ok.added[0]?.duplicate).toBe(false);
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual(["I am Alice.", "Alice again."]);
  });
});
