/** @module API tests of a message's own time (`ts`): stored as given, checked against the clock, the batch and the session, learned against. */
import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { listAll } from "../support/facts.ts";
import { append, expectJsonError, observable, postMessages, readSession, sessionPath, type MessageInput } from "../support/sessions.ts";

type Dated = MessageInput & { ts?: number };

const MAY_8_2023 = Date.UTC(2023, 4, 8, 13, 56);
const HOUR = 3_600_000;

const post = (sid: string, messages: Dated[], userId?: string) => postMessages(sid, messages, userId === undefined ? {} : { userId });

/** Appends dated messages and expects 201. */
async function appendDated(sid: string, messages: Dated[]) {
  const res = await post(sid, messages);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A refusal that names the field and changed nothing. */
async function expectRefused(sid: string, messages: Dated[], field: string): Promise<string> {
  const before = await observable(sid);
  const res = await post(sid, messages);
  const body = expectJsonError(res, 400);
  expect(body.error.message).toContain(field);
  expect(await observable(sid)).toEqual(before);
  return body.error.message;
}

describe("a message carries its own time (ts)", () => {
  it("is stored and returned as given; a message without ts still takes the server time", async () => {
    const sid = uniqueId("ts-given");
    await appendDated(sid, [
      { id: "u1", role: "user", content: "we landed in Lisbon", ts: MAY_8_2023 },
      { id: "a1", role: "assistant", content: "how was the flight?", ts: MAY_8_2023 + 60_000 },
    ]);
    const before = Date.now();
    await appendDated(sid, [{ id: "u2", role: "user", content: "long, but fine" }]);
    const window = (await readSession(sid)).window;
    expect(window.map((m) => [m.id, m.ts >= before ? "server" : m.ts])).toEqual([
      ["u1", MAY_8_2023],
      ["a1", MAY_8_2023 + 60_000],
      ["u2", "server"],
    ]);
  });

  it("refuses a ts in the future beyond the allowed clock skew, and stores a small skew as the server time", async () => {
    const sid = uniqueId("ts-future");
    await append(sid, [{ id: "u0", role: "user", content: "hello" }]);
    const message = await expectRefused(
      sid,
      [{ id: "u1", role: "user", content: "from the future", ts: Date.now() + HOUR }],
      "messages.0.ts",
    );
    expect(message).toContain("future");

    const ahead = Date.now() + 60_000;
    await appendDated(sid, [{ id: "u2", role: "user", content: "a fast clock", ts: ahead }]);
    const stored = (await readSession(sid)).window.find((m) => m.id === "u2");
    expect(stored?.ts).toBeLessThan(ahead);
  });

  it("refuses a ts before the session's newest message, storing nothing of the batch", async () => {
    const sid = uniqueId("ts-before");
    await appendDated(sid, [{ id: "u1", role: "user", content: "first", ts: MAY_8_2023 }]);
    await expectRefused(
      sid,
      [
        { id: "u0", role: "user", content: "older still", ts: MAY_8_2023 - HOUR },
        { id: "a0", role: "assistant", content: "and its answer", ts: MAY_8_2023 - HOUR + 1 },
      ],
      "messages.0.ts",
    );
    // the refused ids were not reserved: they store once the times fit
    const later = await appendDated(sid, [{ id: "u0", role: "user", content: "now in order", ts: MAY_8_2023 + HOUR }]);
    expect(later.added).toEqual([expect.objectContaining({ id: "u0", duplicate: false })]);
  });

  it("refuses a dated message before one stored without ts (the server's time)", async () => {
    const sid = uniqueId("ts-after-server");
    await appendDated(sid, [{ id: "u1", role: "user", content: "sent live" }]);
    await expectRefused(sid, [{ id: "u2", role: "user", content: "imported later", ts: MAY_8_2023 }], "messages.0.ts");
  });

  it("takes a retried dated batch as duplicates, not as messages going back in time", async () => {
    const sid = uniqueId("ts-retry");
    const batch: Dated[] = [
      { id: "u1", role: "user", content: "one", ts: MAY_8_2023 },
      { id: "a1", role: "assistant", content: "two", ts: MAY_8_2023 + 1000 },
    ];
    await appendDated(sid, batch);
    const again = await appendDated(sid, batch);
    expect(again.added.map((a) => a.duplicate)).toEqual([true, true]);
  });

  it("refuses a batch whose times go backwards", async () => {
    const sid = uniqueId("ts-batch");
    await appendDated(sid, [{ id: "u0", role: "user", content: "hello", ts: MAY_8_2023 - HOUR }]);
    await expectRefused(
      sid,
      [
        { id: "u1", role: "user", content: "one", ts: MAY_8_2023 },
        { id: "a1", role: "assistant", content: "two", ts: MAY_8_2023 + 1000 },
        { id: "u2", role: "user", content: "three", ts: MAY_8_2023 + 500 },
      ],
      "messages.2.ts",
    );
    // a message without ts takes the server time, so it cannot come before dated ones
    await expectRefused(
      sid,
      [
        { id: "u3", role: "user", content: "undated" },
        { id: "u4", role: "user", content: "dated", ts: MAY_8_2023 },
      ],
      "messages.1.ts",
    );
  });

  it.each([
    ["a fraction", 1.5, "must be an integer"],
    ["a negative number", -1, "must be >= 0"],
    ["a string", "2023-05-08", "must be a number"],
  ])("refuses a ts that is %s, naming the field", async (_name, ts, problem) => {
    const sid = uniqueId("ts-type");
    await appendDated(sid, [{ id: "u0", role: "user", content: "hello" }]);
    const message = await expectRefused(sid, [{ id: "u1", role: "user", content: "x", ts: ts as number }], "messages.0.ts");
    expect(message).toContain(problem);
  });

  it("a reset session takes history of every age again", async () => {
    const sid = uniqueId("ts-reset");
    await append(sid, [{ id: "u1", role: "user", content: "today" }]);
    expect((await call("DELETE", `${sessionPath(sid)}?keepSystem=false`)).status).toBe(200);
    await appendDated(sid, [{ id: "u0", role: "user", content: "long ago", ts: MAY_8_2023 }]);
    expect((await readSession(sid)).window.map((m) => m.ts)).toEqual([MAY_8_2023]);
  });

  it("learns a relative date against the message's ts, not the time of the import", async () => {
    const sid = uniqueId("ts-learn");
    const uid = uniqueId("museum");
    const res = await post(sid, [{ id: "u1", role: "user", content: "I went to the museum yesterday", ts: MAY_8_2023 }], uid);
    expect(res.status, res.text).toBe(201);
    const all = await listAll(uid);
    const learned = all.filter((f) => f.type !== "episode").map((f) => f.text);
    expect(learned).toEqual([expect.stringContaining("7 May 2023")]);
    // the message itself, kept as an episode, is dated when it was said
    expect(all.filter((f) => f.type === "episode")).toMatchObject([{ text: "I went to the museum yesterday", createdAt: MAY_8_2023 }]);
  });
});
