import { describe, expect, it } from "vitest";
import { configuredBodyLimit } from "../../../../src/http/middleware/body-limit.ts";
import { testHttp } from "../../../support/http-app.ts";

/** Posts `bytes` bytes to an app whose limit is `maxBodyBytes`; the route echoes the length it read. */
async function post(maxBodyBytes: number, bytes: number) {
  const http = testHttp({ config: { limits: { maxBodyBytes } } });
  http.app.use(configuredBodyLimit());
  http.app.post("/x", async (c) => c.json({ read: (await c.req.text()).length }));
  const res = await http.app.request("/x", { method: "POST", body: "a".repeat(bytes) });
  return { status: res.status, body: (await res.json()) as { read?: number; error?: { code: string; message: string } } };
}

describe("the body limit", () => {
  it("lets a body up to the configured size through", async () => {
    expect(await post(100, 100)).toEqual({ status: 200, body: { read: 100 } });
  });

  it("refuses a larger body with 413 payload_too_large, naming the limit", async () => {
    expect(await post(100, 101)).toEqual({
      status: 413,
      body: { error: { code: "payload_too_large", message: "request body exceeds 100 bytes" } },
    });
  });

  it("reads the limit of each request's own configuration", async () => {
    expect((await post(1000, 500)).status).toBe(200);
    expect((await post(10, 500)).status).toBe(413);
  });
});
