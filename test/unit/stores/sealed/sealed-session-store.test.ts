import { describe, expect, it } from "vitest";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import type { SessionRef, StoredMessage, Summary } from "../../../../src/memory/model.ts";
import { FieldCipher, isSealed } from "../../../../src/stores/sealed/cipher.ts";
import { SealedSessionStore } from "../../../../src/stores/sealed/sealed-session-store.ts";
import { InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

const NOW = 1_800_000_000_000;
const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(11) }]);
const msg = (id: string, role: StoredMessage["role"], content: string): StoredMessage => ({
  id,
  role,
  content,
  tokens: 10,
  importance: 0.5,
  ts: NOW,
});

function stores() {
  const inner = new InMemorySessionStore(() => NOW);
  return { inner, sealed: new SealedSessionStore(inner, cipher) };
}

describe("the sealed session store", () => {
  it("stores message contents and the title sealed, ids, roles and counts clear, and reads them opened", async () => {
    const { inner, sealed } = stores();
    const messages = [msg("sys", "system", "Be brief"), msg("m1", "user", "I sail in Oslo")];
    await sealed.append(ref, messages, { ttlSeconds: 60, userId: "ada", title: "Sailing" });
    const stored = await inner.read(ref);
    expect([...stored.system, ...stored.window].every((m) => isSealed(m.content))).toBe(true);
    expect(stored.window.map((m) => [m.id, m.role, m.tokens])).toEqual([["m1", "user", 10]]);
    const read = await sealed.read(ref);
    expect(read.system).toEqual([messages[0]]);
    expect(read.window).toEqual([messages[1]]);
    expect(JSON.stringify(await inner.userSessions("acme", "ada", { offset: 0, limit: 10 }))).not.toContain("Sailing");
    expect((await sealed.userSessions("acme", "ada", { offset: 0, limit: 10 })).sessions[0]?.title).toBe("Sailing");
  });

  it("an append asking for the snapshot gets it opened", async () => {
    const { sealed } = stores();
    const result = await sealed.append(ref, [msg("m1", "user", "hello")], { ttlSeconds: 60, withSnapshot: true });
    expect(result.snapshot?.window.map((m) => m.content)).toEqual(["hello"]);
  });

  it("queues facts with sealed texts", async () => {
    const { inner, sealed } = stores();
    inner.users = new InMemoryUserStore();
    const fact = createFact("f1", { text: "Ada sails", type: "fact", importance: 0.5 }, NOW);
    await sealed.append(ref, [msg("m1", "user", "I sail")], { ttlSeconds: 60, userId: "ada", facts: [fact] });
    const queued = await inner.users.pendingFacts({ tenant: "acme", userId: "ada" }, 10);
    expect(queued.map((f) => f.id)).toEqual(["f1"]);
    expect(isSealed(queued[0]?.text ?? "")).toBe(true);
  });

  it("a retried turn answers with its recorded reply opened", async () => {
    const { sealed } = stores();
    const outcome = { id: "r1", content: "Hi Ada", finishReason: "stop", model: "m" };
    await sealed.append(ref, [msg("m1", "user", "hi")], { ttlSeconds: 60, turn: { key: "k1", outcome } });
    const retry = await sealed.append(ref, [msg("m1", "user", "hi")], { ttlSeconds: 60, turn: { key: "k1" } });
    expect(retry.outcome).toEqual(outcome);
  });

  it("commits a summary sealed and reads it opened", async () => {
    const { inner, sealed } = stores();
    await sealed.append(ref, [msg("m1", "user", "one"), msg("m2", "user", "two")], { ttlSeconds: 60 });
    const before = await sealed.read(ref);
    const summary: Summary = { text: "They counted", tokens: 3, version: 1, covered: 1, method: "llm", updatedAt: NOW, lastRatio: 0.5 };
    const outcome = await sealed.commitCompression(ref, {
      epoch: before.meta?.epoch ?? 0,
      expectedVersion: 0,
      prefixIds: ["m1"],
      summary,
      archiveLimit: 10,
      ttlSeconds: 60,
    });
    expect(outcome.committed).toBe(true);
    expect(isSealed((await inner.read(ref)).summary?.text ?? "")).toBe(true);
    expect((await sealed.read(ref)).summary?.text).toBe("They counted");
    const history = await sealed.history(ref, { offset: 0, limit: 10 });
    expect(history.archived.map((m) => m.content)).toEqual(["one"]);
    expect(history.summary?.text).toBe("They counted");
  });
});
