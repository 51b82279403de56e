import { describe, expect, it } from "vitest";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { FieldCipher } from "../../../../src/stores/sealed/cipher.ts";
import * as fields from "../../../../src/stores/sealed/fields.ts";
import { SealedUserStore } from "../../../../src/stores/sealed/sealed-user-store.ts";
import { InMemoryUserStore } from "../../../support/fakes/facts.ts";

const scope = { tenant: "acme", userId: "ada" };
const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(5) }]);
const fact = (id: string, text: string): Fact => createFact(id, { text, type: "fact", importance: 0.5 }, 1);

/** A user store whose queue holds `facts` sealed, as the sealed session store's append leaves them. */
async function queued(...facts: Fact[]) {
  const inner = new InMemoryUserStore();
  const { seal } = fields.codecsFor(cipher, scope.tenant);
  inner.queue(scope, await Promise.all(facts.map((f) => fields.fact(f, seal))));
  return { inner, sealed: new SealedUserStore(inner, cipher) };
}

describe("the sealed user store", () => {
  it("reads queued facts opened", async () => {
    const { sealed } = await queued(fact("f1", "Ada sails"), fact("f2", "Ada rows"));
    expect(await sealed.pendingFacts(scope, 10)).toEqual([fact("f1", "Ada sails"), fact("f2", "Ada rows")]);
  });

  it("confirms a fact read through it by the sealed form it was stored in", async () => {
    const { inner, sealed } = await queued(fact("f1", "Ada sails"), fact("f2", "Ada rows"));
    const [first] = await sealed.pendingFacts(scope, 10);
    expect(first).toBeDefined();
    await sealed.confirmFacts(scope, first ? [first] : []);
    expect((await inner.pendingFacts(scope, 10)).map((f) => f.id)).toEqual(["f2"]);
  });

  it("leaves queued a fact it did not read, even one equal to a stored fact", async () => {
    const { inner, sealed } = await queued(fact("f1", "Ada sails"));
    await sealed.pendingFacts(scope, 10);
    await sealed.confirmFacts(scope, [fact("f1", "Ada sails")]);
    expect(await inner.pendingFacts(scope, 10)).toHaveLength(1);
  });

  it("passes the erase tombstone through", async () => {
    const { sealed } = await queued(fact("f1", "Ada sails"));
    await sealed.markErased(scope, 42);
    expect(await sealed.erasedAt(scope)).toBe(42);
    expect(await sealed.pendingFacts(scope, 10)).toEqual([]);
  });
});
