import { beforeAll, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { BAD_INPUTS } from "../support/bad-inputs.ts";
import { append, expectJsonError, observable, putSettings, sessionPath } from "../support/sessions.ts";

const sid = uniqueId("bad");

/** Everything a rejected request could have touched. */
async function everything() {
  const [state, notes, pad] = await Promise.all([
    observable(sid),
    call("GET", `${sessionPath(sid)}/notes`),
    call("GET", `${sessionPath(sid)}/scratchpad`),
  ]);
  return { state, notes: notes.json, pad: pad.json };
}

describe("bad input is refused with a 4xx JSON error and changes nothing", () => {
  beforeAll(async () => {
    await append(sid, [
      { id: "sys", role: "system", content: "You are terse." },
      { id: "u1", role: "user", content: "hello" },
      { id: "a1", role: "assistant", content: "hi" },
    ]);
    await putSettings(sid, { window: 4 });
    expect((await call("PUT", `${sessionPath(sid)}/notes/k`, { body: { value: "kept" } })).status).toBe(200);
    expect((await call("POST", `${sessionPath(sid)}/scratchpad`, { body: { entry: "kept" } })).status).toBe(200);
  });

  it("has a table of at least 40 cases", () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(BAD_INPUTS.map((c) => c.name)).size).toBe(BAD_INPUTS.length);
  });

  it.each(BAD_INPUTS.map((c) => [c.name, c] as const))("%s", async (_name, bad) => {
    const before = await everything();
    const res = await call(bad.method, bad.path(sid), bad.options ?? {});
    expectJsonError(res, bad.status ?? 400);
    expect(await everything()).toEqual(before);
  });

  it("leaves the session usable, and no rejected message id was reserved", async () => {
    const res = await append(sid, [{ id: "dup", role: "user", content: "now valid" }]);
    expect(res.added[0]?.duplicate).toBe(false);
    expect(res.stats.windowMessages).toBe(3);
  });
});

describe("unknown routes", () => {
  const cases: [string, string, string | null][] = [
    ["GET", "/nope", null],
    ["GET", "/v1/nope", "acme-key"],
    ["GET", "/v1/sessions/s1/unknown", "acme-key"],
    ["POST", "/v1/sessions/s1/messages/extra", "acme-key"],
  ];

  it.each(cases)("%s %s answers a JSON 404", async (method, path, key) => {
    const res = await call(method, path, { key });
    expect(expectJsonError(res, 404).error.code).toBe("not_found");
  });

  const known: [string, string, string][] = [
    ["PATCH", "/v1/sessions/s1", "GET, PUT, DELETE"],
    ["GET", "/v1/sessions/s1/messages", "POST"],
    ["DELETE", "/v1/sessions/s1/context", "GET"],
    ["PUT", "/v1/users/u1/facts", "GET, POST"],
    ["GET", "/v1/chat/completions", "POST"],
  ];

  it.each(known)("%s %s (a known path, another method) answers 405 with Allow: %s", async (method, path, allow) => {
    const res = await call(method, path);
    expect(expectJsonError(res, 405).error.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toBe(allow);
  });
});
