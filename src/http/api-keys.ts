import { isValidId } from "../ids.ts";

/** One API key and the tenant it grants. */
export interface ApiKeyEntry {
  tenant: string;
  key: string;
}

/** Parses `tenant:key,tenant2:key2`. Problems are appended to `problems`. */
export function parseApiKeys(raw: string, problems: string[]): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  for (const part of raw.split(",")) {
    const item = part.trim();
    if (item === "") continue;
    const colon = item.indexOf(":");
    const tenant = colon > 0 ? item.slice(0, colon) : "";
    const key = colon > 0 ? item.slice(colon + 1) : "";
    if (!isValidId(tenant) || key.length < 6) {
      problems.push(`API_KEYS entry "${tenant || item.slice(0, 8)}..." must be tenant:key with a valid tenant id and a key of 6+ characters`);
      continue;
    }
    entries.push({ tenant, key });
  }
  return entries;
}

/**
 * Finds the tenant of a presented key. Compares against every key in constant time per byte so the
 * response time does not reveal how much of a key matched.
 */
export function tenantForKey(entries: readonly ApiKeyEntry[], presented: string): string | null {
  const given = new TextEncoder().encode(presented);
  let found: string | null = null;
  for (const entry of entries) {
    const expected = new TextEncoder().encode(entry.key);
    let diff = expected.length ^ given.length;
    for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ (given[i % Math.max(given.length, 1)] ?? 0);
    if (diff === 0) found = entry.tenant;
  }
  return found;
}
