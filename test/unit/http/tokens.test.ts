import { describe, expect, it } from "vitest";
import { checkToken, looksLikeToken, signToken } from "../../../src/http/tokens.ts";
import { tokenClaims } from "../../../src/memory/access/index.ts";

const SECRET = "a-test-secret-of-enough-length-000";
const NOW = 1_800_000_000_000;
const claims = tokenClaims("acme", { userId: "ada", scopes: ["chat"], ttlSeconds: 60 }, "tok1", NOW);

describe("user tokens", () => {
  it("a signed token verifies before its expiry, with the principal it names", async () => {
    const token = await signToken(claims, SECRET);
    expect(looksLikeToken(token)).toBe(true);
    expect(await checkToken(token, SECRET, NOW + 59_000)).toEqual({
      ok: true,
      principal: { kind: "token", tenant: "acme", tokenId: "tok1", userId: "ada", sessionId: null, scopes: ["chat"] },
    });
  });

  it("an expired token is told apart from a forged one, and still names its tenant", async () => {
    const token = await signToken(claims, SECRET);
    const expired = await checkToken(token, SECRET, NOW + 60_000);
    expect(expired).toMatchObject({ ok: false, reason: "expired", principal: { tenant: "acme", userId: "ada" } });
    expect(await checkToken(token, "another-secret-of-enough-length-00", NOW)).toEqual({ ok: false, reason: "invalid", principal: null });
  });

  it("a token whose payload was changed no longer verifies", async () => {
    const [head, , signature] = (await signToken(claims, SECRET)).split(".");
    const otherPayload = (await signToken({ ...claims, sub: "bob" }, "x".repeat(32))).split(".")[1];
    expect(await checkToken(`${head}.${otherPayload}.${signature}`, SECRET, NOW)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("a well-signed token with claims that are not ours is invalid", async () => {
    for (const bad of [
      { ...claims, iss: "someone-else" },
      { ...claims, sub: "not an id" },
      { ...claims, scp: ["admin"] },
    ]) {
      expect(await checkToken(await signToken(bad as typeof claims, SECRET), SECRET, NOW)).toEqual({
        ok: false,
        reason: "invalid",
        principal: null,
      });
    }
  });

  it("a token without an expiry counts as expired", async () => {
    const { exp: _exp, ...noExpiry } = claims;
    expect(await checkToken(await signToken(noExpiry as typeof claims, SECRET), SECRET, NOW)).toMatchObject({ reason: "expired" });
  });

  it("looksLikeToken tells a JWT's shape from an API key", () => {
    expect(looksLikeToken("acme-key")).toBe(false);
    expect(looksLikeToken("a.b")).toBe(false);
    expect(looksLikeToken("a.b.c.d")).toBe(false);
    expect(looksLikeToken("a.b=.c")).toBe(false);
    expect(looksLikeToken("a-1.b_2.c3")).toBe(true);
  });
});
