import { describe, expect, it } from "vitest";
import { InvalidIdError } from "../../../src/stores/errors.ts";
import {
  assertId,
  auditKeys,
  contentIndexKey,
  eraseJobKey,
  eraseReceiptKey,
  KEY_PREFIX,
  learningKeys,
  luaKeyParts,
  observeKey,
  ownersKey,
  sessionKeys,
  tenantSessionsKey,
  tenantUserSets,
  userRecordKeys,
  userSessionsKey,
  userTracesKey,
} from "../../../src/stores/keys.ts";

const BAD_IDS = ["", "a:b", "a b", "-lead", "x".repeat(129), "a*", "a{b}"];

describe("Redis keys", () => {
  it("assertId returns a valid id and throws InvalidIdError naming the kind otherwise", () => {
    expect(assertId("tenant", "acme.eu-1")).toBe("acme.eu-1");
    expect(() => assertId("tenant", 42)).toThrow(InvalidIdError);
    expect(() => assertId("sessionId", "a:b")).toThrow(/sessionId/);
  });

  it("every session key sits under the tenant and session, one distinct key per part", () => {
    const keys = sessionKeys({ tenant: "acme", sessionId: "s1" });
    const values = Object.values(keys);
    expect(values).toHaveLength(10);
    expect(new Set(values).size).toBe(values.length);
    for (const key of values) expect(key.startsWith(`${KEY_PREFIX}:acme:s:s1:`)).toBe(true);
    expect(keys.meta).toBe("am:acme:s:s1:meta");
  });

  it("keeps two tenants' and two sessions' keys apart", () => {
    const a = sessionKeys({ tenant: "acme", sessionId: "s1" });
    expect(sessionKeys({ tenant: "globex", sessionId: "s1" }).win).not.toBe(a.win);
    expect(sessionKeys({ tenant: "acme", sessionId: "s2" }).win).not.toBe(a.win);
  });

  it.each(BAD_IDS)("refuses the id %j wherever it is used", (bad) => {
    expect(() => sessionKeys({ tenant: bad, sessionId: "s1" })).toThrow(InvalidIdError);
    expect(() => sessionKeys({ tenant: "acme", sessionId: bad })).toThrow(InvalidIdError);
    expect(() => tenantSessionsKey(bad)).toThrow(InvalidIdError);
    expect(() => ownersKey(bad)).toThrow(InvalidIdError);
    expect(() => observeKey(bad, "x")).toThrow(InvalidIdError);
    expect(() => auditKeys(bad, 1)).toThrow(InvalidIdError);
    for (const perUser of [userSessionsKey, userRecordKeys, eraseJobKey, eraseReceiptKey, userTracesKey, contentIndexKey, learningKeys]) {
      expect(() => perUser("acme", bad)).toThrow(InvalidIdError);
      expect(() => perUser(bad, "ada")).toThrow(InvalidIdError);
    }
  });

  it("the user's records share the tenant sets the cron reads", () => {
    const records = userRecordKeys("acme", "ada");
    expect(records).toMatchObject(tenantUserSets("acme"));
    expect(records.pending).toBe("am:acme:u:ada:pending");
    expect(new Set(Object.values(records)).size).toBe(5);
  });

  it("the Lua key parts rebuild the keys built here", () => {
    const parts = luaKeyParts("acme");
    expect(`${parts.userPrefix}ada${parts.userSuffix}`).toBe(userSessionsKey("acme", "ada"));
    expect(`${parts.sessionPrefix}s1${parts.metaSuffix}`).toBe(sessionKeys({ tenant: "acme", sessionId: "s1" }).meta);
  });

  it("observability keys live under obs, and a user's trace list among them", () => {
    expect(observeKey("acme", "t", "42")).toBe("am:acme:obs:t:42");
    expect(userTracesKey("acme", "ada")).toBe(observeKey("acme", "tru", "ada"));
  });

  it("the audit throttle counts per whole minute and subject", () => {
    const keys = auditKeys("acme", 12.9, "abc");
    expect(keys.throttle).toBe("am:acme:audit:throttle:12:abc");
    expect(keys.security).toBe("am:acme:audit");
    expect(keys.activity).toBe("am:acme:audit:activity");
    expect(auditKeys("acme", 13, "abc").throttle).not.toBe(keys.throttle);
  });

  it("per-user keys never collide with one another or with the user's session index", () => {
    const keys = [
      userSessionsKey("acme", "ada"),
      ...Object.values(userRecordKeys("acme", "ada")),
      eraseJobKey("acme", "ada"),
      eraseReceiptKey("acme", "ada"),
      contentIndexKey("acme", "ada"),
      ...Object.values(learningKeys("acme", "ada")),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
