/** @module Audit log model: the recorded actions, actors, targets, page limit and failure throttling. */
import type { Principal } from "../access/rules.ts";

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

/**
 * Refusals and auth failures recorded per credential and minute; the rest are counted in the JSON
 * log only. Per credential, so one caller's flood neither fills the log nor uses up the allowance
 * that would record another caller's refusal.
 */
export const AUDIT_FAILURES_PER_MINUTE = 30;

/** Actions that are throttled: they come from callers who failed to authenticate or were refused. */
export const THROTTLED_ACTIONS: ReadonlySet<AuditAction> = new Set(["auth.failed", "access.denied"]);

/**
 * Security events, kept in a log of their own: high-volume writes (fact edits, settings) any write
 * token can repeat at will never rotate an erase receipt, an export or a refusal out of it.
 */
export const SECURITY_ACTIONS: ReadonlySet<AuditAction> = new Set([
  "user.erase",
  "user.export",
  "token.mint",
  "access.denied",
  "auth.failed",
]);

/** Which log an action goes to. */
export type AuditStream = "security" | "activity";

export const auditStream = (action: AuditAction): AuditStream => (SECURITY_ACTIONS.has(action) ? "security" : "activity");

/** Who a throttle counts: the credential (key id or token id); anonymous callers share one allowance. */
export function throttleSubject(actor: AuditActor): string {
  return actor.kind === "anonymous" ? "anonymous" : `${actor.kind}:${actor.id}`;
}

export function auditActor(principal: Principal | null): AuditActor {
  if (principal === null) return { kind: "anonymous" };
  return principal.kind === "key"
    ? { kind: "key", id: principal.keyId }
    : { kind: "token", id: principal.tokenId, userId: principal.userId };
}

/** Drops undefined ids so entries stay small and stable. */
export function compactTarget(target: AuditTarget): AuditTarget {
  return Object.fromEntries(Object.entries(target).filter(([, v]) => v !== undefined)) as AuditTarget;
}
