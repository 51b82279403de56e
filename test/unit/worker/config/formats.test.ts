import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../src/worker/config/parse.ts";
import {
  parseApiKeys,
  parseEncryptionKeys,
  parseOptionalScore,
  parseOrigins,
  parseRateLimit,
  parseRedact,
  parseSecret,
  parseShares,
} from "../../../../src/worker/config/formats.ts";

/** What a parser returns for `raw`, and the problems it reported. */
function parsed<T>(parse: (raw: string | undefined, problems: string[]) => T, raw: string | undefined): { value: T; problems: string[] } {
  const problems: string[] = [];
  return { value: parse(raw, problems), problems };
}

const base64Of = (bytes: number): string => btoa(String.fromCharCode(...new Uint8Array(bytes).fill(1)));

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

describe("API_KEYS", () => {
  it("reads tenant:key pairs, a trailing :read giving the read role, and skips blank entries", () => {
    expect(parsed(parseApiKeys, " acme:secret-1 ,, globex:secret-2:read ")).toEqual({
      value: [
        { tenant: "acme", key: "secret-1", role: "full" },
        { tenant: "globex", key: "secret-2", role: "read" },
      ],
      problems: [],
    });
    expect(parsed(parseApiKeys, "acme:a:b:c:d:e").value).toEqual([{ tenant: "acme", key: "a:b:c:d:e", role: "full" }]);
    expect(parsed(parseApiKeys, undefined)).toEqual({ value: [], problems: [] });
  });

  it("names a bad entry by its position only, never by its text (it may be key material)", () => {
    const { value, problems } = parsed(parseApiKeys, "acme:good-key,nocolon-secret,bad tenant:another-key,acme:short,acme:short:read");
    expect(value).toEqual([{ tenant: "acme", key: "good-key", role: "full" }]);
    expect(problems.map((p) => p.match(/entry (\d+)/)?.[1])).toEqual(["2", "3", "4", "5"]);
    for (const problem of problems) expect(problem).not.toMatch(/secret|another-key|short/);
  });
});

describe("CORS_ORIGINS", () => {
  it("takes scheme://host[:port] and *", () => {
    expect(parsed(parseOrigins, "https://a.example, http://127.0.0.1:8788,*")).toEqual({
      value: ["https://a.example", "http://127.0.0.1:8788", "*"],
      problems: [],
    });
  });

  it.each(["a.example", "https://a.example/", "https://a.example/path", "ftp://a.example", "https://a.example:123456"])(
    "refuses %s",
    (origin) => {
      expect(parsed(parseOrigins, origin).problems).toHaveLength(1);
    },
  );
});

describe("RATE_LIMIT", () => {
  it("reads requests per window in ms, s, m or h; unset is off", () => {
    expect(parsed(parseRateLimit, "600/60s").value).toEqual({ requests: 600, windowMs: 60_000 });
    expect(parsed(parseRateLimit, "5 / 2 m").value).toEqual({ requests: 5, windowMs: 120_000 });
    expect(parsed(parseRateLimit, "1/1000ms").value).toEqual({ requests: 1, windowMs: 1000 });
    expect(parsed(parseRateLimit, "10/24h").value).toEqual({ requests: 10, windowMs: 86_400_000 });
    expect(parsed(parseRateLimit, undefined)).toEqual({ value: null, problems: [] });
  });

  it.each(["0/60s", "10/999ms", "10/25h", "10/60", "10/60d", "ten/60s", "-1/60s"])("refuses %s", (raw) => {
    expect(parsed(parseRateLimit, raw)).toEqual({ value: null, problems: [expect.stringContaining("RATE_LIMIT must be")] });
  });
});

describe("TOKEN_SECRET and RECALL_MIN_SCORE", () => {
  it("a secret needs 32 characters", () => {
    expect(parsed(parseSecret, "x".repeat(32)).problems).toEqual([]);
    expect(parsed(parseSecret, "x".repeat(31)).problems).toHaveLength(1);
    expect(parsed(parseSecret, undefined)).toEqual({ value: undefined, problems: [] });
  });

  it("a score is a number in 0..1, unset keeps the mode's default", () => {
    expect(parsed(parseOptionalScore, "0.25")).toEqual({ value: 0.25, problems: [] });
    expect(parsed(parseOptionalScore, undefined)).toEqual({ value: undefined, problems: [] });
    for (const bad of ["1.5", "-0.1", "high", "NaN"])
      expect(parsed(parseOptionalScore, bad)).toMatchObject({ value: undefined, problems: [expect.any(String)] });
  });
});

describe("MEMORY_ENCRYPTION_KEYS", () => {
  it("reads kid:base64 keys of 32 bytes, newest first", () => {
    const { value, problems } = parsed(parseEncryptionKeys, `k2:${base64Of(32)},k1:${base64Of(32)}`);
    expect(problems).toEqual([]);
    expect(value.map((k) => [k.kid, k.secret.length])).toEqual([
      ["k2", 32],
      ["k1", 32],
    ]);
  });

  it("refuses a short key, a bad kid and a kid named twice, keeping the good ones", () => {
    const raw = `k1:${base64Of(16)},bad kid:${base64Of(32)},k2:${base64Of(32)},k2:${base64Of(32)},k3`;
    const { value, problems } = parsed(parseEncryptionKeys, raw);
    expect(value.map((k) => k.kid)).toEqual(["k2"]);
    expect(problems).toHaveLength(4);
    expect(problems[2]).toBe('MEMORY_ENCRYPTION_KEYS names key id "k2" twice');
  });
});

describe("BUDGET_SHARES", () => {
  it("unnamed shares keep their defaults", () => {
    const defaults = parsed(parseShares, undefined).value;
    expect(parsed(parseShares, "facts=0.2, window=0.5")).toEqual({ value: { ...defaults, facts: 0.2, window: 0.5 }, problems: [] });
  });

  it("refuses an unknown name or a value outside 0..1, and a sum above 1", () => {
    expect(parsed(parseShares, "memory=0.1").problems).toHaveLength(1);
    expect(parsed(parseShares, "facts=1.5").problems).toHaveLength(1);
    expect(parsed(parseShares, "facts=").problems).toHaveLength(1);
    expect(parsed(parseShares, "facts=0.9").problems).toEqual([expect.stringMatching(/sum to at most 1, got 1\.6/)]);
  });
});
