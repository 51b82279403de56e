import { describe, expect, it } from "vitest";
import { errors, IdempotencyKeySchema, IdSchema, QueryBool, queryInt } from "../../../../src/http/schemas/common.ts";

describe("shared schemas", () => {
  it("an id follows the identifier rule", () => {
    expect(IdSchema.safeParse("ada.lovelace@x+1").success).toBe(true);
    for (const bad of ["", "-ada", "a b", "a/b", "x".repeat(129)]) expect(IdSchema.safeParse(bad).success).toBe(false);
  });

  it("an idempotency key is 1-256 printable ASCII characters, not starting with a space", () => {
    expect(IdempotencyKeySchema.safeParse("retry 1").success).toBe(true);
    expect(IdempotencyKeySchema.safeParse("k".repeat(256)).success).toBe(true);
    for (const bad of ["", " lead", "k".repeat(257), "tab\there", "ünï"]) expect(IdempotencyKeySchema.safeParse(bad).success).toBe(false);
  });

  it("a query boolean takes true, false, 1 and 0 only, so a typo is an error", () => {
    expect(["true", "1", "false", "0"].map((v) => QueryBool.parse(v))).toEqual([true, true, false, false]);
    for (const bad of ["yes", "TRUE", ""]) expect(QueryBool.safeParse(bad).success).toBe(false);
  });

  it("a query integer within bounds; every miss answers the whole rule", () => {
    const limit = queryInt(1, 1000);
    expect(limit.parse("1")).toBe(1);
    expect(limit.parse("1000")).toBe(1000);
    for (const bad of ["0", "1001", "1.5", "ten", "", "-3"]) {
      const result = limit.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual(["must be an integer from 1 to 1000"]);
    }
  });

  it("errors() picks the listed error responses, each with the shared body", () => {
    const picked = errors(400, 404);
    expect(Object.keys(picked).sort()).toEqual(["400", "404"]);
    expect(picked[404].content["application/json"].example.error.code).toBe("not_found");
  });
});
