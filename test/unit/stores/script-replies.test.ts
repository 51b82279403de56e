import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../../../src/memory/model.ts";
import { UnexpectedReply } from "../../../src/stores/errors.ts";
import {
  asList,
  asMap,
  asStrings,
  decodeReply,
  num,
  parseMessages,
  parseOutcome,
  parseSessionList,
  parseSettings,
  parseSnapshot,
  parseSummary,
  parseTotals,
} from "../../../src/stores/script-replies.ts";
import { serializeMessage, serializeOutcome } from "../../../src/stores/session-args.ts";

const msg = (id: string): StoredMessage => ({ id, role: "user", content: `text ${id}`, tokens: 4, importance: 0.5, ts: 10 });

describe("script replies", () => {
  it("decodeReply takes the parsed object or its JSON text", () => {
    expect(decodeReply({ a: 1 }, "x")).toEqual({ a: 1 });
    expect(decodeReply('{"a":1}', "x")).toEqual({ a: 1 });
  });

  it.each([["not json"], ["[1]"], ["null"], [7], [null], [[{ a: 1 }]]])("decodeReply refuses %j", (reply) => {
    expect(() => decodeReply(reply, "read")).toThrow(UnexpectedReply);
  });

  it("reads cjson's empty table as an empty list or map, and keeps only the strings of a list or map", () => {
    expect(asList({})).toEqual([]);
    expect(asList([1, "a"])).toEqual([1, "a"]);
    expect(asMap([])).toEqual({});
    expect(asMap({ a: "1", b: 2, c: null })).toEqual({ a: "1" });
    expect(asStrings(["a", 1, null, "b"])).toEqual(["a", "b"]);
  });

  it("num reads numbers and numeric strings, else the fallback", () => {
    expect(num(3)).toBe(3);
    expect(num("2.5")).toBe(2.5);
    expect(num("", 7)).toBe(7);
    expect(num("abc", 7)).toBe(7);
    expect(num(Number.POSITIVE_INFINITY, 7)).toBe(7);
    expect(num(undefined)).toBe(0);
  });

  it("parseMessages reads back what serializeMessage wrote", () => {
    const stored = [msg("m1"), msg("m2")];
    expect(parseMessages(stored.map(serializeMessage), "read")).toEqual(stored);
    expect(parseMessages({}, "read")).toEqual([]);
    expect(() => parseMessages(['{"role":"user"}'], "read")).toThrow(UnexpectedReply);
  });

  it("parseSummary: no version is no summary; an unknown method reads as extractive", () => {
    expect(parseSummary({ text: "t" })).toBeNull();
    expect(parseSummary({ version: "2", text: "t", tokens: "3", covered: "4", method: "llm", updatedAt: "5", lastRatio: "0.5" })).toEqual({
      text: "t",
      tokens: 3,
      version: 2,
      covered: 4,
      method: "llm",
      updatedAt: 5,
      lastRatio: 0.5,
    });
    expect(parseSummary({ version: "1", method: "other" })?.method).toBe("extractive");
  });

  it("parseSettings keeps the numeric settings fields and drops the rest", () => {
    expect(parseSettings({ "set:window": "10", "set:keep": "x", "set:ttlSeconds": "60", created: "1", window: "5" })).toEqual({
      window: 10,
      ttlSeconds: 60,
    });
  });

  it("parseSnapshot of an unknown session is an empty snapshot that does not exist", () => {
    expect(parseSnapshot({})).toEqual({
      exists: false,
      system: [],
      window: [],
      windowTokens: 0,
      summary: null,
      meta: null,
      settings: {},
    });
  });

  it("parseSnapshot reads the meta, the messages and the settings", () => {
    const snap = parseSnapshot({
      meta: { created: "1", updated: "2", epoch: "3", sumfail: "1", userId: "ada", wtok: "8", "set:keep": "4" },
      sys: [serializeMessage(msg("s1"))],
      win: [serializeMessage(msg("m1")), serializeMessage(msg("m2"))],
      sum: {},
    });
    expect(snap.exists).toBe(true);
    expect(snap.meta).toEqual({ userId: "ada", createdAt: 1, updatedAt: 2, epoch: 3, summaryFailures: 1 });
    expect(snap.windowTokens).toBe(8);
    expect(snap.settings).toEqual({ keep: 4 });
    expect(snap.window.map((m) => m.id)).toEqual(["m1", "m2"]);
    // the whole window came back: no partial-window fields
    expect(parseSnapshot({ meta: { created: "1" }, win: [serializeMessage(msg("m1"))], wcount: 1, wstart: 0 })).not.toHaveProperty(
      "windowCount",
    );
  });

  it("parseSnapshot reports a partial window's count, start and importance", () => {
    const snap = parseSnapshot({ meta: { created: "1" }, win: [serializeMessage(msg("m9"))], wcount: 9, wstart: 8, wimp: "4500000" });
    expect(snap).toMatchObject({ windowCount: 9, windowStart: 8, windowImportanceMicros: 4_500_000 });
  });

  it("parseTotals reads every total, absent ones as 0", () => {
    expect(parseTotals({ scount: 1, stok: "2", simp: 3, wcount: 4, wtok: 5 })).toEqual({
      systemCount: 1,
      systemTokens: 2,
      systemImportanceMicros: 3,
      windowCount: 4,
      windowTokens: 5,
      windowImportanceMicros: 0,
    });
  });

  it("parseOutcome reads back what serializeOutcome wrote; none is null", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    const outcome = { id: "r1", content: "hi", tool_calls: [call], finishReason: "tool_calls", model: "m" };
    expect(parseOutcome(serializeOutcome(outcome))).toEqual(outcome);
    expect(parseOutcome("")).toBeNull();
    expect(parseOutcome(undefined)).toBeNull();
    expect(parseOutcome('{"id":"r1","content":"x","finishReason":3}')).toEqual({ id: "r1", content: "x", finishReason: null, model: "" });
    expect(() => parseOutcome('{"id":"r1"}')).toThrow(UnexpectedReply);
  });

  it("parseSessionList reads each entry, an empty title as none", () => {
    const list = parseSessionList([
      JSON.stringify({ id: "s1", created: 1, updated: "2", count: 3, title: "Trip" }),
      { id: "s2", created: 4, updated: 5, count: 0, title: "" },
    ]);
    expect(list).toEqual([
      { sessionId: "s1", createdAt: 1, updatedAt: 2, messages: 3, title: "Trip" },
      { sessionId: "s2", createdAt: 4, updatedAt: 5, messages: 0, title: null },
    ]);
    expect(parseSessionList({})).toEqual([]);
    expect(() => parseSessionList([{ created: 1 }])).toThrow(UnexpectedReply);
  });
});
