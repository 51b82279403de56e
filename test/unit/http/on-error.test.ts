import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { ApiError, ToolInputError } from "../../../src/http/errors.ts";
import { toApiError } from "../../../src/http/on-error.ts";
import {
  AgentMemoryError,
  ConfigError,
  LlmError,
  MemoryError,
  StoredDataUnreadable,
  UpstreamUnavailable,
} from "../../../src/memory/errors.ts";
import { InvalidIdError, SessionOwnerMismatch, UnexpectedReply } from "../../../src/stores/errors.ts";

// Every error the service throws on purpose shares one root, and the HTTP mapping reads its
// category: the status, code, details and Retry-After each one answers with.

const answer = (err: unknown) => {
  const api = toApiError(err);
  return { status: api.status, ...api.toJSON().error, retryAfter: api.headers["retry-after"] };
};

describe("the error hierarchy", () => {
  it("has one root for every layer's errors", () => {
    const errors = [
      new MemoryError("conflict", "x"),
      new UpstreamUnavailable("redis", "x"),
      new LlmError("timeout", "x"),
      new StoredDataUnreadable("encryption_key_missing", "x"),
      new ConfigError(["A must be set"]),
      new SessionOwnerMismatch(),
      new UnexpectedReply("append"),
      new ApiError(400, "bad_request", "x"),
      new ToolInputError("x"),
    ];
    expect(errors.filter((e) => !(e instanceof AgentMemoryError))).toEqual([]);
    expect(new Set(errors.map((e) => e.category))).toEqual(
      new Set(["refused", "unavailable", "llm", "unreadable", "config", "unexpected_reply", "http", "tool_input"]),
    );
  });

  it("maps refusals by kind, subclasses included", () => {
    expect(answer(new SessionOwnerMismatch())).toMatchObject({ status: 409, code: "conflict" });
    expect(answer(new InvalidIdError("userId"))).toMatchObject({ status: 400, code: "bad_request", message: "invalid userId" });
    expect(answer(new MemoryError("not_found", "no such fact"))).toMatchObject({ status: 404, code: "not_found" });
    expect(answer(new MemoryError("too_large", "too big"))).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("answers an unavailable upstream 503 with Retry-After", () => {
    expect(answer(new UpstreamUnavailable("redis", "boom", { retryAfterSeconds: 7 }))).toEqual({
      status: 503,
      code: "upstream_unavailable",
      message: "redis is unavailable, retry shortly",
      retryAfter: "7",
    });
    expect(answer(new UpstreamUnavailable("llm", "no LLM", { reason: "not_configured" }))).toMatchObject({
      status: 503,
      code: "llm_not_configured",
      retryAfter: "3600",
    });
  });

  it("maps model failures, unreadable data and a bad configuration", () => {
    expect(answer(new LlmError("upstream", "x", { status: 400, code: "bad_tool" }))).toMatchObject({
      status: 400,
      code: "llm_rejected",
      details: { kind: "upstream", status: 400, providerCode: "bad_tool" },
    });
    expect(answer(new LlmError("timeout", "x"))).toMatchObject({ status: 502, code: "llm_failed", details: { kind: "timeout" } });
    expect(answer(new StoredDataUnreadable("encryption_key_invalid", "bad key"))).toMatchObject({
      status: 500,
      code: "encryption_key_invalid",
    });
    expect(answer(new ConfigError(["API_KEYS entry 1 is bad"]))).toEqual({
      status: 500,
      code: "config_invalid",
      message: "invalid configuration: API_KEYS entry 1 is bad",
      details: ["API_KEYS entry 1 is bad"],
      retryAfter: undefined,
    });
  });

  it("keeps an ApiError as it is and hides whatever is not the service's own", () => {
    const api = new ApiError(429, "rate_limited", "slow down", { headers: { "retry-after": "3" } });
    expect(toApiError(api)).toBe(api);
    expect(answer(new UnexpectedReply("append"))).toMatchObject({ status: 500, code: "internal", message: "internal error" });
    expect(answer(new Error("secret detail"))).toMatchObject({ status: 500, code: "internal", message: "internal error" });
    expect(answer(new HTTPException(415))).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });
});
