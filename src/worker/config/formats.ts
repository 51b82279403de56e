/** @module The value formats of the configuration variables that need their own parser (keys, origins, limits, shares). */
import { REDACTION_CATEGORIES, type RedactionCategory } from "../../memory/facts/index.ts";
import { isValidId } from "../../memory/ids.ts";
import { DEFAULT_MEMORY_OPTIONS, OPTION_BOUNDS, type BudgetShares } from "../../memory/options.ts";
import { decodeBase64, KID_PATTERN, type SealingKey } from "../../stores/sealed/cipher.ts";

const b = OPTION_BOUNDS;

/** One API key, the tenant it grants and what it may do. */
export interface ApiKeyEntry {
  tenant: string;
  key: string;
  /** `read`: reads only (a dashboard); `full`: everything in the tenant. */
  role: "full" | "read";
}

/** An optional number in 0..1 (unset = the calibrated default of the retrieval mode). */
export function parseOptionalScore(raw: string | undefined, problems: string[]): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < b.minRecallScore.min || value > b.minRecallScore.max) {
    problems.push(`RECALL_MIN_SCORE must be a number in ${b.minRecallScore.min}..${b.minRecallScore.max}`);
    return undefined;
  }
  return value;
}

/**
 * The non-empty items of a comma-separated list, numbered from 1, each split at its first colon:
 * `head` before it ("" when there is none or it leads), `tail` after it (undefined then).
 */
function* colonPairs(raw: string | undefined): Generator<{ position: number; head: string; tail: string | undefined }> {
  let position = 0;
  for (const part of (raw ?? "").split(",")) {
    const item = part.trim();
    if (item === "") continue;
    position++;
    const colon = item.indexOf(":");
    yield colon > 0 ? { position, head: item.slice(0, colon), tail: item.slice(colon + 1) } : { position, head: "", tail: undefined };
  }
}

/** Parses `tenant:key,tenant2:key2:read`; a trailing `:read` gives the key the read role. */
export function parseApiKeys(raw: string | undefined, problems: string[]): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  for (const { position, head: tenant, tail } of colonPairs(raw)) {
    let key = tail ?? "";
    const role = key.endsWith(":read") ? "read" : "full";
    if (role === "read") key = key.slice(0, -":read".length);
    if (!isValidId(tenant) || key.length < 6) {
      // Named by position only, since every part of a malformed entry may be key material, and this
      // message reaches unauthenticated callers.
      problems.push(`API_KEYS entry ${position} must be tenant:key[:read] with a valid tenant id and a key of 6+ characters`);
      continue;
    }
    entries.push({ tenant, key, role });
  }
  return entries;
}

/** Parses `https://a.example,https://b.example` (or `*`): origins a browser may call from. */
export function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins = (raw ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  for (const origin of origins) {
    if (origin !== "*" && !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin))
      problems.push(`CORS_ORIGINS entry "${origin.slice(0, 60)}" must be scheme://host[:port] or *`);
  }
  return origins;
}

/** A rate limit: requests per window. */
export interface RateLimitSetting {
  requests: number;
  windowMs: number;
}

const WINDOW_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `600/60s` (units ms, s, m, h); unset is off. */
export function parseRateLimit(raw: string | undefined, problems: string[]): RateLimitSetting | null {
  if (raw === undefined) return null;
  const match = /^(\d{1,9})\s*\/\s*(\d{1,9})\s*(ms|s|m|h)$/.exec(raw);
  const requests = Number(match?.[1]);
  const windowMs = Number(match?.[2]) * (WINDOW_UNITS[match?.[3] ?? ""] ?? Number.NaN);
  if (!match || requests < 1 || !(windowMs >= 1000) || windowMs > 86_400_000) {
    problems.push(`RATE_LIMIT must be <requests>/<window> like 600/60s (window 1s to 24h, units ms s m h), got "${raw.slice(0, 40)}"`);
    return null;
  }
  return { requests, windowMs };
}

/** A signing secret of at least 32 characters, or unset. */
export function parseSecret(raw: string | undefined, problems: string[]): string | undefined {
  if (raw !== undefined && raw.length < 32) problems.push("TOKEN_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)");
  return raw;
}

/** Parses `kid:base64-32-bytes,...` (newest first); a kid may appear once. */
export function parseEncryptionKeys(raw: string | undefined, problems: string[]): SealingKey[] {
  const keys: SealingKey[] = [];
  for (const { position, head: kid, tail } of colonPairs(raw)) {
    const secret = tail === undefined ? null : decodeBase64(tail);
    if (!KID_PATTERN.test(kid) || secret?.length !== 32) {
      problems.push(
        `MEMORY_ENCRYPTION_KEYS entry ${position} must be kid:base64 of 32 bytes, kid of [A-Za-z0-9_-]{1,32} (e.g. k1:$(openssl rand -base64 32))`,
      );
      continue;
    }
    if (keys.some((k) => k.kid === kid)) {
      problems.push(`MEMORY_ENCRYPTION_KEYS names key id "${kid}" twice`);
      continue;
    }
    keys.push({ kid, secret });
  }
  return keys;
}

export const SHARE_NAMES = ["system", "summary", "facts", "window", "reply"] as const;

/** Parses `system=0.15,summary=0.1,...`; unnamed shares keep their defaults; the sum must be <= 1. */
export function parseShares(raw: string | undefined, problems: string[]): BudgetShares {
  const defaults = DEFAULT_MEMORY_OPTIONS.shares;
  if (raw === undefined) return defaults;
  const shares: BudgetShares = { ...defaults };
  for (const part of raw.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const share = Number(value);
    if (!name || !(SHARE_NAMES as readonly string[]).includes(name) || value === "" || !Number.isFinite(share) || share < 0 || share > 1) {
      problems.push(`BUDGET_SHARES entry "${part}" must be name=0..1 with name one of ${SHARE_NAMES.join(", ")}`);
      continue;
    }
    shares[name as (typeof SHARE_NAMES)[number]] = share;
  }
  const sum = SHARE_NAMES.reduce((total, name) => total + shares[name], 0);
  if (sum > 1.0001) problems.push(`BUDGET_SHARES must sum to at most 1, got ${sum.toFixed(3)}`);
  return shares;
}

/** `on` (every category), `off` (none) or a comma list of {@link REDACTION_CATEGORIES}; unset: `on`. */
export function parseRedact(raw: string | undefined, problems: string[]): RedactionCategory[] {
  const all = [...REDACTION_CATEGORIES];
  if (raw === undefined || raw.toLowerCase() === "on") return all;
  if (raw.toLowerCase() === "off") return [];
  const named = raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  const unknown = named.filter((n) => !(REDACTION_CATEGORIES as readonly string[]).includes(n));
  if (unknown.length > 0 || named.length === 0) {
    problems.push(`REDACT must be on, off or a comma list of ${REDACTION_CATEGORIES.join(", ")}, got "${raw}"`);
    return all;
  }
  return all.filter((c) => named.includes(c));
}
