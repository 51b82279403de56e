/** @module Appending to a session in one round trip, and what follows an append: fact delivery, learning, compression. */
import { compressionDueFor, runCompressionPass, type CompressionDeps } from "../compression/pass.ts";
import { toStoredMessage } from "../context/window.ts";
import { deliverPendingFacts, learnFromMessages, type LearningDeps } from "../facts/learning.ts";
import { factsToPersist } from "../facts/persisted-messages.ts";
import { isFiller } from "../facts/salience.ts";
import type { IncomingMessage, SessionSnapshot, StoredMessage } from "../model.ts";
import { NO_METRICS } from "../observe/metrics.ts";
import { NO_TRACE, timed } from "../observe/trace.ts";
import { resolveSessionOptions } from "../options.ts";
import type { FactScope } from "../ports/facts.ts";
import type { AppendOptions, AppendResult, WindowBound } from "../ports/sessions.ts";
import type { TenantDeps } from "../tenant-deps.ts";
import { checkMessages, datedMessages, messageTimes, type MessageSource } from "./message-rules.ts";
import type { AddResult, CompressResult, SessionTarget } from "./requests.ts";
import { sessionTitle } from "./session-list.ts";

/** What an append and the work that follows it run on. */
export type AppendDeps = LearningDeps &
  CompressionDeps &
  Pick<TenantDeps, "tenant" | "sessions" | "users" | "facts" | "extractor" | "limits" | "newId" | "background" | "trace" | "metrics">;

/** Options of one append. */
export interface AddOptions {
  /** Also store every user message of the batch as a fact. Default false (per-message `persist`). */
  persist?: boolean | undefined;
  /** The batch's system messages replace differing pinned ones (a client that owns its prompt). */
  replaceSystem?: boolean | undefined;
  /** Leave compression to a later write of the same request (a chat turn stores its reply next). */
  deferCompression?: boolean | undefined;
  /** Fact ids this request recalled; counted in the same atomic step as the append. */
  recalled?: readonly string[] | undefined;
  /** The chat turn this write belongs to (see `AppendOptions.turn`). */
  turn?: AppendOptions["turn"];
  /** See `AppendOptions.unlessErasedSince`. */
  unlessErasedSince?: number | undefined;
  /** See `AppendOptions.retryTag`: a client's automatic retry of a failed request stores nothing twice. */
  retryTag?: string | undefined;
  /** The batch is the model's reply: stored whole, whatever `maxMessageChars` (see `checkMessages`). Default "client". */
  source?: MessageSource | undefined;
}

/** An append as the store answered it, and as the use case reports it. */
export interface Appended {
  appended: AppendResult;
  result: Omit<AddResult, "stats">;
}

/** Where the target's facts live; null without a user or a fact store. */
const factScope = (deps: Pick<TenantDeps, "tenant" | "facts">, userId: string | undefined): FactScope | null =>
  deps.facts && userId ? { tenant: deps.tenant, userId } : null;

/**
 * One append in one round trip; with `bound`, the store also returns the bounded snapshot a
 * context is built from. The owner check runs first inside the store's atomic step, so a write
 * naming another user changes nothing; persisted user messages are queued as facts in that same
 * step and delivered to long-term memory right after the response.
 */
