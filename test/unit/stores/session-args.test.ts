import { describe, expect, it } from "vitest";
import { createFact } from "../../../src/memory/facts/identity.ts";
import type { AppendOptions, CompressionCommit } from "../../../src/memory/ports/sessions.ts";
import type { Fact, SessionRef, StoredMessage } from "../../../src/memory/model.ts";
import { InvalidIdError, InvalidStoreInput } from "../../../src/stores/errors.ts";
import { KEEP_SETTING } from "../../../src/stores/lua/settings.ts";
import {
  appendArgs,
  boundArgs,
  commitArgs,
  MAX_TITLE_CHARS,
  serializeMessage,
  serializeOutcome,
  settingsArgs,
  ttlArg,
} from "../../../src/stores/session-args.ts";

const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
const NOW = 1_700_000_000_000;
const msg = (id: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({
  id,
  role: "user",
  content: `text of ${id}`,
  tokens: 5,
  importance: 0.5,
  ts: NOW,
  ...extra,
});
const fact = (id: string): Fact => createFact(id, { text: "t", type: "fact", importance: 0.5 }, NOW);
const append = (messages: StoredMessage[], options: Partial<AppendOptions> = {}) =>
  appendArgs(ref, messages, { ttlSeconds: 60, ...options }, NOW);

/** The ARGV before the facts: now, ttl, user, flags, session, user prefix and suffix, counts, bound. */
const HEAD = 12;

describe("session script arguments", () => {
  it("ttlArg takes positive integers only", () => {
    expect(ttlArg(60)).toBe("60");
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => ttlArg(bad)).toThrow(InvalidStoreInput);
  });

  it("serializeMessage puts id, role, tokens, importance and ts first and keeps the rest", () => {
    const stored = serializeMessage(msg("m1", { metadata: { a: 1 }, name: "ada" }));
    expect(Object.keys(JSON.parse(stored)).slice(0, 5)).toEqual(["id", "role", "tokens", "importance", "ts"]);
    expect(JSON.parse(stored)).toEqual(msg("m1", { metadata: { a: 1 }, name: "ada" }));
  });

  it.each<[string, Partial<StoredMessage>]>([
    ["fractional tokens", { tokens: 1.5 }],
    ["negative tokens", { tokens: -1 }],
    ["an importance above 1", { importance: 1.01 }],
    ["a NaN importance", { importance: Number.NaN }],
    ["a fractional ts", { ts: 1.5 }],
  ])("serializeMessage refuses %s", (_label, bad) => {
    expect(() => serializeMessage(msg("m1", bad))).toThrow(InvalidStoreInput);
  });

  it("serializeMessage refuses an invalid message id", () => {
    expect(() => serializeMessage(msg("a b"))).toThrow(InvalidIdError);
  });

  it("boundArgs: no bound is empty, a bound is its three numbers", () => {
    expect(boundArgs(undefined)).toEqual(["", "0", "0"]);
    expect(boundArgs(true)).toEqual(["", "0", "0"]);
    expect(boundArgs({ allowance: 100, limit: 0, importanceThreshold: 0.25 })).toEqual(["100", "0", "0.25"]);
    expect(() => boundArgs({ allowance: -1, limit: 0, importanceThreshold: 0 })).toThrow(InvalidStoreInput);
    expect(() => boundArgs({ allowance: 1, limit: 0, importanceThreshold: Number.POSITIVE_INFINITY })).toThrow(InvalidStoreInput);
  });

  it("appendArgs lays out the head, the facts, the recalls, the messages and the turn", () => {
    const args = append([msg("m1"), msg("m2", { role: "system" })], {
      userId: "ada",
      facts: [fact("f1")],
      recalled: ["f7"],
      withSnapshot: true,
      replaceSystem: true,
      unlessErasedSince: 12.7,
    });
    expect(args.slice(0, 9)).toEqual([String(NOW), "60", "ada", "sre12", "s1", "am:acme:u:", ":sessions", "1", "1"]);
    expect(args.slice(HEAD, HEAD + 3)).toEqual(["f1", JSON.stringify(fact("f1")), "f7"]);
    const messages = args.slice(HEAD + 3, HEAD + 11);
    expect(messages.filter((_, i) => i % 4 !== 3)).toEqual(["m1", "w", "5", "m2", "s", "5"]);
    expect(args.slice(HEAD + 11)).toEqual(["", "", "", "", ""]);
  });

  it("appendArgs marks tool calls and tool results with their call ids", () => {
    const call = { id: "call_1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    const args = append([
      msg("a1", { role: "assistant", tool_calls: [call, { ...call, id: "call_2" }] }),
      msg("t1", { role: "tool", tool_call_id: "call_1" }),
    ]);
    expect(args[HEAD + 1]).toBe("a call_1 call_2");
    expect(args[HEAD + 5]).toBe("t call_1");
    expect(() => append([msg("t1", { role: "tool", tool_call_id: "has space" })])).toThrow(InvalidStoreInput);
  });

  it("appendArgs refuses queued facts or recalls without a user", () => {
    expect(() => append([msg("m1")], { facts: [fact("f1")] })).toThrow(InvalidStoreInput);
    expect(() => append([msg("m1")], { recalled: ["f1"] })).toThrow(InvalidStoreInput);
  });

  it("appendArgs sends the dated flags only when a message was dated, one per message", () => {
    expect(append([msg("m1"), msg("m2")], { dated: [false, false] }).at(-1)).toBe("");
    expect(append([msg("m1"), msg("m2")], { dated: [false, true] }).at(-1)).toBe("01");
    expect(() => append([msg("m1"), msg("m2")], { dated: [true] })).toThrow(InvalidStoreInput);
  });

  it("appendArgs takes a retry tag of 16-64 lower-case hex digits only", () => {
    expect(append([msg("m1")], { retryTag: "0123456789abcdef" }).at(-2)).toBe("0123456789abcdef");
    for (const bad of ["0123456789abcde", "0123456789ABCDEF", "g123456789abcdef", "0".repeat(65)]) {
      expect(() => append([msg("m1")], { retryTag: bad })).toThrow(InvalidStoreInput);
    }
  });

  it("appendArgs passes the turn key, its outcome and the title, and bounds the stored title", () => {
    const outcome = { id: "r1", content: "hi", finishReason: "stop", model: "m" };
    const args = append([msg("m1")], { turn: { key: "k1", outcome }, title: "Trip" });
    expect(args.slice(-5, -2)).toEqual(["k1", serializeOutcome(outcome), "Trip"]);
    // a sealed title is longer than its clear text: the stored bound leaves room for it
    expect(() => append([msg("m1")], { title: "x".repeat(MAX_TITLE_CHARS * 2) })).not.toThrow();
    expect(() => append([msg("m1")], { title: "x".repeat(MAX_TITLE_CHARS * 10) })).toThrow(InvalidStoreInput);
    expect(() => append([msg("m1")], { turn: { key: "bad key" } })).toThrow(InvalidIdError);
  });

  it("serializeOutcome keeps the reply's fields and leaves out absent tool calls", () => {
    const outcome = { id: "r1", content: "hi", finishReason: null, model: "m" };
    expect(JSON.parse(serializeOutcome(outcome))).toEqual(outcome);
    expect(() => serializeOutcome({ ...outcome, id: "" })).toThrow(InvalidIdError);
  });

  const commit: CompressionCommit = {
    epoch: 1,
    expectedVersion: 2,
    archiveLimit: 100,
    ttlSeconds: 60,
    prefixIds: ["m1", "m2"],
    summary: { text: "sum", tokens: 3, version: 3, covered: 2, method: "llm", updatedAt: NOW, lastRatio: 0.5 },
  };

  it("commitArgs lists the checks, the summary and the prefix ids", () => {
    expect(commitArgs(commit)).toEqual(["1", "2", "100", "60", "sum", "3", "2", "llm", String(NOW), "0.5", "m1", "m2"]);
  });

  it.each<[string, Partial<CompressionCommit>]>([
    ["a negative epoch", { epoch: -1 }],
    ["a fractional version", { expectedVersion: 1.5 }],
    ["an empty prefix id", { prefixIds: ["m1", ""] }],
    ["a summary with a NaN ratio", { summary: { ...commit.summary, lastRatio: Number.NaN } }],
    ["a zero ttl", { ttlSeconds: 0 }],
  ])("commitArgs refuses %s", (_label, bad) => {
    expect(() => commitArgs({ ...commit, ...bad })).toThrow(InvalidStoreInput);
  });

  it("settingsArgs: a number sets, null deletes, absent keeps", () => {
    const args = settingsArgs(ref, { window: 10, keep: null }, 60, NOW);
    expect(args).toEqual([String(NOW), "60", "s1", "am:acme:u:", ":sessions", "10", KEEP_SETTING, "", KEEP_SETTING]);
    expect(() => settingsArgs(ref, { ttlSeconds: 0 }, 60, NOW)).toThrow(InvalidStoreInput);
    expect(() => settingsArgs(ref, { maxTokens: 1.5 }, 60, NOW)).toThrow(InvalidStoreInput);
  });
});
