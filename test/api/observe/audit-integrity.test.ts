import { describe, expect, it } from "vitest";
import { AUDIT_FAILURES_PER_MINUTE } from "../../../src/memory/observe/audit.ts";
import { call, uniqueId } from "../support/helpers.ts";

/**
 * A token cannot rotate or blind the audit log: security events (erase receipts, exports, mints,
 * refusals) live apart from the high-volume writes a write token may repeat at will, and refusals
 * are throttled per credential, so one caller's flood cannot use up another's.
 */

const SECRET = "test-token-secret-0123456789abcdef";

interface Entry {
  action: string;
  actor: { kind: string; id?: string };
  target: Record<string, string>;
  details?: Record<string, unknown>;
}

function tenant() {
  const name = uniqueId("integrity");
  const key = uniqueId("integrity-key");
  const reader = uniqueId("integrity-read");
  const env = {
    TOKEN_SECRET: SECRET,
    API_KEYS: `acme:acme-key,${name}:${key},${name}:${reader}:read`,
    FACT_EXTRACTION: "off",
    AUDIT_MAX_ENTRIES: "100",
  };
  const as = (k: string = key, body?: unknown) => ({ key: k, env, body });
  const log = async (): Promise<Entry[]> => {
    const res = await call<{ entries: Entry[] }>("GET", "/v1/audit?limit=1000", as());
    expect(res.status, res.text).toBe(200);
    return res.json.entries;
  };
  return { name, key, reader, env, as, log };
}

describe("the audit log under a token's flood", () => {
  it("110 fact edits by a write token do not push an erase receipt out of a 100-entry log", async () => {
    const t = tenant();
    const gone = uniqueId("gone");
    await call("POST", `/v1/users/${gone}/facts`, t.as(t.key, { text: "to be erased" }));
    const erased = await call<{ receiptId: string }>("DELETE", `/v1/users/${gone}`, t.as());
    expect(erased.status, erased.text).toBe(200);

    const user = uniqueId("writer");
    const fact = await call<{ id: string }>("POST", `/v1/users/${user}/facts`, t.as(t.key, { text: "edit me" }));
    expect(fact.status, fact.text).toBe(201);
    const minted = await call<{ token: string }>("POST", "/v1/tokens", t.as(t.key, { userId: user, scopes: ["read", "write"] }));
    expect(minted.status, minted.text).toBe(201);
    for (let i = 0; i < 110; i++) {
      const res = await call(
        "PATCH",
        `/v1/users/${user}/facts/${fact.json.id}`,
        t.as(minted.json.token, { importance: (i % 9) / 10 + 0.1 }),
      );
      expect(res.status, res.text).toBe(200);
    }
    const entries = await t.log();
    expect(entries.filter((e) => e.action === "fact.update").length).toBeGreaterThanOrEqual(100);
    expect(entries.find((e) => e.action === "user.erase" && e.target.userId === gone)?.details).toMatchObject({
      receiptId: erased.json.receiptId,
    });
  });

  it("a token's refusals use up its own allowance only: another credential's refused erase is still recorded", async () => {
    const t = tenant();
    const user = uniqueId("flooder");
    const minted = await call<{ token: string; tokenId: string }>("POST", "/v1/tokens", t.as(t.key, { userId: user }));
    for (let i = 0; i < AUDIT_FAILURES_PER_MINUTE + 5; i++) {
      expect((await call("DELETE", `/v1/users/${user}`, t.as(minted.json.token))).status).toBe(403);
    }
    const victim = uniqueId("victim");
    expect((await call("DELETE", `/v1/users/${victim}`, t.as(t.reader))).status).toBe(403);
    const entries = await t.log();
    const byToken = entries.filter((e) => e.action === "access.denied" && e.actor.id === minted.json.tokenId).length;
    expect(byToken).toBeGreaterThan(0);
    expect(byToken).toBeLessThanOrEqual(2 * AUDIT_FAILURES_PER_MINUTE);
    expect(entries.filter((e) => e.action === "access.denied" && e.actor.kind === "key" && e.target.userId === victim)).toHaveLength(1);
  });
});
