import { describe, expect, it } from "vitest";
import { matchRoute, routeMatch } from "../../../../src/http/middleware/route-match.ts";
import { testHttp } from "../../../support/http-app.ts";

const none = (): undefined => undefined;
const from =
  (values: Record<string, string>) =>
  (name: string): string | undefined =>
    values[name];

describe("route matching", () => {
  it("finds the defined route of a method and path, with the ids its path names", () => {
    const { route, target } = matchRoute("GET", "/v1/sessions/s1", none, none);
    expect(route).toMatchObject({ method: "GET", path: "/v1/sessions/{sessionId}" });
    expect(target).toEqual({ userId: undefined, sessionId: "s1" });
    expect(matchRoute("DELETE", "/v1/users/ada", none, none).target.userId).toBe("ada");
  });

  it("no route for an unknown path or a method the path does not take", () => {
    expect(matchRoute("GET", "/v1/nothing-here", none, none).route).toBeUndefined();
    expect(matchRoute("PATCH", "/v1/sessions/s1/compress", none, none).route).toBeUndefined();
  });

  it("decodes a percent-encoded id, and keeps one that does not decode", () => {
    expect(matchRoute("GET", "/v1/sessions/a%40b", none, none).target.sessionId).toBe("a@b");
    expect(matchRoute("GET", "/v1/sessions/a%E0b", none, none).target.sessionId).toBe("a%E0b");
  });

  it("the path names the ids first, then the userId query, then the X-Memory headers", () => {
    const headers = from({ "x-memory-user": "header-user", "x-memory-session": "header-session" });
    expect(matchRoute("GET", "/v1/sessions/s1", from({ userId: "query-user" }), headers).target).toEqual({
      userId: "query-user",
      sessionId: "s1",
    });
    expect(matchRoute("DELETE", "/v1/users/ada", from({ userId: "query-user" }), headers).target.userId).toBe("ada");
    expect(matchRoute("POST", "/v1/chat/completions", none, headers).target).toEqual({
      userId: "header-user",
      sessionId: "header-session",
    });
  });

  it("the middleware sets the route, the target and the session only when it is a valid id", async () => {
    const seen: unknown[] = [];
    const http = testHttp();
    http.app.use(routeMatch());
    http.app.all("*", (c) => {
      seen.push({ route: c.var.route?.path, target: c.var.target, session: c.var.session });
      return c.text("ok");
    });
    await http.app.request("/v1/sessions/s1");
    await http.app.request("/v1/sessions/not%20valid");
    expect(seen).toEqual([
      { route: "/v1/sessions/{sessionId}", target: { userId: undefined, sessionId: "s1" }, session: "s1" },
      { route: "/v1/sessions/{sessionId}", target: { userId: undefined, sessionId: "not valid" }, session: undefined },
    ]);
  });
});
