import { describe, expect, it } from "vitest";
import { auditActor } from "../../../../src/memory/observe/audit.ts";

describe("auditActor", () => {
  it("names a key by its id, never more", () => {
    expect(auditActor({ kind: "key", tenant: "acme", keyId: "k1", role: "full" })).toEqual({ kind: "key", id: "k1" });
  });

  it("names a token by its id and its user", () => {
    const actor = auditActor({ kind: "token", tenant: "acme", tokenId: "t1", userId: "u1", sessionId: "s1", scopes: ["read"] });
    expect(actor).toEqual({ kind: "token", id: "t1", userId: "u1" });
  });

  it("is anonymous without a principal", () => {
    expect(auditActor(null)).toEqual({ kind: "anonymous" });
  });
});
