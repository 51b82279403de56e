import { describe, expect, it } from "vitest";
import { METADATA_MAX_CHARS, METADATA_MAX_DEPTH, metadataProblem } from "../../../../src/memory/sessions/message-rules.ts";

/** An object nested `depth` levels deep (`{}` is 1). */
const nested = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { inner: value };
  return value;
};

describe("metadataProblem", () => {
  it("accepts metadata within the depth and size limits", () => {
    expect(metadataProblem({ source: "web", tags: ["a", "b"], n: 1 })).toBeNull();
    expect(metadataProblem(nested(METADATA_MAX_DEPTH))).toBeNull();
  });

  it("refuses metadata nested deeper than the limit", () => {
    expect(metadataProblem(nested(METADATA_MAX_DEPTH + 1))).toBe(`metadata must nest at most ${METADATA_MAX_DEPTH} levels`);
  });

  it("refuses metadata that serializes past the size limit, measured as JSON", () => {
    const overhead = JSON.stringify({ text: "" }).length;
    expect(metadataProblem({ text: "x".repeat(METADATA_MAX_CHARS - overhead) })).toBeNull();
    expect(metadataProblem({ text: "x".repeat(METADATA_MAX_CHARS - overhead + 1) })).toBe(
      `metadata must serialize to at most ${METADATA_MAX_CHARS} characters`,
    );
  });
});
