import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";
import { call } from "../support/helpers.ts";

// The API reference's "try it" comes with the dev key filled in on the dev stack (a loopback
// address with the dev key configured) and never anywhere else; its examples do not collide with
// the README tour's session.

async function docsPage(origin: string, apiKeys: string): Promise<string> {
  const ctx = createExecutionContext();
  const bindings = { ...(env as unknown as Record<string, unknown>), API_KEYS: apiKeys } as unknown as Bindings;
  const res = await worker.fetch(new Request(`${origin}/docs`) as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return res.text();
}

describe("the reference's try it", () => {
  it("has the dev key on the dev stack", async () => {
    for (const origin of ["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787"]) {
      expect(await docsPage(origin, "dev:dev-key"), origin).toContain('"token": "dev-key"');
    }
  });

  it("has no key anywhere else: another host, or other keys", async () => {
    expect(await docsPage("https://agent-memory.example.workers.dev", "dev:dev-key")).not.toContain("dev-key");
    expect(await docsPage("http://localhost:8787", "acme:acme-key")).not.toContain('"token"');
    expect(await docsPage("https://memory.example.com", "acme:acme-key")).not.toMatch(/"token"|acme-key/);
  });

  it("its examples use a session of their own, not the README tour's demo", async () => {
    const doc = (await call<{ paths: Record<string, unknown> }>("GET", "/openapi.json")).json;
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"example":"demo"');
    expect(text).toContain('"example":"reference-demo"');
  });
});
