import type { Principal } from "./access.ts";

/** What the audit log records. Contents (messages, fact texts, notes) never enter it. */
export type AuditAction =
  | "user.erase"
  | "user.export"
  | "token.mint"
  | "fact.update"
  | "fact.delete"
  | "session.settings"
  | "access.denied"
  | "auth.failed";

/** Who acted: a key by its id (never the key), a token by its id and subject. */
export type AuditActor = { kind: "key"; id: string } | { kind: "token"; id: string; userId: string } | { kind: "anonymous" };

/** The ids an action touched. */
export interface AuditTarget {
  userId?: string | undefined;
  sessionId?: string | undefined;
  factId?: string | undefined;
  tokenId?: string | undefined;
}

export interface AuditEntry {
  id: string;
  /** Epoch ms. */
  ts: number;
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  /** Counts, receipt ids, reasons: never stored contents. */
  details?: Record<string, string | number | boolean> | undefined;
}

/** Entries of one page of `GET /v1/audit`; more than this is a 400. */
export const MAX_AUDIT_PAGE = 1000;

/** Auth failures recorded per tenant and minute; the rest are counted in the JSON log only (a flood cannot fill the log). */
export const AUDIT_FAILURES_PER_MINUTE = 30;

/** Actions that are throttled: they come from callers who failed to authenticate or were refused. */
export const THROTTLED_ACTIONS: ReadonlySet<AuditAction> = new Set(["auth.failed", "access.denied"]);

export function auditActor(principal: Principal | null): AuditActor {
  if (principal === null) return { kind: "anonymous" };
  return principal.kind === "key" ? { kind: "key", id: principal.keyId } : { kind: "token", id: principal.tokenId, userId: principal.userId };
}

/** Drops undefined ids so entries stay small and stable. */
export function compactTarget(target: AuditTarget): AuditTarget {
  return Object.fromEntries(Object.entries(target).filter(([, v]) => v !== undefined)) as AuditTarget;
}
