/** @module Writes an audit entry in the background after the response, logging rather than failing on errors. */
import { compactTarget, THROTTLED_ACTIONS, type AuditAction, type AuditEntry, type AuditTarget } from "./audit.ts";
import type { TenantDeps } from "../tenant-deps.ts";

/** What writing an audit entry runs on. */
export type AuditDeps = Pick<TenantDeps, "tenant" | "actor" | "audit" | "now" | "newId" | "background">;

/**
 * Records an audit entry after the response (`waitUntil`): never a round trip on the request's
 * path, and a failing audit write is logged, never the request's failure.
 */
export function recordAudit(deps: AuditDeps, action: AuditAction, target: AuditTarget, details?: AuditEntry["details"]): void {
  const entry: AuditEntry = {
    id: deps.newId(),
    ts: deps.now(),
    actor: deps.actor,
    action,
    target: compactTarget(target),
    ...(details ? { details } : {}),
  };
  deps.background(deps.audit.append(deps.tenant, entry, { throttle: THROTTLED_ACTIONS.has(action) }));
}
