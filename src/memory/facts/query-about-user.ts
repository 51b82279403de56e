/**
 * @module Whether a query is about the user: a first-person word of the asker's own ("my sister",
 * "where do I live", "我的生日", "我们去哪儿") outside the words that only address the assistant ("tell
 * me", "help me", "how do I", "帮我", "给我") and outside the text a task works on (quoted text,
 * what follows a colon). A query that is not about the user ("Translate good morning into Spanish",
 * "帮我写一封道歉邮件") must match a memory more closely before recall injects it (relevance.ts). A
 * message that does not speak of its author is not kept as an episode (episodes.ts).
 */

/**
 * Text a task operates on: quoted passages, and everything after a colon ("Proofread: I has ...").
 * A straight single quote opens a quotation only after a space, so "what's my husband's job" stays.
 */
const PAYLOAD = /"[^"]*"|“[^”]*”|‘[^’]*’|«[^»]*»|「[^」]*」|『[^』]*』|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])|[:：][\s\S]*$/gu;

/**
 * English words addressing the assistant: the asker as the receiver of a service ("give me a
 * synonym", "remind me to ...") or a how-to in the generic first person ("how do I undo a commit").
 */
const ASSISTANT_FRAME_EN = /\b(?:help|tell|give|show|remind|let)\s+me\b|\bhow\s+(?:do|can|should|would|could)\s+i\b/giu;

/** Chinese words addressing the assistant: 帮我 / 给我 / 提醒我 ... (but not 给我们, 给我的). */
const ASSISTANT_FRAME_ZH = /(?:帮|给|叫|提醒|告诉|教|替|让|跟)我(?![们的])/gu;

/** English first person ("I'm" holds the word "I"; "us" only in lower case, not "US"). */
const FIRST_PERSON_EN = /\b(?:i|me|my|mine|myself|we|our|ours|ourselves)\b/iu;
const US_LOWER = /\bus\b/u;
const FIRST_PERSON_ZH = /我|咱|俺|自己|本人/u;

/**
 * Whether `query` speaks about the one asking: a first-person word outside assistant-addressing
 * frames and task payloads. Follows the recall query text, where "the user" already reads as the
 * first person (recall-query.ts). Used to choose the gate, never to rank.
 */
export function queryAboutUser(query: string): boolean {
  return speaksOfSelf(query.normalize("NFKC").replace(PAYLOAD, " "));
}

/**
 * Whether a message speaks of its author: a first-person word outside the frames that address the
 * assistant ("I went to Woodhaven", "我们搬家了"; not "Tell me a joke", "How do I undo a commit?",
 * "Nice weather today!"). Unlike {@link queryAboutUser} the whole text counts: what follows a
 * colon in a message is what the user says ("Guess what: I got the job!").
 */
export function speaksOfSelf(message: string): boolean {
  const text = message.normalize("NFKC");
  if (FIRST_PERSON_ZH.test(text.replace(ASSISTANT_FRAME_ZH, " "))) return true;
  const latin = text.replace(ASSISTANT_FRAME_EN, " ");
  return FIRST_PERSON_EN.test(latin) || US_LOWER.test(latin);
}
