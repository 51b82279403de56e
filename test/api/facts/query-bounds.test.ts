import { describe, expect, it } from "vitest";
import { MAX_AUDIT_PAGE } from "../../../src/memory/observe/audit.ts";
import { RECENT_TRACES_KEPT } from "../../../src/memory/observe/queries.ts";
import { MAX_SESSIONS_PER_PAGE } from "../../../src/memory/sessions/session-list.ts";
import { NOTES_PAGE_LIMIT } from "../../../src/memory/sessions/working-memory.ts";
import { call, clearLog, upstreamLog } from "../support/helpers.ts";
import { expectJsonError } from "../support/sessions.ts";

/**
 * An integer query parameter out of its bounds, or not an integer, answers the whole rule
 * ("limit must be an integer from 1 to 1000"); a parameter given twice says so. Nothing upstream
 * is touched.
 */

/** [path without query, parameter, lowest, highest] of every integer query parameter of a listing. */
const BOUNDED: [string, string, number, number][] = [
  ["/v1/users/qb-user/facts", "limit", 1, 1000],
  ["/v1/users/qb-user/facts?query=home", "k", 1, 50],
  ["/v1/users/qb-user/sessions", "limit", 1, MAX_SESSIONS_PER_PAGE],
  ["/v1/sessions/qb-session", "limit", 1, 1000],
  ["/v1/sessions/qb-session", "offset", 0, 10_000_000],
  ["/v1/sessions/qb-session/history", "limit", 1, 1000],
  ["/v1/sessions/qb-session/history", "offset", 0, 1_000_000],
  ["/v1/sessions/qb-session/notes", "limit", 1, NOTES_PAGE_LIMIT],
  ["/v1/sessions/qb-session/traces", "limit", 1, RECENT_TRACES_KEPT],
  ["/v1/sessions/qb-session/context", "k", 0, 50],
  ["/v1/audit", "limit", 1, MAX_AUDIT_PAGE],
];

const withParam = (path: string, name: string, value: string): string =>
  `${path}${path.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;

describe("integer query parameters", () => {
  it("answer the whole rule below, above and beside their bounds, touching no upstream", async () => {
    for (const [path, name, min, max] of BOUNDED) {
      for (const value of [String(min - 1), String(max + 1), "1.5", "ten", "99999999999999999999999"]) {
        await clearLog("redis");
        await clearLog("vector");
        const url = withParam(path, name, value);
        const res = await call("GET", url);
        const body = expectJsonError(res, 400);
        expect(body.error.message, url).toBe(`invalid query: ${name} must be an integer from ${min} to ${max}`);
        expect(body.error.details, url).toEqual([{ path: name, message: `must be an integer from ${min} to ${max}` }]);
        expect(await upstreamLog("redis"), url).toEqual([]);
        expect(await upstreamLog("vector"), url).toEqual([]);
      }
      const edge = await call("GET", withParam(path, name, String(max)));
      expect(edge.status, `${path} ${name}=${max}: ${edge.text}`).not.toBe(400);
    }
  });

  it("given twice answer that it must be given once, whatever its type", async () => {
    const cases: [string, string][] = [
      ["/v1/users/qb-user/facts?limit=1&limit=2", "limit"],
      ["/v1/users/qb-user/facts?query=a&query=b", "query"],
      ["/v1/users/qb-user/facts?types=fact&types=preference", "types"],
      ["/v1/users/qb-user/facts?current=true&current=false", "current"],
      ["/v1/sessions/qb-session/history?offset=0&offset=1", "offset"],
    ];
    for (const [url, name] of cases) {
      const body = expectJsonError(await call("GET", url), 400);
      expect(body.error.message, url).toBe(`invalid query: ${name} must be given once`);
    }
  });
});
