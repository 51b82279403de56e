/** @module TenantMemory: the use cases of one tenant, one method per thing an HTTP client can ask for. */
import type { AuditAction, AuditEntry, AuditTarget } from "./observe/audit.ts";
import { recordAudit } from "./observe/audit-record.ts";
import { restoreFacts } from "./facts/backup.ts";
import type { TurnInput } from "./sessions/chat-turn.ts";
import { runChatTurn, runProxiedTurn, type ProxiedTurnInput, type TurnResult, type TurnRun } from "./sessions/run-turn.ts";
import type { TenantDeps } from "./tenant-deps.ts";
import { UpstreamUnavailable } from "./errors.ts";
import { FactService } from "./facts/fact-service.ts";
import { SessionMemory } from "./sessions/session-memory.ts";
import type { AddResult, ContextRequest, ContextResult } from "./sessions/requests.ts";
import type { SettingsChange } from "./ports/sessions.ts";
import type { JsonObject } from "./model.ts";
import { readStats, readTrace, recentTraces } from "./observe/queries.ts";
import { listUserSessions } from "./sessions/session-list.ts";
import { compressSession, resetSession, sessionHistory, sessionState, updateSessionSettings } from "./sessions/session-state.ts";
import type { IncomingMessage } from "./model.ts";
import { eraseUser, exportUser } from "./users/user-data.ts";
import { WorkingMemory } from "./sessions/working-memory.ts";

/**
 * The use cases of one tenant, as the HTTP layer calls them: one method per thing a client can
 * ask for. Built per request from {@link TenantDeps}; every method is one use case.
 */
export class TenantMemory {
  readonly #d: TenantDeps;

  constructor(deps: TenantDeps) {
    this.#d = deps;
  }

  get options(): TenantDeps["options"] {
    return this.#d.options;
  }

  /** Appends messages in one Redis round trip; learning and compression follow in the background. */
  append(sessionId: string, input: { userId?: string | undefined; messages: IncomingMessage[] }): Promise<AddResult> {
    return new SessionMemory(this.#d, { sessionId, userId: input.userId }).add(input.messages);
  }

  /** The context of a session within its budget, with the user's facts recalled for `query`. */
  context(sessionId: string, request: ContextRequest & { userId?: string | undefined }): Promise<ContextResult> {
    return new SessionMemory(this.#d, { sessionId, userId: request.userId }).getContext(request);
  }

  /** The session's stored owner, or null (no session, or one nobody owns). */
  sessionOwner(sessionId: string): Promise<string | null> {
    return this.#d.sessions.owner({ tenant: this.#d.tenant, sessionId });
  }

  /** Whether the session exists, and its stored owner (null: none). */
  sessionOwnership(sessionId: string): Promise<{ exists: boolean; owner: string | null }> {
    return this.#d.sessions.ownership({ tenant: this.#d.tenant, sessionId });
  }

  session(sessionId: string, page: { offset?: number | undefined; limit?: number | undefined } = {}) {
    return sessionState(this.#d, sessionId, page);
  }

  async updateSettings(sessionId: string, change: SettingsChange) {
    const state = await updateSessionSettings(this.#d, sessionId, change);
    recordAudit(this.#d, "session.settings", { sessionId }, { fields: Object.keys(change).sort().join(",") });
    return state;
  }

  reset(sessionId: string, keepSystem: boolean) {
    return resetSession(this.#d, sessionId, keepSystem);
  }

  compress(sessionId: string, force: boolean) {
    return compressSession(this.#d, sessionId, force);
  }

  history(sessionId: string, page: { offset: number; limit: number }) {
    return sessionHistory(this.#d, sessionId, page);
  }

  working(sessionId: string): WorkingMemory {
    return new WorkingMemory(this.#d, sessionId);
  }

  /** One chat turn: stores the user's message with the context read, then, once admitted, the model's answer. */
  chatTurn(input: TurnInput, run: TurnRun): Promise<TurnResult> {
    return runChatTurn(this.#d, input, run);
  }

  /** One turn of an OpenAI-style request (the whole conversation): what it adds to memory, then as {@link chatTurn}. */
  proxiedTurn(input: ProxiedTurnInput, run: TurnRun): Promise<TurnResult> {
    return runProxiedTurn(this.#d, input, run);
  }

  /** The models a frontend can pick: the LLM's list, or the configured model. */
  models(): Promise<JsonObject> {
    const chat = this.#d.chat;
    if (!chat) {
      return Promise.reject(
        new UpstreamUnavailable("llm", "no LLM is configured: set OPENAI_API_KEY or OPENAI_BASE_URL", { reason: "not_configured" }),
      );
    }
    return chat.models();
  }

  /** One user's long-term facts; 503 when long-term memory is not configured. */
  facts(userId: string): FactService {
    const facts = this.#d.facts;
    if (!facts) {
      throw new UpstreamUnavailable("vector", "long-term memory is not configured (UPSTASH_VECTOR_REST_URL / _TOKEN)", {
        reason: "not_configured",
      });
    }
    const audited = (action: "fact.update" | "fact.delete", factId: string) => recordAudit(this.#d, action, { userId, factId });
    return new FactService({ facts, scope: { tenant: this.#d.tenant, userId }, options: this.#d.options, now: this.#d.now, audited });
  }

  /** One page of the sessions a user owns, newest activity first. */
  userSessions(userId: string, page: { cursor?: string | undefined; limit?: number | undefined }) {
    return listUserSessions(this.#d, userId, page);
  }

  exportUser(userId: string, cursor?: string) {
    return exportUser(this.#d, userId, cursor);
  }

  eraseUser(userId: string) {
    return eraseUser(this.#d, userId);
  }

  /** One of this tenant's stored turn traces. */
  trace(traceId: string) {
    return readTrace(this.#d, traceId);
  }

  /** The latest trace ids of a session, newest first. */
  recentTraces(sessionId: string, limit: number) {
    return recentTraces(this.#d, sessionId, limit);
  }

  /** The tenant's metrics and alerts. */
  stats() {
    return readStats(this.#d);
  }

  /** Records an event the HTTP edge saw (a token minted, a refusal) in the tenant's audit log. */
  audit(action: AuditAction, target: AuditTarget, details?: AuditEntry["details"]): void {
    recordAudit(this.#d, action, target, details);
  }

  /** The tenant's audit log: entries after `since` (epoch ms), oldest first. */
  auditLog(query: { since: number; limit: number }): Promise<AuditEntry[]> {
    return this.#d.audit.list(this.#d.tenant, query);
  }

  /** Brings back a user's facts from the newest backup (the missing ones; never an erased user's). */
  restoreFacts(userId: string) {
    return restoreFacts(this.#d, userId);
  }
}
