import { describe, expect, it } from "vitest";
import { factDefaults } from "../../../src/http/defaults.ts";

describe("request defaults", () => {
  it("a new fact without type or importance is a plain fact of middling importance", () => {
    expect(factDefaults({})).toEqual({ type: "fact", importance: 0.5 });
  });

  it("what the request gives is kept, an importance of 0 included", () => {
    expect(factDefaults({ type: "preference", importance: 0 })).toEqual({ type: "preference", importance: 0 });
  });
});
