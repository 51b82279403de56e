import { describe, expect, it } from "vitest";
import { actingUser } from "../../../src/http/acting-user.ts";
import type { Principal } from "../../../src/memory/access/index.ts";
import { FULL_KEY, testHttp, tokenPrincipal } from "../../support/http-app.ts";

/** What `actingUser` decides for a request by `principal` naming `named` (and `alias`): status and body. */
async function decide(principal: Principal, named: string | undefined, alias?: string) {
  const { app } = testHttp({ principal });
  let aliasAsked = false;
  app.get("/x", (c) =>
    c.json({
      userId:
        actingUser(c, named, () => {
          aliasAsked = true;
          return alias;
        }) ?? null,
    }),
  );
  const res = await app.request("/x");
  return { status: res.status, body: (await res.json()) as { userId?: string | null; error?: { code: string } }, aliasAsked };
}

describe("the acting user", () => {
  it("a tenant key acts for the user the request names, else its alias, else none", async () => {
    expect((await decide(FULL_KEY, "ada", "bob")).body.userId).toBe("ada");
    expect((await decide(FULL_KEY, undefined, "bob")).body.userId).toBe("bob");
    expect((await decide(FULL_KEY, undefined)).body.userId).toBeNull();
  });

  it("the named user wins over the alias, which is then not even read", async () => {
    expect((await decide(FULL_KEY, "ada", "bob")).aliasAsked).toBe(false);
  });

  it("a token acts for its own user, named or not", async () => {
    expect((await decide(tokenPrincipal("ada"), "ada")).body.userId).toBe("ada");
    expect((await decide(tokenPrincipal("ada"), undefined)).body.userId).toBe("ada");
  });

  it("a token ignores the alias (a weaker name only tenant keys go by)", async () => {
    const decided = await decide(tokenPrincipal("ada"), undefined, "bob");
    expect(decided.body.userId).toBe("ada");
    expect(decided.aliasAsked).toBe(false);
  });

  it("a token naming another user is refused with 403 forbidden", async () => {
    const decided = await decide(tokenPrincipal("ada"), "bob");
    expect(decided.status).toBe(403);
    expect(decided.body.error?.code).toBe("forbidden");
  });
});