export async function appendToSession(
  deps: AppendDeps,
  target: SessionTarget,
  messages: IncomingMessage[],
  options: AddOptions,
  bound: WindowBound | undefined,
): Promise<Appended> {
  checkMessages(messages, deps.limits, options.source);
  const { sessions, options: defaults } = deps;
  const { ref, userId } = target;
  const counter = await deps.counter();
  const now = deps.now();
  const times = messageTimes(messages, now);
  const stored = messages.map((m, i) => ({ ...toStoredMessage(m, { counter, now, newId: deps.newId }), ts: times[i] ?? now }));
  const scope = factScope(deps, userId);
  const persistAll = options.persist === true;
  const persisting = { persistAll, sessionId: ref.sessionId, now, redact: defaults.redact };
  const facts = scope ? await factsToPersist({ scope, incoming: messages, stored, ...persisting }) : [];
  const appended = await timed(
    deps.trace ?? NO_TRACE,
    "redis.append",
    deps.now,
    sessions.append(ref, stored, {
      userId,
      ttlSeconds: defaults.sessionTtlSeconds,
      withSnapshot: bound,
      replaceSystem: options.replaceSystem,
      facts,
      recalled: scope ? options.recalled : undefined,
      turn: options.turn,
      title: sessionTitle(messages),
      retryTag: options.retryTag,
      unlessErasedSince: options.unlessErasedSince,
      dated: datedMessages(messages),
    }),
  );
  const fresh = appended.added.filter((a) => !a.duplicate);
  const metrics = deps.metrics ?? NO_METRICS;
  metrics.sessionGrew(ref.sessionId, fresh.length);
  metrics.count(
    "tokens",
    fresh.reduce((sum, a) => sum + a.tokens, 0),
  );
  const compressionDue = compressionDueFor(appended.totals, resolveSessionOptions(defaults, appended.settings));
  const result = {
    added: appended.added,
    compressionDue,
    facts: facts.map((f) => f.id),
    ...(options.turn ? { outcome: appended.outcome ?? null } : {}),
  };
  const followUp = { stored, result, persistAll, deferCompression: options.deferCompression === true, now };
  afterAppend(deps, target, messages, followUp, appended.snapshot);
  return { appended, result };
}

/**
 * Folds the window prefix into the rolling summary when the window is over its token threshold
 * (or when forced); see `runCompressionPass`.
 */
export function compressSessionWindow(
  deps: CompressionDeps & Pick<TenantDeps, "metrics">,
  target: SessionTarget,
  flags: { force?: boolean | undefined } = {},
): Promise<CompressResult> {
  return runCompressionPass(deps, target.ref, deps.metrics ?? NO_METRICS, flags);
}

/** What one append stored and decided, for the work that follows it. */
interface AppendFollowUp {
  stored: readonly StoredMessage[];
  result: Omit<AddResult, "stats">;
  persistAll: boolean;
  deferCompression: boolean;
  now: number;
}

/** Schedules what follows an append: delivery of queued facts, learning, compression. */
function afterAppend(
  deps: AppendDeps,
  target: SessionTarget,
  incoming: readonly IncomingMessage[],
  followUp: AppendFollowUp,
  snapshot: SessionSnapshot | undefined,
): void {
  const { stored, result, persistAll, deferCompression, now } = followUp;
  const { background, logger } = deps;
  const session = target.ref.sessionId;
  const scope = factScope(deps, target.userId);
  if (scope && result.facts.length > 0) background(deliverPendingFacts(deps, scope, now));
  if (result.compressionDue && !deferCompression) {
    background(compressSessionWindow(deps, target).then((outcome) => logger.debug("background compression", { session, ...outcome })));
  }
  if (!scope || !deps.extractor) return;
  // Every user message reaches the learner, which decides what is worth keeping, except filler
  // (a greeting, an acknowledgement, an emoji: never a memory, so not worth a Vector query or an
  // LLM call), persisted messages (facts already, as sent) and duplicates (learned the first time).
  const fresh = stored.filter((m, i) => {
    const sent = incoming[i];
    const added = result.added[i];
    return m.role === "user" && sent && !sent.persist && !persistAll && added && !added.duplicate && !isFiller(m.content);
  });
  if (fresh.length === 0) return;
  const context = assistantBefore(fresh[0]!, stored, snapshot);
  const messages = context ? [context, ...fresh] : fresh;
  background(learnFromMessages(deps, { scope, sessionId: session, messages, scheduledAt: now }));
}

/**
 * The assistant message right before `first` (the first new user message), for the learner's
 * context: from the batch, else from the window the append returned (a chat turn's). Undefined when
 * neither holds one (a plain append reads nothing more for it).
 */
function assistantBefore(
  first: StoredMessage,
  batch: readonly StoredMessage[],
  snapshot: SessionSnapshot | undefined,
): StoredMessage | undefined {
  const before = (list: readonly StoredMessage[]): StoredMessage | undefined => {
    const at = list.findIndex((m) => m.id === first.id);
    if (at <= 0) return undefined;
    const previous = list
      .slice(0, at)
      .filter((m) => m.role !== "system")
      .at(-1);
    return previous?.role === "assistant" && previous.content.trim() !== "" ? previous : undefined;
  };
  return before(batch) ?? (snapshot ? before(snapshot.window) : undefined);
}
