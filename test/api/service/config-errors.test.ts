import { describe, expect, it } from "vitest";
import { call } from "../support/helpers.ts";

/**
 * A configuration error answers 500 `config_invalid` to every caller, authenticated or not: its text
 * names the variable and the entry's position, never any part of a key.
 */

const SECRET_KEY = "s3cretKeyMaterial0123456789";
const SECRET_SEAL = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo";

const broken = [
  { API_KEYS: `acme:acme-key,${SECRET_KEY}` },
  { API_KEYS: `acme:acme-key,${SECRET_KEY}:acme` },
  { API_KEYS: `acme:acme-key,acme:${SECRET_KEY.slice(0, 4)}` },
  { MEMORY_ENCRYPTION_KEYS: `${SECRET_SEAL}:k1` },
  { MEMORY_ENCRYPTION_KEYS: `k1:${SECRET_SEAL}` },
];

describe("configuration errors", () => {
  for (const env of broken) {
    it(`never echo key material (${Object.keys(env)[0]})`, async () => {
      const value = Object.values(env)[0]!;
      for (const path of ["/healthz", "/openapi.json", "/v1/sessions/s1"]) {
        const res = await call("GET", path, { key: null, env });
        expect(res.status, res.text).toBe(500);
        expect(res.text).toMatch(/config_invalid/);
        expect(res.text).toMatch(new RegExp(Object.keys(env)[0]!));
        // No 4-character run of the secret parts shows.
        for (const secret of [SECRET_KEY, SECRET_SEAL].filter((s) => value.includes(s.slice(0, 4)))) {
          for (let i = 0; i + 4 <= secret.length; i++) expect(res.text).not.toContain(secret.slice(i, i + 4));
        }
      }
    });
  }
});
