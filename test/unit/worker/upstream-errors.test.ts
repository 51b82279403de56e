import { describe, expect, it } from "vitest";
import { LlmError, MemoryError, StoredDataUnreadable, UpstreamUnavailable } from "../../../src/memory/errors.ts";
import { UnexpectedReply } from "../../../src/stores/errors.ts";
import { guardUpstream } from "../../../src/worker/upstream-errors.ts";

// A guarded adapter lets the service's own errors through and turns everything else into the
// upstream's outage, a reply it could not read included.

const failing = (err: unknown) => guardUpstream({ call: () => Promise.reject(err) }, "redis");

describe("guardUpstream", () => {
  it("passes the service's errors through unchanged", async () => {
    for (const err of [
      new MemoryError("conflict", "x"),
      new UpstreamUnavailable("vector", "x"),
      new LlmError("timeout", "x"),
      new StoredDataUnreadable("encryption_key_missing", "x"),
    ]) {
      await expect(failing(err).call()).rejects.toBe(err);
    }
  });

  it("turns an unreadable reply and a foreign error into the upstream's outage", async () => {
    const reply = failing(new UnexpectedReply("append")).call();
    await expect(reply).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(reply).rejects.toMatchObject({ upstream: "redis", message: "redis request failed: unexpected reply from append" });
    await expect(failing(new Error("socket hang up")).call()).rejects.toMatchObject({
      upstream: "redis",
      reason: "down",
      message: "redis request failed: socket hang up",
    });
  });
});
