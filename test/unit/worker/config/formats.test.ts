import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../src/worker/config/parse.ts";
import { parseRedact } from "../../../../src/worker/config/formats.ts";

describe("REDACT", () => {
  it("on (or unset) redacts every category, off none, a list only those named", () => {
    const problems: string[] = [];
    expect(parseRedact(undefined, problems)).toEqual(["credentials", "cards", "ids", "bank"]);
    expect(parseRedact("on", problems)).toEqual(["credentials", "cards", "ids", "bank"]);
    expect(parseRedact("off", problems)).toEqual([]);
    expect(parseRedact("cards, Credentials", problems)).toEqual(["credentials", "cards"]);
    expect(problems).toEqual([]);
  });

  it("an unknown category is a configuration error that names the choices", () => {
    const problems: string[] = [];
    parseRedact("credentials,passwords", problems);
    expect(problems).toEqual(['REDACT must be on, off or a comma list of credentials, cards, ids, bank, got "credentials,passwords"']);
    expect(() => parseConfig({ REDACT: "maybe" })).toThrow(/REDACT must be/);
  });

  it("reaches the memory options", () => {
    expect(parseConfig({}).memory.redact).toEqual(["credentials", "cards", "ids", "bank"]);
    expect(parseConfig({ REDACT: "off" }).memory.redact).toEqual([]);
  });
});
