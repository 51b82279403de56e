import { describe, expect, it } from "vitest";
import { decideAccess, decideSessionOwner, type OperationClass, type Principal } from "../../../../src/memory/access/rules.ts";

const userToken: Principal = {
  kind: "token",
  tenant: "acme",
  tokenId: "tk_u",
  userId: "ana",
  sessionId: null,
  scopes: ["read", "write", "chat"],
};
const boundToken: Principal = { ...userToken, tokenId: "tk_b", sessionId: "s1" };
const full: Principal = { kind: "key", tenant: "acme", keyId: "k_1", role: "full" };

const read: OperationClass = { need: "read", target: "session" };
const write: OperationClass = { need: "write", target: "session" };
const chat: OperationClass = { need: "chat", target: "session" };

/** Both rules, as the access guard applies them. */
function decide(principal: Principal, op: OperationClass, sessionId: string, session: { exists: boolean; owner: string | null }) {
  const access = decideAccess(principal, op, { sessionId });
  return access.allowed ? decideSessionOwner(principal, session.owner, { exists: session.exists, op }) : access;
}

describe("a user token (bound to no session)", () => {
  it("reaches every session its user owns, for every operation its scopes allow", () => {
    for (const op of [read, write, chat]) {
      expect(decide(userToken, op, "s1", { exists: true, owner: "ana" }).allowed).toBe(true);
      expect(decide(userToken, op, "s2", { exists: true, owner: "ana" }).allowed).toBe(true);
    }
  });

  it("never reaches another user's session", () => {
    for (const op of [read, write, chat]) {
      expect(decide(userToken, op, "s9", { exists: true, owner: "bob" })).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/another user/),
      });
    }
  });

  it("starts a new session only with a chat turn, and never takes over one nobody owns", () => {
    expect(decide(userToken, chat, "new", { exists: false, owner: null }).allowed).toBe(true);
    expect(decide(userToken, read, "new", { exists: false, owner: null }).allowed).toBe(false);
    expect(decide(userToken, write, "new", { exists: false, owner: null }).allowed).toBe(false);
    for (const op of [read, write, chat]) expect(decide(userToken, op, "anon", { exists: true, owner: null }).allowed).toBe(false);
    // Without knowing whether the session exists, an ownerless one is refused.
    expect(decideSessionOwner(userToken, null).allowed).toBe(false);
  });

  it("still needs a session named on session routes", () => {
    expect(decideAccess(userToken, read, {}).allowed).toBe(false);
  });
});

describe("the refusals that stay", () => {
  it("a bound token reaches only its session, owned by its user or by nobody", () => {
    expect(decide(boundToken, read, "s1", { exists: true, owner: "ana" }).allowed).toBe(true);
    expect(decide(boundToken, read, "s1", { exists: true, owner: null }).allowed).toBe(true);
    expect(decide(boundToken, read, "s2", { exists: true, owner: "ana" })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/another session/),
    });
    expect(decide(boundToken, read, "s1", { exists: true, owner: "bob" }).allowed).toBe(false);
  });

  it("a token's scopes still limit it, and keys reach every session", () => {
    const reader: Principal = { ...userToken, scopes: ["read"] };
    expect(decide(reader, write, "s1", { exists: true, owner: "ana" }).allowed).toBe(false);
    expect(decide(full, write, "s1", { exists: true, owner: "bob" }).allowed).toBe(true);
  });
});
