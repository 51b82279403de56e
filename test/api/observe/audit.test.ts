import { describe, expect, it } from "vitest";
import { AUDIT_FAILURES_PER_MINUTE } from "../../../src/memory/observe/audit.ts";
import { call, uniqueId } from "../support/helpers.ts";

const SECRET = "test-token-secret-0123456789abcdef";

interface Entry {
  id: string;
  ts: number;
  actor: { kind: string; id?: string; userId?: string };
  action: string;
  target: Record<string, string>;
  details?: Record<string, unknown>;
}

/** A tenant of its own per test, so its audit log holds only what the test did. */
function tenant() {
  const name = uniqueId("audit");
  const key = uniqueId("audit-key");
  const reader = uniqueId("audit-read");
  const env = { TOKEN_SECRET: SECRET, API_KEYS: `acme:acme-key,${name}:${key},${name}:${reader}:read`, FACT_EXTRACTION: "off" };
  const as = (k: string = key, init: { body?: unknown; headers?: Record<string, string> } = {}) => ({ ...init, key: k, env });
  const log = async (query = ""): Promise<{ entries: Entry[]; nextSince: number | null }> => {
    const res = await call<{ entries: Entry[]; nextSince: number | null }>("GET", `/v1/audit${query}`, as());
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  return { name, key, reader, env, as, log };
}

describe("the audit log", () => {
  it("records erase, export, token minting, fact edits and deletes and settings changes, naming who, what, when and which ids", async () => {
    const t = tenant();
    const user = uniqueId("u");
    const sid = uniqueId("s");
    const started = Date.now();
    const secretText = "my therapist is Dr. Lark, on Tuesdays";
    expect(
      (
        await call(
          "POST",
          `/v1/sessions/${sid}/messages`,
          t.as(t.key, { body: { userId: user, messages: [{ role: "user", content: secretText }] } }),
        )
      ).status,
    ).toBe(201);
    expect((await call("PUT", `/v1/sessions/${sid}`, t.as(t.key, { body: { maxTokens: 500 } }))).status).toBe(200);
    const fact = await call<{ id: string }>("POST", `/v1/users/${user}/facts`, t.as(t.key, { body: { text: secretText } }));
    expect(fact.status).toBe(201);
    expect(
      (await call("PATCH", `/v1/users/${user}/facts/${fact.json.id}`, t.as(t.key, { body: { text: "changed text, also private" } })))
        .status,
    ).toBe(200);
    expect((await call("DELETE", `/v1/users/${user}/facts/${fact.json.id}`, t.as())).status).toBe(200);
    const minted = await call<{ token: string; tokenId: string }>(
      "POST",
      "/v1/tokens",
      t.as(t.key, { body: { userId: user, sessionId: sid } }),
    );
    expect(minted.status).toBe(201);
    expect((await call("GET", `/v1/users/${user}/export`, t.as())).status).toBe(200);
    const erased = await call<{ receiptId: string }>("DELETE", `/v1/users/${user}`, t.as());
    expect(erased.status).toBe(200);

    const { entries } = await t.log();
    expect(entries.map((e) => e.action)).toEqual([
      "session.settings",
      "fact.update",
      "fact.delete",
      "token.mint",
      "user.export",
      "user.erase",
    ]);
    const keyActor = entries[0]!.actor;
    expect(keyActor).toMatchObject({ kind: "key" });
    expect(keyActor.id).toMatch(/^k_[0-9a-f]{12}$/);
    expect(entries.every((e) => e.actor.id === keyActor.id && e.ts >= started && e.ts <= Date.now())).toBe(true);
    expect(entries[0]!.target).toEqual({ sessionId: sid });
    expect(entries[0]!.details).toEqual({ fields: "maxTokens" });
    expect(entries[1]!.target).toEqual({ userId: user, factId: fact.json.id });
    expect(entries[3]!.target).toEqual({ userId: user, sessionId: sid, tokenId: minted.json.tokenId });
    expect(entries[5]!.details).toMatchObject({ receiptId: erased.json.receiptId, sessions: 1, messages: 1 });
    // Never contents, never a credential.
    const text = JSON.stringify(entries);
    for (const secret of [secretText, "changed text", minted.json.token, t.key]) expect(text).not.toContain(secret);
  });

  it("records refusals with the token or key that was refused, and expired tokens as auth failures", async () => {
    const t = tenant();
    const user = uniqueId("u");
    const minted = await call<{ token: string; tokenId: string }>("POST", "/v1/tokens", t.as(t.key, { body: { userId: user } }));
    expect((await call("DELETE", `/v1/users/${user}`, t.as(minted.json.token))).status).toBe(403);
    expect((await call("POST", `/v1/users/${user}/facts`, t.as(t.reader, { body: { text: "x" } }))).status).toBe(403);
    const { sign } = await import("hono/jwt");
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(
      { iss: "agent-memory", sub: user, ten: t.name, scp: ["read"], jti: "tk_old", iat: now - 7200, exp: now - 3600 },
      SECRET,
      "HS256",
    );
    expect((await call("GET", `/v1/users/${user}/facts`, t.as(expired))).status).toBe(401);

    const { entries } = await t.log();
    const denied = entries.filter((e) => e.action === "access.denied");
    expect(denied).toHaveLength(2);
    expect(denied[0]).toMatchObject({
      actor: { kind: "token", id: minted.json.tokenId, userId: user },
      target: { userId: user },
      details: { method: "DELETE" },
    });
    expect(denied[1]!.actor.kind).toBe("key");
    expect(entries.filter((e) => e.action === "auth.failed")).toEqual([
      expect.objectContaining({
        actor: { kind: "token", id: "tk_old", userId: user },
        details: expect.objectContaining({ reason: "expired" }),
      }),
    ]);
  });

  it("throttles auth failures so a flood cannot fill the log", async () => {
    const t = tenant();
    const { sign } = await import("hono/jwt");
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(
      { iss: "agent-memory", sub: "flood", ten: t.name, scp: ["read"], jti: "tk_flood", iat: now - 7200, exp: now - 3600 },
      SECRET,
      "HS256",
    );
    const flood = AUDIT_FAILURES_PER_MINUTE + 20;
    for (let i = 0; i < flood; i++) expect((await call("GET", "/v1/users/flood/facts", t.as(expired))).status).toBe(401);
    const { entries } = await t.log("?limit=1000");
    const failures = entries.filter((e) => e.action === "auth.failed").length;
    expect(failures).toBeGreaterThan(0);
    // At most the per-minute allowance (twice, when the flood straddles a minute).
    expect(failures).toBeLessThanOrEqual(2 * AUDIT_FAILURES_PER_MINUTE);
    expect(failures).toBeLessThan(flood);
  });

  it("pages with since and limit, oldest first", async () => {
    const t = tenant();
    const sid = uniqueId("s");
    for (let i = 0; i < 5; i++) expect((await call("PUT", `/v1/sessions/${sid}`, t.as(t.key, { body: { keep: i + 1 } }))).status).toBe(200);
    const first = await t.log("?limit=2");
    expect(first.entries.length).toBeGreaterThanOrEqual(2);
    expect(first.nextSince).toBe(first.entries.at(-1)!.ts);
    const ids = first.entries.map((e) => e.id);
    let since = first.nextSince;
    while (since !== null) {
      const page = await t.log(`?since=${since}&limit=2`);
      ids.push(...page.entries.map((e) => e.id));
      since = page.nextSince;
    }
    expect(new Set(ids).size).toBe(5);
    expect(ids).toHaveLength(5);
    expect((await call("GET", "/v1/audit?limit=0", t.as())).status).toBe(400);
    // Read keys may read it (contents-free); tokens may not (see access-tokens.test.ts).
    expect((await call("GET", "/v1/audit", t.as(t.reader))).status).toBe(200);
    // Another tenant sees none of it.
    const other = await call<{ entries: Entry[] }>("GET", `/v1/audit`, { key: "acme-key", env: t.env });
    expect(other.json.entries.some((e) => e.target.sessionId === sid)).toBe(false);
  });
});
