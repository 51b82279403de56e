import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact, factsPath, listAll } from "../support/facts.ts";
import { expectJsonError, readSession } from "../support/sessions.ts";

/**
 * Every route that writes a fact text refuses NUL, lone surrogates and bidi controls with a 400
 * naming the rule, and stores nothing: POST and import, PATCH, and a message stored as a fact
 * (`persist` on the native append, the chat turn and the proxy).
 */

const BAD: [string, string, RegExp][] = [
  ["NUL", "lives in\u0000 Berlin", /must not hold a NUL character/],
  ["a lone surrogate", "likes \ud83d tea", /must not hold a lone surrogate/],
  ["a right-to-left override", "likes tea \u202eeeffoc sekil", /must not hold bidirectional control characters .*U\+202E/],
  ["a first-strong isolate", "is called \u2068Rex\u2069", /must not hold bidirectional control characters .*U\+2068/],
];

describe("the fact text rule on every fact write", () => {
  it.each(BAD)("POST, import and PATCH refuse %s and store nothing", async (_, text, problem) => {
    const uid = uniqueId("text-rule");
    const post = await call("POST", factsPath(uid), { body: { text } });
    expect(expectJsonError(post, 400).error.message).toMatch(/^invalid body: text /);
    expect(expectJsonError(post, 400).error.message).toMatch(problem);

    const imported = await call("POST", `${factsPath(uid)}/import`, { body: { facts: [{ text: "likes tea" }, { text }] } });
    expect(expectJsonError(imported, 400).error.message).toMatch(/^invalid body: facts\.1\.text /);
    expect(await listAll(uid)).toEqual([]);

    const fact = await addFact(uid, { text: "likes coffee" });
    const patch = await call("PATCH", `${factsPath(uid)}/${fact.id}`, { body: { text } });
    expect(expectJsonError(patch, 400).error.message).toMatch(problem);
    expect((await listAll(uid)).map((f) => [f.text, f.version])).toEqual([["likes coffee", 1]]);
  });

  it.each(BAD)("a persisted message with %s is refused whole: no message, no fact", async (_, text, problem) => {
    const uid = uniqueId("text-rule-msg");
    const sid = uniqueId("text-rule-s");
    const append = await call("POST", `/v1/sessions/${sid}/messages`, {
      body: {
        userId: uid,
        messages: [
          { id: "m1", role: "user", content: "hello" },
          { id: "m2", role: "user", content: text, persist: true },
        ],
      },
    });
    const message = expectJsonError(append, 400).error.message;
    expect(message).toMatch(/messages\.1\.content /);
    expect(message).toMatch(problem);

    const chat = await call("POST", `/v1/sessions/${sid}/chat`, { body: { message: text, messageId: "q1", userId: uid, persist: true } });
    expect(expectJsonError(chat, 400).error.message).toMatch(problem);

    const proxy = await call("POST", "/v1/chat/completions", {
      body: { model: "fake-model", messages: [{ role: "user", content: text }] },
      headers: { "X-Memory-Session": sid, "X-Memory-User": uid, "X-Memory-Persist": "true" },
    });
    expect(proxy.status, proxy.text).toBe(400);
    expect(proxy.text).toMatch(problem);

    expect((await readSession(sid)).exists).toBe(false);
    expect(await listAll(uid)).toEqual([]);
  });

  it("a message that is not persisted keeps its text as sent", async () => {
    const sid = uniqueId("text-rule-plain");
    const text = "quoted as sent: \u202eabc";
    const res = await call("POST", `/v1/sessions/${sid}/messages`, { body: { messages: [{ role: "assistant", content: text }] } });
    expect(res.status, res.text).toBe(201);
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual([text]);
  });
});
