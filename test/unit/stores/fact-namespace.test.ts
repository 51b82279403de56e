import { describe, expect, it } from "vitest";
import { InvalidIdError } from "../../../src/stores/errors.ts";
import { namespaceToScope, scopeToNamespace } from "../../../src/stores/fact-namespace.ts";

describe("fact namespaces", () => {
  it("names a scope with the tenant's length, so the form reads back", () => {
    expect(scopeToNamespace({ tenant: "acme", userId: "ada" })).toBe("am.4.acme.ada");
    expect(namespaceToScope("am.4.acme.ada")).toEqual({ tenant: "acme", userId: "ada" });
  });

  it.each([
    { tenant: "a.b", userId: "c" },
    { tenant: "a", userId: "b.c" },
    { tenant: "a__b", userId: "c" },
    { tenant: "a", userId: "b__c" },
    { tenant: "x".repeat(128), userId: "y@z+1-2_3" },
    { tenant: "9", userId: "9" },
  ])("round-trips ids that hold the separator: %o", (scope) => {
    expect(namespaceToScope(scopeToNamespace(scope))).toEqual(scope);
  });

  it("keeps two scopes a plain separator would confuse apart", () => {
    expect(scopeToNamespace({ tenant: "a.b", userId: "c" })).not.toBe(scopeToNamespace({ tenant: "a", userId: "b.c" }));
  });

  it.each([
    ["an empty tenant", { tenant: "", userId: "u" }],
    ["a user id with a slash", { tenant: "t", userId: "a/b" }],
    ["a tenant with a space", { tenant: "a b", userId: "u" }],
  ])("refuses %s", (_label, scope) => {
    expect(() => scopeToNamespace(scope)).toThrow(InvalidIdError);
  });

  it.each([
    ["another service's namespace", "other.4.acme.ada"],
    ["the default namespace", ""],
    ["a length of zero", "am.0..ada"],
    ["a leading zero in the length", "am.04.acme.ada"],
    ["a length past the text", "am.9.acme.ada"],
    ["a length that misses the separator", "am.3.acme.ada"],
    ["no user", "am.4.acme."],
    ["an invalid user id", "am.4.acme.a/b"],
    ["an invalid tenant", "am.4.ac e.ada"],
  ])("is not ours: %s", (_label, namespace) => {
    expect(namespaceToScope(namespace)).toBeNull();
  });
});
