import { describe, expect, it } from "vitest";
import { call, clearLog, upstreamLog } from "../support/helpers.ts";
import { expectJsonError } from "../support/sessions.ts";

// Every route refuses a query parameter it does not name (a typo or an unsupported filter would
// otherwise be silently ignored), before it reads or writes anything.

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

const SAMPLE: Record<string, string> = {
  sessionId: "qp-session",
  userId: "qp-user",
  factId: "f0123456789abcdef01234567",
  traceId: "t0",
  key: "note",
};

async function operations(): Promise<{ method: string; path: string; query: string[] }[]> {
  const doc = (await call<OpenApiDocument>("GET", "/openapi.json")).json;
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? "x"),
      query: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
    })),
  );
}

describe("unknown query parameters", () => {
  it("answer 400 naming the parameter on every route of the API document, touching no upstream", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(25);
    for (const op of ops) {
      await clearLog("vector");
      await clearLog("redis");
      const res = await call(op.method, `${op.path}?bogusParam=1`, op.method === "GET" || op.method === "DELETE" ? {} : { body: {} });
      const label = `${op.method} ${op.path}`;
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(expectJsonError(res, 400).error.message, label).toBe("invalid query: bogusParam is not a known parameter");
      expect(await upstreamLog("vector"), label).toEqual([]);
      expect(await upstreamLog("redis"), label).toEqual([]);
    }
  });

  it("name every unknown parameter in details, and accept the declared ones", async () => {
    const res = await call("GET", "/v1/sessions/qp-session/history?limt=5&ofset=2");
    const body = expectJsonError(res, 400);
    expect(body.error.details).toEqual([{ path: "limt, ofset", message: "are not known parameters" }]);
    expect((await call("GET", "/v1/sessions/qp-session/history?limit=5&offset=0")).status).not.toBe(400);
  });

  it("refuses a raw filter on the facts routes with what to use instead", async () => {
    const res = await call("GET", `/v1/users/qp-user/facts?filter=${encodeURIComponent("type = 'fact'")}`);
    expect(expectJsonError(res, 400).error.message).toMatch(/^invalid query: filter is not accepted: filter with type, agentId/);
  });
});
