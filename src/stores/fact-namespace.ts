/** @module The Vector namespace of one tenant's user (`am.{tenant length}.{tenant}.{user}`) and the scope read back from one. */
import type { FactScope } from "../memory/ports/index.ts";
import { assertId } from "./keys.ts";
import { isValidId } from "../memory/ids.ts";

/**
 * Vector namespaces are `am.{tenant length}.{tenant}.{user}`. Ids may contain `.`, `_` and `-`, so
 * a plain separator would be ambiguous (`a__b` + `c` vs `a` + `b__c`); the length prefix makes the
 * form reversible while staying within URL-safe characters (the client puts the namespace into the
 * request path unencoded). The `am.` prefix lets the sweep ignore namespaces it does not own.
 */
const NAMESPACE_PREFIX = "am.";
const NAMESPACE_PATTERN = /^am\.([1-9][0-9]{0,2})\.(.+)$/;

/** The Vector namespace of one user of one tenant; throws on invalid ids. */
export function scopeToNamespace(scope: FactScope): string {
  const tenant = assertId("tenant", scope.tenant);
  const userId = assertId("userId", scope.userId);
  return `${NAMESPACE_PREFIX}${tenant.length}.${tenant}.${userId}`;
}

/** The scope a namespace belongs to, or `null` when it is not one of ours. */
export function namespaceToScope(namespace: string): FactScope | null {
  const match = NAMESPACE_PATTERN.exec(namespace);
  if (!match?.[1] || match[2] === undefined) return null;
  const length = Number(match[1]);
  const rest = match[2];
  const tenant = rest.slice(0, length);
  const userId = rest.slice(length + 1);
  if (rest[length] !== "." || !isValidId(tenant) || !isValidId(userId)) return null;
  return { tenant, userId };
}
