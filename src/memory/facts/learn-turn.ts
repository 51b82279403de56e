/** @module One learning turn: the extractor's operations on new messages, checked and applied to the user's facts in one write. */
import { episodesOf } from "./episodes.ts";
import { learnedText, redactedMessages, shownFact } from "./fact-guard.ts";
import { factId, type FactDraft } from "./identity.ts";
import { planLearnedWrites, type LearnedStep } from "./learned-writes.ts";
import { learningFilter, offeredFacts, relationSupersedes, type LearnTurn } from "./learning-view.ts";
import type { MemoryOptions } from "../options.ts";
import { isFiller } from "./salience.ts";
import type { FactExtractor } from "../ports/llm.ts";
import type { FactScope, FactStore } from "../ports/facts.ts";
import { LEARNED_TYPES, type StoredMessage } from "../model.ts";

/** How many of the user's most similar current facts learning offers the extractor. */
export const LEARN_SIMILAR = 8;

export interface LearnReport {
  added: string[];
  updated: string[];
  /** Facts that stopped being true (marked superseded; their replacements are in `added`). */
  superseded: string[];
  skipped: number;
  /** Episodes written: the turn's user messages kept as said (see `episodesOf`). */
  episodes: string[];
}

/** What a learning turn runs on: the user's facts and the options. */
export interface LearnTurnDeps {
  facts: FactStore;
  scope: FactScope;
  options: MemoryOptions;
  /** Clock in ms. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Extracts facts from new messages and applies them: add, update (a new version of the fact, the
 * old text goes to history), supersede (the old fact stops being true: kept, marked, no longer
 * recalled; the new statement is its own fact) or skip. The user's most similar current facts
 * that the turn's agent sees (with what the previous turns wrote) are given to the extractor so
 * it can tell these apart; an operation naming a fact it was not given is skipped. A statement of
 * a single-valued relation supersedes every current fact of it that was given. Facts it writes
 * record the extractor's version (`metadata.learnedBy`).
 */
export async function learnTurn(
  deps: LearnTurnDeps,
  extractor: FactExtractor,
  said: StoredMessage[],
  sourceSession: string,
  turn: LearnTurn = {},
): Promise<LearnReport> {
  const { facts, scope } = deps;
  const { redact } = deps.options;
  // Secrets never reach a learner (nor an LLM): neither in the messages nor in the facts offered.
  const messages = redactedMessages(said, redact);
  const report: LearnReport = { added: [], updated: [], superseded: [], skipped: 0, episodes: [] };
  const userText = messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  if (userText.trim() === "") return report;
  // Only what the turn's agent sees; what the previous turns wrote is read by id beside the query.
  const filter = learningFilter(turn.agentId);
  const recent = [...(turn.recentlyWritten ?? [])];
  const [similar, readBack] = await Promise.all([
    // Episodes are never rewritten or superseded: the extractor is offered learned facts only.
    facts.query(scope, { text: userText.slice(0, 2000), topK: LEARN_SIMILAR, types: [...LEARNED_TYPES], filter }),
    recent.length > 0 ? facts.get(scope, recent) : Promise.resolve([]),
  ]);
  const existing = offeredFacts(
    similar.candidates.map((s) => s.fact),
    readBack,
    filter,
  ).filter((f) => f.type !== "episode");
  // The extractor sees them redacted; the writes below change the stored facts themselves.
  const offered = existing.flatMap((f) => shownFact(f, redact) ?? []);
  const operations = await extractor.extract({ messages, existing: offered });
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const metadata = extractor.version === undefined ? undefined : { learnedBy: extractor.version };
  const steps: LearnedStep[] = [];
  for (const op of operations) {
    // Whatever the extractor says, filler ("Remember that.", "ok") never becomes a memory.
    const current = op.op === "update" || op.op === "supersede" ? existing.find((f) => f.id === op.id) : undefined;
    // Nor does a secret, a claim of rights or role, or an instruction to the assistant.
    const text = op.op === "skip" ? null : learnedText(op.text, redact);
    if (op.op === "skip" || text === null || isFiller(text) || (op.op !== "add" && !current)) {
      report.skipped += 1;
      continue;
    }
    const draft: FactDraft = {
      text,
      // a learner states facts; an episode is only ever the user's own message
      type: op.type === "episode" ? "experience" : op.type,
      importance: op.importance,
      sourceSession,
      sourceMessage: lastUser?.id,
      ...(metadata ? { metadata } : {}),
    };
    // an update keeps the fact's agent; learned statements are shared facts
    const contentId = await factId(scope, draft.text, op.op === "update" ? current?.agentId : undefined);
    steps.push(op.op === "add" ? { op: "add", draft, contentId } : { op: op.op, draft, contentId, current: current! });
  }
  steps.push(...relationSupersedes(steps, existing, turn.relationKeys));
  const now = (deps.now ?? Date.now)();
  const episodes = deps.options.episodes
    ? await episodesOf({ scope, sessionId: sourceSession, messages, agentId: turn.agentId, redact, now })
    : [];
  if (steps.length === 0 && episodes.length === 0) return report;
  const unique = [...new Map(steps.map((s) => [s.contentId, s.draft.text])).entries()];
  const found =
    unique.length === 0
      ? []
      : await facts.findByContent(
          scope,
          unique.map(([contentId, text]) => ({ contentId, text })),
        );
  const matches = new Map(unique.map(([contentId], i) => [contentId, found[i] ?? { holder: null, idTaken: false }]));
  // One upsert for the whole turn, its episodes included; a delete (an update folded into the
  // fact that already says it) comes after, so a failure between leaves an extra fact, never a lost one.
  const planned = planLearnedWrites(steps, matches, now);
  const upserts = [...planned.upserts, ...episodes];
  if (upserts.length > 0) await facts.upsert(scope, upserts);
  if (planned.deletes.length > 0) await facts.delete(scope, planned.deletes);
  report.episodes = episodes.map((e) => e.id);
  for (const outcome of planned.outcomes) {
    if (outcome.kind === "skipped") report.skipped += 1;
    else if (outcome.kind === "added") report.added.push(outcome.id);
    else if (outcome.kind === "updated") report.updated.push(outcome.id);
    else {
      report.added.push(outcome.by);
      report.superseded.push(outcome.id);
    }
  }
  return report;
}
