/**
 * @module Episodes: a learned turn's user messages kept as said, dated by when they were said,
 * beside the facts learned from them, so recall still has the user's own words where a learned
 * rewrite lost them.
 */
import { sha256Hex } from "../hash.ts";
import type { FactScope } from "../ports/facts.ts";
import type { Fact, StoredMessage } from "../model.ts";
import { learnedText } from "./fact-guard.ts";
import { factTextProblem } from "./fact-text.ts";
import { createFact } from "./identity.ts";
import { speaksOfSelf } from "./query-about-user.ts";
import { isFiller } from "./salience.ts";
import type { RedactionCategory } from "./sensitive.ts";

/** Longest episode text; a longer message keeps its head, cut at a sentence end where there is one. */
export const MAX_EPISODE_CHARS = 2000;

/** Letters of a CJK script: each says about as much as a short word. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * Whether a message says enough to be read on its own later: three words, or four CJK
 * characters. "one", "Lisbon." or "me too" are answers only their question makes readable; what
 * they teach the learners keep as facts.
 */
export function saysEnough(text: string): boolean {
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text.replace(CJK, " ").match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return cjk >= 4 || words >= 3;
}

/** Importance of an episode: the middle of the scale, so relevance alone orders them. */
const EPISODE_IMPORTANCE = 0.5;

/**
 * Id of the episode of one message: "f" + 24 hex digits of SHA-256 over tenant, user, session and
 * message id. A retried learning turn writes the same episode again, never a second one; the
 * same words said twice are two episodes (two moments), unlike a fact.
 */
export async function episodeId(scope: FactScope, sessionId: string, messageId: string): Promise<string> {
  return `f${await sha256Hex(`${scope.tenant}\u0000${scope.userId}\u0000episode\u0000${sessionId}\u0000${messageId}`, 12)}`;
}

/** The head of a long text, cut after its last sentence end within the limit when there is one. */
function headOf(text: string): string {
  if (text.length <= MAX_EPISODE_CHARS) return text;
  const head = text.slice(0, MAX_EPISODE_CHARS);
  const end = Math.max(...[". ", "! ", "? ", "。", "！", "？", "\n"].map((mark) => head.lastIndexOf(mark)));
  return `${end > MAX_EPISODE_CHARS / 2 ? head.slice(0, end + 1).trimEnd() : head.trimEnd()}…`;
}

export interface EpisodeInput {
  scope: FactScope;
  sessionId: string;
  /** The turn's messages as the learner read them (already redacted); only user messages become episodes. */
  messages: readonly StoredMessage[];
  /** The agent of the turn; its episodes are its own, like the facts it writes. */
  agentId?: string | undefined;
  redact: readonly RedactionCategory[];
  now: number;
}

/**
 * The episodes of a turn: each user message that says something of the user ({@link saysEnough},
 * {@link speaksOfSelf}, not filler), whitespace collapsed, with what the learners may not keep
 * taken out the same way (secrets, claims of rights or role, instructions to the assistant: such a
 * message is not kept). Created when it was said
 * (`createdAt` = the message's time, never later than now); its lifetime runs from when it was
 * stored, so imported history does not expire on arrival.
 */
export async function episodesOf(input: EpisodeInput): Promise<Fact[]> {
  const episodes: Fact[] = [];
  for (const message of input.messages) {
    if (message.role !== "user") continue;
    const said = message.content.replace(/[ \t]+/g, " ").trim();
    // A reaction, a greeting, a task or a question for the assistant says nothing of the user.
    if (!saysEnough(said) || isFiller(said) || !speaksOfSelf(said) || factTextProblem(said) !== null) continue;
    const text = learnedText(headOf(said), input.redact);
    if (text === null || text === "") continue;
    const id = await episodeId(input.scope, input.sessionId, message.id);
    const draft = {
      text,
      type: "episode" as const,
      importance: EPISODE_IMPORTANCE,
      sourceSession: input.sessionId,
      sourceMessage: message.id,
      ...(input.agentId === undefined ? {} : { agentId: input.agentId }),
    };
    const episode = createFact(id, draft, input.now);
    episode.createdAt = Math.min(input.now, Number.isFinite(message.ts) ? message.ts : input.now);
    episodes.push(episode);
  }
  return episodes;
}
