import { afterEach, describe, expect, it } from "vitest";
import { call, clearFault, injectFault } from "../support/helpers.ts";

describe("GET /healthz", () => {
  afterEach(async () => {
    await clearFault("redis");
    await clearFault("vector");
  });

  it("reports both upstreams ok through the official clients", async () => {
    const res = await call("GET", "/healthz", { key: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, redis: "ok", vector: "ok" });
  });

  it("answers 503 and names the upstream that is down", async () => {
    await injectFault("vector", { mode: "error", count: 5 });
    const res = await call("GET", "/healthz", { key: null });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ ok: false, redis: "ok", vector: "down" });
    expect(res.headers.get("retry-after")).toBeTruthy();
  });

  it("reports an unconfigured upstream as not_configured with 503", async () => {
    const res = await call("GET", "/healthz", {
      key: null,
      env: { UPSTASH_VECTOR_REST_URL: undefined, UPSTASH_VECTOR_REST_TOKEN: undefined },
    });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ ok: false, vector: "not_configured" });
  });

  it("fails loudly with the list of problems when configuration is invalid", async () => {
    const res = await call("GET", "/healthz", { key: null, env: { MEMORY_MAX_TOKENS: "lots", EMBEDDINGS: "magic" } });
    expect(res.status).toBe(500);
    const body = res.json as { error: { code: string; details: string[] } };
    expect(body.error.code).toBe("config_invalid");
    expect(body.error.details.join(" ")).toMatch(/MEMORY_MAX_TOKENS/);
    expect(body.error.details.join(" ")).toMatch(/EMBEDDINGS/);
  });
});
