import { describe, expect, it } from "vitest";
import { ApiError, serviceUnavailable } from "../../../src/http/errors.ts";

describe("API errors", () => {
  it("render as {error: {code, message}}, with details only when given", () => {
    expect(new ApiError(404, "not_found", "no such session").toJSON()).toEqual({
      error: { code: "not_found", message: "no such session" },
    });
    expect(new ApiError(400, "validation_failed", "bad", { details: [{ path: "k" }] }).toJSON()).toEqual({
      error: { code: "validation_failed", message: "bad", details: [{ path: "k" }] },
    });
  });

  it("keep their status, headers and cause", () => {
    const cause = new Error("root");
    const err = new ApiError(429, "rate_limited", "slow down", { headers: { "retry-after": "3" }, cause });
    expect([err.status, err.headers, err.cause, err.category]).toEqual([429, { "retry-after": "3" }, cause, "http"]);
    expect(new ApiError(500, "internal", "x").headers).toEqual({});
  });

  it("every 503 carries Retry-After", () => {
    const err = serviceUnavailable("upstream_unavailable", "redis is down", 7);
    expect([err.status, err.code, err.headers["retry-after"]]).toEqual([503, "upstream_unavailable", "7"]);
  });
});
