import { describe, expect, it } from "vitest";
import { customVar, enumVar, intVar, numberVar, rawValue, stringVar } from "../../../../src/worker/config/vars.ts";

function parse<T>(variable: { parse(raw: string | undefined, problems: string[]): T }, raw: string | undefined) {
  const problems: string[] = [];
  return { value: variable.parse(raw, problems), problems };
}

describe("configuration variables", () => {
  it("rawValue trims, reads blank as unset, and reports a binding that is not a string", () => {
    const problems: string[] = [];
    expect(rawValue({ A: "  x  " }, "A", problems)).toBe("x");
    expect(rawValue({ A: "   " }, "A", problems)).toBeUndefined();
    expect(rawValue({ A: null }, "A", problems)).toBeUndefined();
    expect(rawValue({}, "A", problems)).toBeUndefined();
    expect(problems).toEqual([]);
    expect(rawValue({ A: 5 }, "A", problems)).toBeUndefined();
    expect(problems).toEqual(["A must be a string"]);
  });

  const window = intVar("WINDOW", { description: "messages", default: 20, min: 1, max: 100 });

  it("an integer within its bounds; unset is the default", () => {
    expect(parse(window, undefined)).toEqual({ value: 20, problems: [] });
    expect(parse(window, "1")).toEqual({ value: 1, problems: [] });
    expect(parse(window, "100")).toEqual({ value: 100, problems: [] });
    expect(window.defaultText).toBe("20");
  });

  it.each(["0", "101", "1.5", "1e2", "ten", " 5", "99999999999999999999"])("an integer refuses %j, keeping the default", (raw) => {
    expect(parse(window, raw)).toEqual({ value: 20, problems: [`WINDOW must be an integer from 1 to 100, got "${raw}"`] });
  });

  it("a number within its bounds, fractions included", () => {
    const share = numberVar("SHARE", { description: "share", default: 0.5, min: 0, max: 1 });
    expect(parse(share, "0.25")).toEqual({ value: 0.25, problems: [] });
    expect(parse(share, "1.01")).toMatchObject({ value: 0.5, problems: [expect.stringContaining("from 0 to 1")] });
    expect(parse(share, "Infinity").problems).toHaveLength(1);
  });

  it("an enum takes one of its values exactly and lists them in its description", () => {
    const mode = enumVar("MODE", { description: "the mode", values: ["on", "off"], default: "on" });
    expect(parse(mode, "off")).toEqual({ value: "off", problems: [] });
    expect(parse(mode, "OFF")).toEqual({ value: "on", problems: ['MODE must be one of on, off, got "OFF"'] });
    expect(mode.description).toBe("the mode; one of `on`, `off`");
  });

  it("a string passes through, with its default or none, and keeps its secret flag", () => {
    const named = stringVar("MODEL", { description: "model", default: "gpt" });
    expect(parse(named, undefined).value).toBe("gpt");
    expect(parse(named, "other").value).toBe("other");
    const secret = stringVar("KEY", { description: "key", secret: true });
    expect(parse(secret, undefined).value).toBeUndefined();
    expect(secret.secret).toBe(true);
  });

  it("a custom variable uses its own parser", () => {
    const list = customVar("LIST", {
      description: "items",
      parse: (raw, problems) => {
        if (raw === "bad") problems.push("LIST is bad");
        return (raw ?? "").split(",");
      },
    });
    expect(parse(list, "a,b")).toEqual({ value: ["a", "b"], problems: [] });
    expect(parse(list, "bad").problems).toEqual(["LIST is bad"]);
  });
});
