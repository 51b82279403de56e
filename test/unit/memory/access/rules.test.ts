import { describe, expect, it } from "vitest";
import {
  actingUserOf,
  decideAccess,
  decideSessionOwner,
  MAX_TOKEN_TTL_SECONDS,
  tokenClaims,
  tokenPrincipal,
  type OperationClass,
  type Principal,
} from "../../../../src/memory/access/rules.ts";
import { isValidId } from "../../../../src/memory/ids.ts";
import { ConfigError, parseConfig } from "../../../../src/worker/config/parse.ts";

const full: Principal = { kind: "key", tenant: "acme", keyId: "k_1", role: "full" };
const reader: Principal = { kind: "key", tenant: "acme", keyId: "k_2", role: "read" };
const token = (over: Partial<Extract<Principal, { kind: "token" }>> = {}): Principal => ({
  kind: "token",
  tenant: "acme",
  tokenId: "tk_1",
  userId: "ana",
  sessionId: "s1",
  scopes: ["read", "write", "chat"],
  ...over,
});

const sessionRead: OperationClass = { need: "read", target: "session" };
const userWrite: OperationClass = { need: "write", target: "user" };
const erase: OperationClass = { need: "tenant", write: true };
const audit: OperationClass = { need: "tenant", write: false };

describe("decideAccess", () => {
  it("a full key may do everything, classified or not", () => {
    for (const op of [sessionRead, userWrite, erase, audit, null]) expect(decideAccess(full, op, {}).allowed).toBe(true);
  });

  it("a read key reads (tenant reads included) and never writes; unclassified routes by method", () => {
    expect(decideAccess(reader, sessionRead, {}).allowed).toBe(true);
    expect(decideAccess(reader, audit, {}).allowed).toBe(true);
    expect(decideAccess(reader, userWrite, {}).allowed).toBe(false);
    expect(decideAccess(reader, erase, {}).allowed).toBe(false);
    expect(decideAccess(reader, { need: "chat", target: "session" }, {}).allowed).toBe(false);
    expect(decideAccess(reader, null, {}, true).allowed).toBe(true);
    expect(decideAccess(reader, null, {}, false).allowed).toBe(false);
  });

  it("a token reaches its own user and session only, within its scopes, and never tenant or unclassified routes", () => {
    expect(decideAccess(token(), sessionRead, { sessionId: "s1" }).allowed).toBe(true);
    expect(decideAccess(token(), sessionRead, { sessionId: "s2" }).allowed).toBe(false);
    expect(decideAccess(token(), sessionRead, { sessionId: "s1", userId: "bob" }).allowed).toBe(false);
    // A user token may name a session of its choice; the owner rule decides (see decideSessionOwner).
    expect(decideAccess(token({ sessionId: null }), sessionRead, { sessionId: "s1" }).allowed).toBe(true);
    expect(decideAccess(token({ sessionId: null }), sessionRead, {}).allowed).toBe(false);
    expect(decideAccess(token({ sessionId: null }), userWrite, { userId: "ana" }).allowed).toBe(true);
    expect(decideAccess(token(), userWrite, { userId: "bob" }).allowed).toBe(false);
    expect(decideAccess(token({ scopes: ["read"] }), userWrite, { userId: "ana" })).toMatchObject({
      allowed: false,
      reason: expect.stringContaining("write"),
    });
    for (const op of [erase, audit, null]) expect(decideAccess(token(), op, { userId: "ana" }, true).allowed).toBe(false);
  });
});

describe("actingUserOf", () => {
  it("a token acts for its own user whatever is named; a key for what it names", () => {
    expect(actingUserOf(token(), undefined)).toEqual({ userId: "ana" });
    expect(actingUserOf(token(), "ana")).toEqual({ userId: "ana" });
    expect(actingUserOf(token(), "bob")).toMatchObject({ refused: expect.stringMatching(/another user/) });
    expect(actingUserOf(full, "bob")).toEqual({ userId: "bob" });
    expect(actingUserOf(full, undefined)).toEqual({ userId: undefined });
  });
});

describe("decideSessionOwner", () => {
  it("a token reaches a session nobody else owns; keys reach every session", () => {
    expect(decideSessionOwner(token(), null)).toEqual({ allowed: true });
    expect(decideSessionOwner(token(), "ana")).toEqual({ allowed: true });
    expect(decideSessionOwner(token(), "bob")).toMatchObject({ allowed: false, reason: expect.stringMatching(/another user/) });
    expect(decideSessionOwner(full, "bob")).toEqual({ allowed: true });
    expect(decideSessionOwner(reader, "bob")).toEqual({ allowed: true });
  });
});

describe("token claims", () => {
  it("are capped at 24 h, default to every scope, and round-trip into a principal", () => {
    const claims = tokenClaims(
      "acme",
      { userId: "ana", sessionId: "s1", ttlSeconds: 10 * MAX_TOKEN_TTL_SECONDS },
      "tk_9",
      1_800_000_000_000,
    );
    expect(claims.exp - claims.iat).toBe(MAX_TOKEN_TTL_SECONDS);
    expect(claims.scp).toEqual(["read", "write", "chat"]);
    expect(tokenPrincipal(claims, isValidId)).toEqual(token({ tokenId: "tk_9" }));
    expect(tokenPrincipal({ ...claims, ten: "a:b" }, isValidId)).toBeNull();
    expect(tokenPrincipal({ ...claims, scp: ["admin"] }, isValidId)).toBeNull();
    expect(tokenPrincipal({ ...claims, iss: "someone" }, isValidId)).toBeNull();
  });
});

describe("access configuration", () => {
  it("parses key roles, origins, the token secret and the rate limit", () => {
    const config = parseConfig({
      API_KEYS: "acme:full-key,acme:dash-key:read",
      CORS_ORIGINS: "https://app.example, http://127.0.0.1:5173",
      TOKEN_SECRET: "x".repeat(32),
      RATE_LIMIT: "600/60s",
    });
    expect(config.apiKeys).toEqual([
      { tenant: "acme", key: "full-key", role: "full" },
      { tenant: "acme", key: "dash-key", role: "read" },
    ]);
    expect(config.corsOrigins).toEqual(["https://app.example", "http://127.0.0.1:5173"]);
    expect(config.rateLimit).toEqual({ requests: 600, windowMs: 60_000 });
    expect(config.auditMaxEntries).toBe(10_000);
    expect(parseConfig({}).rateLimit).toBeNull();
  });

  it("names every bad value", () => {
    let problems: string[] = [];
    try {
      parseConfig({ TOKEN_SECRET: "short", RATE_LIMIT: "lots", CORS_ORIGINS: "app.example/path" });
    } catch (err) {
      problems = err instanceof ConfigError ? err.problems : [];
    }
    expect(problems.join("\n")).toMatch(/TOKEN_SECRET/);
    expect(problems.join("\n")).toMatch(/RATE_LIMIT/);
    expect(problems.join("\n")).toMatch(/CORS_ORIGINS/);
  });
});
