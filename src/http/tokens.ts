/** @module Signs and verifies the HS256 user tokens, telling an expired token's tenant apart from a forged one. */
import { sign, verify } from "hono/jwt";
import { tokenPrincipal, type Principal, type TokenClaims } from "../memory/access/index.ts";
import { isValidId } from "../memory/ids.ts";

/** A bearer value shaped like a JWT (three base64url parts); API keys are told apart by this. */
export const looksLikeToken = (value: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);

export function signToken(claims: TokenClaims, secret: string): Promise<string> {
  return sign(claims, secret, "HS256");
}

export type TokenCheck =
  | { ok: true; principal: Principal }
  /** `principal` is known when the signature was good (an expired token): the audit log can name its tenant. */
  | { ok: false; reason: "invalid" | "expired"; principal: Principal | null };

/**
 * Verifies the signature first and the expiry after, so an expired token still tells which
 * tenant and user it belonged to, and a forged one tells nothing.
 */
export async function checkToken(token: string, secret: string, nowMs: number): Promise<TokenCheck> {
  let claims: Record<string, unknown>;
  try {
    claims = (await verify(token, secret, { alg: "HS256", exp: false, nbf: false, iat: false })) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: "invalid", principal: null };
  }
  const principal = tokenPrincipal(claims, isValidId);
  if (!principal) return { ok: false, reason: "invalid", principal: null };
  const exp = claims.exp;
  if (typeof exp !== "number" || exp * 1000 <= nowMs) return { ok: false, reason: "expired", principal };
  return { ok: true, principal };
}
