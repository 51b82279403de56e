import { describe, expect, it } from "vitest";
import { isMissingNamespace, orEmpty } from "../../../src/stores/fact-index.ts";

describe("a missing Vector namespace", () => {
  it("is told by Upstash's 404 message, in either wording", () => {
    expect(isMissingNamespace(new Error("Namespace am.4.acme.ada does not exist"))).toBe(true);
    expect(isMissingNamespace(new Error("namespace not found"))).toBe(true);
    expect(isMissingNamespace(new Error("index not found"))).toBe(false);
    expect(isMissingNamespace(new Error("namespace is full"))).toBe(false);
    expect(isMissingNamespace("Namespace does not exist")).toBe(false);
  });

  it("reads as no facts yet; every other failure is thrown", async () => {
    expect(await orEmpty(() => Promise.reject(new Error("Namespace x does not exist")), [])).toEqual([]);
    expect(await orEmpty(() => Promise.resolve(["f1"]), [])).toEqual(["f1"]);
    await expect(orEmpty(() => Promise.reject(new Error("timeout")), [])).rejects.toThrow("timeout");
  });
});
