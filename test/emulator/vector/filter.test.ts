import { describe, expect, it } from "vitest";
import { compileGlob } from "../../../tools/upstash-local/vector/filter/glob.ts";
import { evaluateFilter, filterFromRequest, parseFilter, tokenize } from "../../../tools/upstash-local/vector/filter/index.ts";
import { VectorApiError } from "../../../tools/upstash-local/vector/errors.ts";

const meta = {
  name: "Istanbul",
  country: "Turkey",
  population: 15_460_000,
  is_capital: false,
  flag: true,
  area: 5343.22,
  tags: ["city", "transcontinental", 7, true],
  geography: { continent: "Asia", coordinates: { latitude: 41.0082, longitude: 28.9784 } },
  landmarks: [{ name: "Hagia Sophia" }, { name: "Blue Mosque" }],
  nothing: null,
  "dash-key": "d",
  city_zh: "伊斯坦布尔",
};

const matches = (filter: string): boolean => evaluateFilter(parseFilter(filter), meta);

function syntaxError(filter: string): string {
  try {
    parseFilter(filter);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`expected "${filter}" to be rejected`);
}

describe("filter lexer", () => {
  it("produces typed tokens with positions", () => {
    const tokens = tokenize("geo.a[0] >= -1.5e2 AND name = 'it\\'s' OR x != \"q\\\"\\\\\"");
    expect(tokens.map((t) => [t.kind, t.value ?? t.text])).toEqual([
      ["ident", "geo.a[0]"],
      ["op", ">="],
      ["number", -150],
      ["ident", "AND"],
      ["ident", "name"],
      ["op", "="],
      ["string", "it's"],
      ["ident", "OR"],
      ["ident", "x"],
      ["op", "!="],
      ["string", 'q"\\'],
      ["eof", "<EOF>"],
    ]);
    expect(tokens[2]).toMatchObject({ line: 1, column: 12 });
  });

  it("tracks lines and columns across newlines", () => {
    const tokens = tokenize("a = 1\n  AND b = 2");
    expect(tokens[3]).toMatchObject({ text: "AND", line: 2, column: 2 });
  });

  it("decodes escapes", () => {
    expect(tokenize("'a\\nb\\t\\u00e9'")[0]?.value).toBe("a\nb\té");
  });
});

describe("filter parser", () => {
  it("binds AND tighter than OR", () => {
    expect(parseFilter("a = 1 OR b = 2 AND c = 3")).toMatchObject({
      kind: "or",
      children: [
        { kind: "compare", path: { text: "a" } },
        { kind: "and", children: [{ path: { text: "b" } }, { path: { text: "c" } }] },
      ],
    });
    expect(parseFilter("a = 1 AND b = 2 OR c = 3")).toMatchObject({
      kind: "or",
      children: [{ kind: "and" }, { kind: "compare", path: { text: "c" } }],
    });
  });

  it("lets parentheses override precedence", () => {
    expect(parseFilter("(a = 1 OR b = 2) AND c = 3")).toMatchObject({
      kind: "and",
      children: [{ kind: "or" }, { kind: "compare" }],
    });
  });

  it("parses every predicate form, keywords in any case", () => {
    expect(parseFilter("x not glob 'a*'")).toMatchObject({ kind: "glob", negated: true, pattern: "a*" });
    expect(parseFilter("x In ('a', 2, true)")).toMatchObject({ kind: "in", negated: false, values: ["a", 2, true] });
    expect(parseFilter("x NOT IN (FALSE)")).toMatchObject({ kind: "in", negated: true, values: [false] });
    expect(parseFilter("x contains 'a'")).toMatchObject({ kind: "contains", negated: false, value: "a" });
    expect(parseFilter("x Not Contains 1")).toMatchObject({ kind: "contains", negated: true, value: 1 });
    expect(parseFilter("has field a.b")).toMatchObject({ kind: "hasField", negated: false, path: { text: "a.b" } });
    expect(parseFilter("HAS NOT FIELD a")).toMatchObject({ kind: "hasField", negated: true });
    expect(parseFilter("b = True")).toMatchObject({ kind: "compare", op: "=", value: true });
  });

  it("splits field paths into keys, indexes and from-end indexes", () => {
    expect(parseFilter("a.b[2].c[#-1] = 1")).toMatchObject({
      path: {
        segments: [
          { type: "key", key: "a" },
          { type: "key", key: "b" },
          { type: "index", index: 2 },
          { type: "key", key: "c" },
          { type: "fromEnd", offset: 1 },
        ],
      },
    });
  });

  it("accepts fields named like keywords", () => {
    expect(parseFilter("in = 1 AND field = 2 AND has = 3")).toMatchObject({ kind: "and" });
  });

  it("reports ANTLR-like errors with line:column", () => {
    expect(syntaxError("tags = 'a' AND number IN [1, 2]")).toBe("Invalid filter. At line 1:25 token recognition error at: '['");
    expect(syntaxError("a =")).toBe("Invalid filter. At line 1:3 mismatched input '<EOF>' expecting {STRING, NUMBER, BOOLEAN}");
    expect(syntaxError("a = 1 b = 2")).toBe("Invalid filter. At line 1:6 extraneous input 'b' expecting {<EOF>, AND, OR}");
    expect(syntaxError("a < 'x'")).toBe("Invalid filter. At line 1:4 mismatched input ''x'' expecting NUMBER");
    expect(syntaxError("a = 'open")).toBe("Invalid filter. At line 1:4 token recognition error at: ''open'");
    expect(syntaxError("a = 1 AND\n b ~ 2")).toBe("Invalid filter. At line 2:3 token recognition error at: '~'");
    expect(syntaxError("(a = 1")).toMatch(/^Invalid filter\. At line 1:6 mismatched input '<EOF>'/);
    expect(syntaxError("a..b = 1")).toBe("Invalid filter. At line 1:2 invalid field path 'a..b'");
    expect(syntaxError("a[x] = 1")).toBe("Invalid filter. At line 1:1 invalid field path 'a[x]'");
    expect(syntaxError("a NOT = 1")).toMatch(/expecting \{GLOB, IN, CONTAINS\}$/);
    expect(syntaxError("a IN ()")).toMatch(/mismatched input '\)'/);
    expect(syntaxError("a GLOB 5")).toMatch(/expecting STRING$/);
    expect(syntaxError("a = b")).toMatch(/mismatched input 'b'/);
    expect(syntaxError("AND a = 1")).toMatch(/^Invalid filter\. At line 1:4 /);
    expect(syntaxError("a ! 1")).toBe("Invalid filter. At line 1:2 token recognition error at: '!'");
    expect(syntaxError("")).toMatch(/mismatched input '<EOF>'/);
  });
});

