/** @module Background fact learning: delivers queued facts to long-term memory and applies the extractor's operations. */
import type { TenantDeps } from "../tenant-deps.ts";
import { LlmError } from "../errors.ts";
import { FactService } from "./fact-service.ts";
import type { LearnReport } from "./learn-turn.ts";
import { freshFactId, mergeFact, refreshOf, reinstated } from "./identity.ts";
import type { FactRefresh, FactScope, FactStore, UserStore } from "../ports/facts.ts";
import type { FactExtractor } from "../ports/llm.ts";
import { withLearningLock, type LearningLockDeps } from "./learning-lock.ts";
import type { Fact, StoredMessage } from "../model.ts";

/** Queued facts delivered per background run; the cron delivers what is left. */
const DELIVERY_BATCH = 100;

/** Whether the user was erased at or after `since`: work scheduled before an erase must not undo it. */
const erasedSince = (erasedAt: number | null, since: number): boolean => erasedAt !== null && erasedAt >= since;

/**
 * Delivers facts that appends queued for `scope` to long-term memory. Each is folded into the
 * stored fact holding the same text, if any (a restatement keeps its creation time, uses, history
 * and id; an edited fact is found by the content id of its current text): a restatement that adds
 * nothing and that the store knows unread is a refresh (next version, newer `updatedAt`), the
 * others are read, merged and written in one upsert; then the queue entries are removed. If the
 * user was erased while this ran, what it wrote is deleted again, so an erase always wins. A
 * failure leaves the queue as it was for the next run (or the cron).
 */
export async function deliverPendingFacts(
  deps: { facts: FactStore | null; users: UserStore },
  scope: FactScope,
  startedAt: number,
): Promise<number> {
  const facts = requireFacts(deps);
  const pending = await deps.users.pendingFacts(scope, DELIVERY_BATCH);
  if (pending.length === 0) return 0;
  const matches = await facts.findByContent(
    scope,
    pending.map((f) => ({ contentId: f.contentId ?? f.id, text: f.text })),
    { known: true },
  );
  const refreshes = pending.map((fact, i) => {
    const known = matches[i]?.known;
    return known ? refreshOf(known, fact) : null;
  });
  // A refreshed fact that turns out to be gone is written as new, like one the store does not know.
  const toRefresh = refreshes.filter((r): r is FactRefresh => r !== null);
  const gone = new Set(toRefresh.length > 0 ? await facts.refresh(scope, toRefresh) : []);
  const toRead = pending.flatMap((_, i) => (matches[i]?.known && !refreshes[i] ? [matches[i].known.id] : []));
  const read = new Map((toRead.length > 0 ? await facts.get(scope, toRead) : []).flatMap((f) => (f ? [[f.id, f] as const] : [])));
  const written: Fact[] = [];
  pending.forEach((fact, i) => {
    const match = matches[i];
    const refresh = refreshes[i];
    if (refresh && !gone.has(refresh.id)) return;
    const holder = match?.holder ?? (match?.known ? read.get(match.known.id) : undefined);
    if (holder) written.push(reinstated(mergeFact(holder, fact, fact.updatedAt)));
    // Its content id is the id of a fact edited to another text since: the new fact needs its own.
    else written.push(match?.idTaken && !gone.has(fact.id) ? { ...fact, id: freshFactId(), contentId: fact.contentId ?? fact.id } : fact);
  });
  if (written.length > 0) await facts.upsert(scope, written);
  const { erasedAt } = await deps.users.confirmFacts(scope, pending);
  const ids = [...written.map((f) => f.id), ...refreshes.flatMap((r) => (r && !gone.has(r.id) ? [r.id] : []))];
  if (erasedSince(erasedAt, startedAt)) {
    await facts.delete(scope, ids);
    return 0;
  }
  return ids.length;
}

export interface LearnInput {
  scope: FactScope;
  sessionId: string;
  /**
   * As stored: the assistant message before the new user messages when there is one (context only,
   * so "yes, that one" can be resolved), then the new user messages that are not filler and not
   * persisted. One learning call per append: the extractor sees them all at once.
   */
  messages: StoredMessage[];
  /** When the append that scheduled this ran; an erase after it cancels the learning. */
  scheduledAt: number;
  /**
   * The agent the turn belongs to: learning reads and supersedes only what it sees (its own facts
   * and the shared ones). Absent: a turn of no agent, which sees the shared facts only.
   */
  agentId?: string | undefined;
}

/** What learning from a turn runs on. */
export type LearningDeps = LearningLockDeps &
  Pick<TenantDeps, "extractor" | "fallbackExtractor" | "facts" | "users" | "relationKeys" | "options" | "logger">;

/**
 * Learning after an append: the extractor turns new user messages into fact operations against
 * the most similar existing facts, which are then applied. One user's turns run one at a time
 * (see `withLearningLock`), each also offered the facts the turns before it wrote. Skipped when
 * the user was erased after the append; facts written while an erase ran are deleted again.
 */
export async function learnFromMessages(deps: LearningDeps, input: LearnInput): Promise<LearnReport | null> {
  const { extractor } = deps;
  const facts = requireFacts(deps);
  if (!extractor) return null;
  return withLearningLock(deps, input.scope, input.scheduledAt, async (recentlyWritten) => {
    const report = await learnTurn(deps, facts, extractor, input, recentlyWritten);
    return { result: report, written: report ? [...new Set([...report.added, ...report.updated, ...report.superseded])] : [] };
  });
}

async function learnTurn(
  deps: LearningDeps,
  facts: FactStore,
  extractor: FactExtractor,
  input: LearnInput,
  recentlyWritten: readonly string[],
): Promise<LearnReport | null> {
  const { users, logger } = deps;
  if (erasedSince(await users.erasedAt(input.scope), input.scheduledAt)) return null;
  const service = new FactService({ facts, scope: input.scope, options: deps.options, now: deps.now });
  const turn = { agentId: input.agentId, recentlyWritten, relationKeys: deps.relationKeys };
  const report = await service.learn(extractor, input.messages, input.sessionId, turn).catch((error: unknown) => {
    // Only the extraction call can fail this way, before anything was applied.
    const fallback = deps.fallbackExtractor;
    if (!fallback || !(error instanceof LlmError) || error.kind === "bad_output" || error.kind === "aborted") throw error;
    logger.warn("fact extraction failed upstream; the offline learner takes this turn", { session: input.sessionId, error: error.message });
    return service.learn(fallback, input.messages, input.sessionId, turn);
  });
  // Superseded facts were written too (marked): an erase meanwhile must not find them again.
  const written = [...report.added, ...report.updated, ...report.superseded, ...report.episodes];
  if (written.length > 0 && erasedSince(await users.erasedAt(input.scope), input.scheduledAt)) {
    await facts.delete(input.scope, written);
    return null;
  }
  if (written.length > 0) logger.debug("facts learned", { session: input.sessionId, ...report });
  return report;
}

function requireFacts(deps: { facts: FactStore | null }): FactStore {
  if (!deps.facts) throw new Error("long-term memory is not configured");
  return deps.facts;
}
