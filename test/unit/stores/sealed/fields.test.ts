import { describe, expect, it } from "vitest";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import type { SessionDump } from "../../../../src/memory/ports/sessions.ts";
import type { Fact, StoredMessage, TurnOutcome } from "../../../../src/memory/model.ts";
import { FieldCipher, isSealed } from "../../../../src/stores/sealed/cipher.ts";
import * as fields from "../../../../src/stores/sealed/fields.ts";

const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(7) }]);
const { seal, open } = fields.codecsFor(cipher, "acme");

const call = { id: "call_1", type: "function" as const, function: { name: "lookup", arguments: '{"q":"sailing"}' } };
const message: StoredMessage = {
  id: "m1",
  role: "assistant",
  content: "I will look it up",
  tool_calls: [call],
  tokens: 9,
  importance: 0.4,
  ts: 1000,
  metadata: { source: "app" },
};
const system: StoredMessage = { id: "s1", role: "system", content: "Be brief", tokens: 2, importance: 1, ts: 900 };
const fact: Fact = {
  ...createFact("f1", { text: "Ada sails", type: "fact", importance: 0.5 }, 2),
  version: 2,
  history: [{ text: "Ada rows", updatedAt: 1 }],
};
const outcome: TurnOutcome = { id: "r1", content: "Done", tool_calls: [call], finishReason: "stop", model: "m" };
const dump: SessionDump = {
  sessionId: "s1",
  snapshot: {
    exists: true,
    system: [system],
    window: [message],
    windowTokens: 9,
    summary: { text: "They talked", tokens: 2, version: 1, covered: 1, method: "llm", updatedAt: 5, lastRatio: 0.5 },
    meta: { userId: "ada", createdAt: 1, updatedAt: 2, epoch: 0, summaryFailures: 0 },
    settings: {},
  },
  archived: [{ ...message, id: "m0" }],
  notes: { goal: "ship it" },
  scratchpad: ["step one"],
  turns: [outcome],
};

describe("sealed fields", () => {
  it("a message: content and tool arguments sealed; id, role, counts, time and call ids in clear; key order kept", async () => {
    const sealed = await fields.message(message, seal);
    expect(isSealed(sealed.content)).toBe(true);
    expect(isSealed(sealed.tool_calls?.[0]?.function.arguments ?? "")).toBe(true);
    expect(sealed.tool_calls?.[0]?.id).toBe("call_1");
    expect(sealed.tool_calls?.[0]?.function.name).toBe("lookup");
    expect(Object.keys(sealed)).toEqual(Object.keys(message));
    expect({ ...sealed, content: message.content, tool_calls: message.tool_calls }).toEqual(message);
    expect(await fields.message(sealed, open)).toEqual(message);
  });

  it("a fact: its text and every superseded text", async () => {
    const sealed = await fields.fact(fact, seal);
    expect(isSealed(sealed.text)).toBe(true);
    expect(sealed.history?.every((h) => isSealed(h.text))).toBe(true);
    expect(sealed.history?.[0]?.updatedAt).toBe(1);
    expect(await fields.fact(sealed, open)).toEqual(fact);
    expect(await fields.fact({ ...fact, history: undefined }, seal)).toHaveProperty("history", undefined);
  });

  it("a turn outcome: its content and tool arguments", async () => {
    const sealed = await fields.outcome(outcome, seal);
    expect(isSealed(sealed.content)).toBe(true);
    expect(sealed.finishReason).toBe("stop");
    expect(await fields.outcome(sealed, open)).toEqual(outcome);
  });

  it("a session list entry: its title, and no title stays none", async () => {
    const entry = { sessionId: "s1", createdAt: 1, updatedAt: 2, messages: 3, title: "Trip to Oslo" };
    const sealed = await fields.listEntry(entry, seal);
    expect(isSealed(sealed.title ?? "")).toBe(true);
    expect(await fields.listEntry(sealed, open)).toEqual(entry);
    expect((await fields.listEntry({ ...entry, title: null }, seal)).title).toBeNull();
  });

  it("a whole dump: no clear text of a sealed field is left, and opening restores it", async () => {
    const sealed = await fields.dump(dump, seal);
    const stored = JSON.stringify(sealed);
    for (const clear of ["I will look it up", "sailing", "Be brief", "They talked", "ship it", "step one", "Done"]) {
      expect(stored).not.toContain(clear);
    }
    expect(Object.keys(sealed.notes)).toEqual(["goal"]);
    expect(sealed.snapshot.meta).toEqual(dump.snapshot.meta);
    expect(await fields.dump(sealed, open)).toEqual(dump);
  });

  it("a snapshot without a summary keeps none", async () => {
    const snapshot = { ...dump.snapshot, summary: null };
    expect((await fields.snapshot(snapshot, seal)).summary).toBeNull();
  });

  it("another tenant's codecs cannot open the values", async () => {
    const other = fields.codecsFor(cipher, "globex");
    const sealed = await fields.message(message, seal);
    await expect(fields.message(sealed, other.open)).rejects.toThrow();
  });
});
