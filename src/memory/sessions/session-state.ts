/** @module Session inspection and control: read state, change settings, reset, compress now, read summary history. */
import type { TenantDeps } from "../tenant-deps.ts";
import { compressSessionWindow } from "./append.ts";
import type { CompressionDeps } from "../compression/pass.ts";
import type { CompressResult } from "./requests.ts";
import { resolveSessionOptions } from "../options.ts";
import type { HistoryPage, ResetResult, SettingsChange } from "../ports/sessions.ts";
import type { SessionSettings, StoredMessage, Summary } from "../model.ts";
import { windowStats, type WindowStats } from "../context/window.ts";

/** A session as a client inspects it: effective settings, stats, summary and messages. */
export interface SessionState {
  sessionId: string;
  exists: boolean;
  userId: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  settings: { window: number; maxTokens: number; keep: number; ttlSeconds: number; overrides: SessionSettings };
  stats: WindowStats;
  summary: Summary | null;
  system: StoredMessage[];
  /** One page of the window, oldest first. */
  window: StoredMessage[];
  /** Where the page sits in the window; `next` is the offset of the next page, null at the end. */
  page: { offset: number; limit: number; total: number; next: number | null };
}

/** What reading or changing a session's state runs on. */
type SessionStateDeps = Pick<TenantDeps, "tenant" | "sessions" | "options">;

/** Window messages a session read shows when the caller names no page size. */
export const SESSION_PAGE_LIMIT = 200;

/**
 * One round trip: the session with its settings resolved over the defaults, its stats from the
 * running totals, and one page of the window (`offset` from the oldest message).
 */
export async function sessionState(
  deps: SessionStateDeps,
  sessionId: string,
  page: { offset?: number | undefined; limit?: number | undefined } = {},
): Promise<SessionState> {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? SESSION_PAGE_LIMIT;
  const snapshot = await deps.sessions.readPage({ tenant: deps.tenant, sessionId }, { offset, limit });
  const total = snapshot.windowCount ?? snapshot.window.length;
  const effective = resolveSessionOptions(deps.options, snapshot.settings);
  return {
    sessionId,
    exists: snapshot.exists,
    userId: snapshot.meta?.userId ?? null,
    createdAt: snapshot.meta?.createdAt ?? null,
    updatedAt: snapshot.meta?.updatedAt ?? null,
    settings: {
      window: effective.window,
      maxTokens: effective.maxTokens,
      keep: effective.keep,
      ttlSeconds: effective.sessionTtlSeconds,
      overrides: snapshot.settings,
    },
    stats: windowStats(snapshot, effective),
    summary: snapshot.summary,
    system: snapshot.system,
    window: snapshot.window,
    page: { offset, limit, total, next: offset + limit < total ? offset + limit : null },
  };
}

/** Changes the named per-session settings in one atomic step (others keep theirs), then reads back. */
export async function updateSessionSettings(deps: SessionStateDeps, sessionId: string, change: SettingsChange): Promise<SessionState> {
  await deps.sessions.updateSettings({ tenant: deps.tenant, sessionId }, change, deps.options.sessionTtlSeconds);
  return sessionState(deps, sessionId);
}

/** A `/clear`: the window, summary, archive and working memory go; the owner and settings stay. */
export function resetSession(deps: Pick<TenantDeps, "tenant" | "sessions">, sessionId: string, keepSystem: boolean): Promise<ResetResult> {
  return deps.sessions.reset({ tenant: deps.tenant, sessionId }, { keepSystem });
}

/** Compresses now: below the threshold nothing happens unless forced. */
export function compressSession(
  deps: CompressionDeps & Pick<TenantDeps, "tenant" | "metrics">,
  sessionId: string,
  force: boolean,
): Promise<CompressResult> {
  return compressSessionWindow(deps, { ref: { tenant: deps.tenant, sessionId }, userId: undefined }, { force });
}

/** The summary and one page of the archived originals it replaced. */
export function sessionHistory(
  deps: Pick<TenantDeps, "tenant" | "sessions">,
  sessionId: string,
  page: { offset: number; limit: number },
): Promise<HistoryPage> {
  return deps.sessions.history({ tenant: deps.tenant, sessionId }, page);
}