describe("filter evaluator", () => {
  it("compares with = and !=", () => {
    expect(matches("country = 'Turkey'")).toBe(true);
    expect(matches("country = 'turkey'")).toBe(false); // case-sensitive
    expect(matches("country != 'Germany'")).toBe(true);
    expect(matches("country != 'Turkey'")).toBe(false);
    expect(matches("population = 15460000")).toBe(true);
    expect(matches("area = 5343.22")).toBe(true);
    expect(matches("is_capital = false")).toBe(true);
    expect(matches("flag = TRUE")).toBe(true);
  });

  it("treats 1 and 0 as boolean literals", () => {
    expect(matches("flag = 1")).toBe(true);
    expect(matches("is_capital = 0")).toBe(true);
    expect(matches("is_capital != 1")).toBe(true);
    expect(matches("flag = 2")).toBe(false);
  });

  it("orders numbers with < <= > >=", () => {
    expect(matches("population > 1000000")).toBe(true);
    expect(matches("population >= 15460000")).toBe(true);
    expect(matches("population < 15460000")).toBe(false);
    expect(matches("population <= 15460000")).toBe(true);
    expect(matches("area < 5343.3 AND area > -1")).toBe(true);
    expect(matches("country > 5")).toBe(false); // strings are not ordered
  });

  it("globs", () => {
    expect(matches("city_zh GLOB '伊斯*'")).toBe(true);
    expect(matches("name GLOB 'Ist?nbul'")).toBe(true);
    expect(matches("name GLOB '[A-J]stanbul'")).toBe(true);
    expect(matches("name GLOB '[^I]stanbul'")).toBe(false);
    expect(matches("name GLOB '[abcI]*'")).toBe(true);
    expect(matches("name GLOB 'istanbul'")).toBe(false);
    expect(matches("name NOT GLOB 'A*'")).toBe(true);
    expect(matches("name NOT GLOB 'I*'")).toBe(false);
    expect(matches("population GLOB '1*'")).toBe(false); // only strings
  });

  it("tests set membership with IN / NOT IN", () => {
    expect(matches("country IN ('Germany', 'Turkey')")).toBe(true);
    expect(matches("country IN ('Germany', 'France')")).toBe(false);
    expect(matches("country NOT IN ('Germany', 'France')")).toBe(true);
    expect(matches("country NOT IN ('Turkey')")).toBe(false);
    expect(matches("population IN (1, 15460000)")).toBe(true);
    expect(matches("flag IN (true)")).toBe(true);
  });

  it("looks into arrays with CONTAINS / NOT CONTAINS", () => {
    expect(matches("tags CONTAINS 'city'")).toBe(true);
    expect(matches("tags CONTAINS 7")).toBe(true);
    expect(matches("tags CONTAINS 'village'")).toBe(false);
    expect(matches("tags NOT CONTAINS 'village'")).toBe(true);
    expect(matches("tags NOT CONTAINS 'city'")).toBe(false);
    expect(matches("country CONTAINS 'Tur'")).toBe(false); // not an array
  });

  it("checks presence with HAS FIELD / HAS NOT FIELD", () => {
    expect(matches("HAS FIELD geography.continent")).toBe(true);
    expect(matches("HAS FIELD geography.ocean")).toBe(false);
    expect(matches("HAS NOT FIELD geography.ocean")).toBe(true);
    expect(matches("HAS NOT FIELD name")).toBe(false);
    expect(matches("HAS FIELD nothing")).toBe(true); // present with value null
    expect(evaluateFilter(parseFilter("HAS NOT FIELD anything"), undefined)).toBe(true);
  });

  it("follows nested keys and array indexes", () => {
    expect(matches("geography.continent = 'Asia'")).toBe(true);
    expect(matches("geography.coordinates.latitude >= 41")).toBe(true);
    expect(matches("tags[0] = 'city'")).toBe(true);
    expect(matches("tags[1] = 'city'")).toBe(false);
    expect(matches("tags[#-1] = true")).toBe(true);
    expect(matches("tags[#-4] = 'city'")).toBe(true);
    expect(matches("tags[9] = 'city'")).toBe(false);
    expect(matches("tags[#-9] = 'city'")).toBe(false);
    expect(matches("landmarks[1].name = 'Blue Mosque'")).toBe(true);
    expect(matches("dash-key = 'd'")).toBe(true);
  });

  it("is false for missing fields and type mismatches, including negated forms", () => {
    expect(matches("missing = 1")).toBe(false);
    expect(matches("missing != 1")).toBe(false);
    expect(matches("missing NOT IN (1)")).toBe(false);
    expect(matches("missing NOT GLOB 'a'")).toBe(false);
    expect(matches("missing NOT CONTAINS 1")).toBe(false);
    expect(matches("country != 5")).toBe(false);
    expect(matches("nothing = 1")).toBe(false);
    expect(matches("geography = 'Asia'")).toBe(false);
    expect(matches("name.first = 'x'")).toBe(false);
    expect(evaluateFilter(parseFilter("country = 'Turkey'"), undefined)).toBe(false);
  });

  it("combines with AND / OR / parentheses", () => {
    expect(matches("country = 'Germany' OR country = 'Turkey' AND population > 1")).toBe(true);
    expect(matches("country = 'Turkey' OR country = 'Germany' AND population < 1")).toBe(true);
    expect(matches("(country = 'Turkey' OR country = 'Germany') AND population < 1")).toBe(false);
    expect(matches("population > 1000000 and geography.continent = 'Asia'")).toBe(true);
    expect(matches("((name = 'Istanbul'))")).toBe(true);
  });
});

