import { describe, expect, it } from "vitest";
import { CONFIG_VARS } from "../../../src/worker/config/table.ts";
import { DEV_TOKEN_SECRET, applyDevDefaults } from "../../../scripts/dev-defaults.ts";

describe("npm run dev defaults", () => {
  it("fill in the dev key, a token secret and CORS for the browser example's port, each named in the banner", () => {
    const forwarded: Record<string, string> = {};
    const notes = applyDevDefaults(forwarded, { EXAMPLE_PORT: "9100" });
    expect(forwarded).toEqual({
      API_KEYS: "dev:dev-key",
      TOKEN_SECRET: DEV_TOKEN_SECRET,
      CORS_ORIGINS: "http://127.0.0.1:9100,http://localhost:9100",
    });
    expect(notes).toHaveLength(3);
    expect(notes.join("\n")).toMatch(/dev-only TOKEN_SECRET/);
    expect(applyDevDefaults({}, {}).length).toBe(3);
    const fallback: Record<string, string> = {};
    applyDevDefaults(fallback, { EXAMPLE_PORT: "0" });
    expect(fallback.CORS_ORIGINS).toBe("http://127.0.0.1:8788,http://localhost:8788");
  });

  it("are values the Worker's configuration accepts", () => {
    const forwarded: Record<string, string> = {};
    applyDevDefaults(forwarded, {});
    const problems: string[] = [];
    CONFIG_VARS.TOKEN_SECRET.parse(forwarded.TOKEN_SECRET, problems);
    CONFIG_VARS.CORS_ORIGINS.parse(forwarded.CORS_ORIGINS, problems);
    expect(problems).toEqual([]);
  });

  it("never replace what the shell set", () => {
    const forwarded = { API_KEYS: "acme:k", TOKEN_SECRET: "x".repeat(40), CORS_ORIGINS: "https://app.example" };
    expect(applyDevDefaults(forwarded, { EXAMPLE_PORT: "9100" })).toEqual([]);
    expect(forwarded).toEqual({ API_KEYS: "acme:k", TOKEN_SECRET: "x".repeat(40), CORS_ORIGINS: "https://app.example" });
  });
});
