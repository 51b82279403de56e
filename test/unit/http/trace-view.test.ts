import { describe, expect, it } from "vitest";
import { beginTrace, inlineTrace } from "../../../src/http/trace-view.ts";
import type { Principal } from "../../../src/memory/access/index.ts";
import type { Trace } from "../../../src/memory/observe/index.ts";
import type { TraceCandidate } from "../../../src/memory/observe/trace.ts";
import { FULL_KEY, testHttp, tokenPrincipal } from "../../support/http-app.ts";

const candidate: TraceCandidate = {
  id: "f1",
  text: "Ada's card ends 4242",
  type: "fact",
  importance: 0.5,
  similarity: 0.8,
  relevance: 0.7,
  score: 0.71,
  gate: "pass",
  kept: true,
  reason: "injected",
};

const trace: Trace = {
  traceId: "tr1",
  kind: "context",
  sessionId: "s1",
  userId: "ada",
  requestId: "req1",
  at: 1,
  recall: { query: "card", mode: "hybrid", k: 5, topK: 20, minScore: 0.3, types: null, candidates: [candidate] },
  context: null,
  roundTrips: [],
  degraded: [],
};

/** The body a route returns with `inlineTrace`, for a request by `principal` whose observer holds `held`. */
async function inlineFor(principal: Principal, held: Trace | null) {
  const http = testHttp({ principal });
  http.inline.trace = held;
  http.app.get("/x", (c) => c.json(inlineTrace(c)));
  return (await (await http.app.request("/x")).json()) as { trace?: Trace };
}

describe("the inline trace", () => {
  it("nothing when the request did not ask for it", async () => {
    expect(await inlineFor(FULL_KEY, null)).toEqual({});
  });

  it("whole for a tenant key and for a token with the read scope", async () => {
    expect(await inlineFor(FULL_KEY, trace)).toEqual({ trace });
    expect(await inlineFor(tokenPrincipal("ada", ["read", "chat"]), trace)).toEqual({ trace });
  });

  it("without the fact texts for a token lacking the read scope; ids, scores and verdicts stay", async () => {
    const shown = await inlineFor(tokenPrincipal("ada", ["chat"]), trace);
    expect(JSON.stringify(shown)).not.toContain("4242");
    expect(shown.trace?.recall?.candidates).toEqual([{ ...candidate, text: "" }]);
    expect({ ...shown.trace, recall: null }).toEqual({ ...trace, recall: null });
  });

  it("a trace without a recall is shown as it is", async () => {
    const noRecall = { ...trace, recall: null };
    expect(await inlineFor(tokenPrincipal("ada", ["chat"]), noRecall)).toEqual({ trace: noRecall });
  });

  it("beginTrace starts the request's trace with its kind, session and whether to return it", async () => {
    const http = testHttp();
    http.app.get("/x", (c) => {
      beginTrace(c, "chat", { sessionId: "s1", userId: "ada" }, true);
      return c.text("ok");
    });
    await http.app.request("/x");
    expect(http.inline.begun).toEqual([["chat", { sessionId: "s1", userId: "ada" }, true]]);
  });
});