describe("glob matcher", () => {
  it("implements * ? and classes on code points", () => {
    expect(compileGlob("*")("")).toBe(true);
    expect(compileGlob("a*c")("abbbc")).toBe(true);
    expect(compileGlob("a?c")("a😀c")).toBe(true);
    expect(compileGlob("[a-c][^a-c]")("bz")).toBe(true);
    expect(compileGlob("[a-c][^a-c]")("bb")).toBe(false);
    expect(compileGlob("[]]")("]")).toBe(true);
    expect(compileGlob("[^]]")("]")).toBe(false);
    expect(compileGlob("[a-]")("-")).toBe(true);
    expect(compileGlob("a.b(c)+$")("a.b(c)+$")).toBe(true);
    expect(compileGlob("a.b")("axb")).toBe(false);
    expect(compileGlob("[abc")("[abc")).toBe(true); // unclosed class is literal
    expect(compileGlob("[z-a]")("m")).toBe(false);
    expect(compileGlob("line*")("line1\nline2")).toBe(true);
  });
});

describe("filterFromRequest", () => {
  it("treats blank filters as no filter", () => {
    expect(filterFromRequest(undefined)).toBeUndefined();
    expect(filterFromRequest("  ")).toBeUndefined();
  });

  it("turns syntax errors into 400 errors", () => {
    let error: unknown;
    try {
      filterFromRequest("a = ");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(VectorApiError);
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid filter\. At line 1:4/) });
  });
});
