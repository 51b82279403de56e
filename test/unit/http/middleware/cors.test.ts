import { describe, expect, it } from "vitest";
import { corsMiddleware } from "../../../../src/http/middleware/cors.ts";
import { testHttp } from "../../../support/http-app.ts";

const APP_ORIGIN = "https://app.example";

function appWith(corsOrigins: string[]) {
  const http = testHttp({ config: { corsOrigins } });
  http.app.use(corsMiddleware());
  // stands in for authentication: a preflight must be answered before it
  http.app.use(async (c, next) => (c.req.header("authorization") ? next() : c.json({ error: "unauthorized" }, 401)));
  http.app.get("/v1/x", (c) => c.json({ ok: true }, 200, { "x-memory-session": "s1" }));
  return http.app;
}

const preflight = (origin: string) => ({
  method: "OPTIONS",
  headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,x-memory-session" },
});

describe("CORS", () => {
  it("answers a preflight from a configured origin before authentication", async () => {
    const res = await appWith([APP_ORIGIN]).request("/v1/x", preflight(APP_ORIGIN));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(res.headers.get("access-control-allow-methods")?.split(",")).toContain("DELETE");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase().split(",")).toEqual(
      expect.arrayContaining(["authorization", "x-memory-session", "x-memory-user", "idempotency-key"]),
    );
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("lets a browser read the memory and rate-limit headers of a response", async () => {
    const res = await appWith([APP_ORIGIN]).request("/v1/x", { headers: { origin: APP_ORIGIN, authorization: "Bearer k" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(res.headers.get("access-control-expose-headers")?.toLowerCase().split(",")).toEqual(
      expect.arrayContaining(["x-memory-session", "x-memory-recalled", "retry-after", "ratelimit-remaining"]),
    );
  });

  it("grants no other origin", async () => {
    const res = await appWith([APP_ORIGIN]).request("/v1/x", preflight("https://evil.example"));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a * in the list allows every origin", async () => {
    const res = await appWith(["*"]).request("/v1/x", preflight("https://other.example"));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("without origins configured adds nothing: a preflight goes on to authentication", async () => {
    const res = await appWith([]).request("/v1/x", preflight(APP_ORIGIN));
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});
