/** The words recall searches for: the user's references in both persons, and a follow-up with the turns it leans on. */
import { intentQueryText } from "./query-intents.ts";

/** Third-person references to the user, and the first-person words facts are stored in. */
const USER_REFERENCES: readonly (readonly [RegExp, string])[] = [
  [/用户的|使用者的/gu, "我的"],
  [/用户|使用者/gu, "我"],
  [/\bthe user's\b/giu, "my"],
  [/\bthe user\b/giu, "I"],
  [/\buser's\b/giu, "my"],
];

/**
 * The text recall searches for: facts are stored in the user's own first-person words ("我叫小明",
 * "I live in Berlin"), while the model or the client often asks about "the user" ("用户叫什么名字?").
 * Those references become first person, so the words the user would have used are matched.
 */
export function recallQueryText(query: string): string {
  let text = query;
  for (const [pattern, replacement] of USER_REFERENCES) text = text.replace(pattern, replacement);
  return text;
}

/** First person as learned facts name the user ("my sister" is "the user's sister", "我妹妹" is "用户的妹妹"). */
const SELF_REFERENCES: readonly (readonly [RegExp, string])[] = [
  [/我们的|我的/gu, "用户的"],
  [/我(?=妹|姐|哥|弟|妈|爸|老公|老婆|丈夫|妻子|男朋友|女朋友|对象|儿子|女儿|孩子|朋友|同事|室友|老板)/gu, "用户的"],
  [/我们|我/gu, "用户"],
  [/\b(?:my|our)\b/giu, "the user's"],
  [/\b(?:i|me|we|us)\b/giu, "the user"],
  [/\bam\b/giu, "is"],
];

/** A first-person wording about "the user", as learned facts name the user ("my sister" -> "the user's sister"). */
export function thirdPersonText(first: string): string {
  let third = first;
  for (const [pattern, replacement] of SELF_REFERENCES) third = third.replace(pattern, replacement);
  return third;
}

/**
 * The wordings recall searches: {@link recallQueryText} (the user's own first-person words, how
 * persisted messages are stored) and, when it reads differently, the same words about "the user"
 * (how learned facts are stored: "The user's sister Mia lives in Lisbon."). Searched as separate
 * wordings of one request, so neither dilutes the other. A question that asks for a relation facts
 * are keyed by ("What do I do for a living?") adds a third wording with that relation's fact words
 * ({@link intentQueryText}), for facts worded too differently from the question to meet it.
 */
export function recallQueryTexts(query: string): [string, ...string[]] {
  const first = recallQueryText(query);
  const third = thirdPersonText(first);
  const texts: [string, ...string[]] = third === first ? [first] : [first, third];
  const intent = intentQueryText(first);
  if (intent !== null) texts.push(intent);
  return texts;
}

/** The words of several texts as one, each word once, in order (a sparse query reads each word as present or not). */
export function unionWords(texts: readonly string[]): string {
  return [...new Set(texts.flatMap((text) => text.split(/\s+/u)))].filter((word) => word !== "").join(" ");
}

/** What one recall asks the fact store: the wordings its dense part searches, and the one text its sparse part searches. */
export interface RecallQuery {
  /** First the first-person wording (the gate and the script weights are read from it). */
  texts: [string, ...string[]];
  /**
   * Every wording's words in one text: "the user"'s words and the intent's. BM25 weighs a query word
   * by its presence, so this text finds every fact a wording's own sparse query finds, in one query.
   */
  sparseText: string;
}

/**
 * The query parts of a recall (see docs/recall.md, "Query parts"): the wordings of
 * {@link recallQueryTexts} searched densely, and one sparse query of all their words.
 */
export function recallQuery(query: string): RecallQuery {
  const texts = recallQueryTexts(query);
  return { texts, sparseText: unionWords(texts) };
}

/** Longest message, in characters, that may be a follow-up leaning on the conversation before it. */
const FOLLOW_UP_MAX_CHARS = 60;
/** Opens or refers back the way a follow-up does: "and her birthday?", "what about him", "那她的生日呢". */
const FOLLOW_UP_CUE =
  /^\s*(?:and|also|what about|how about|and what about|so)\b|\b(?:she|her|hers|he|him|his|they|them|their|it|its|that|those|there)\b|^\s*(?:那|还有|那么|另外|然后)|[她他它]|那个|那里|这个/iu;

/** Whether `text` is a short follow-up that needs the earlier turns to be understood. */
export function isFollowUp(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= FOLLOW_UP_MAX_CHARS && FOLLOW_UP_CUE.test(t);
}

/** How much earlier conversation a follow-up's recall query takes: messages and characters. */
export const FOLLOW_UP_CONTEXT = { messages: 2, chars: 400 } as const;

/**
 * The recall query of a chat turn: the user's message, and for a short follow-up ("and her
 * birthday?") the last {@link FOLLOW_UP_CONTEXT} user/assistant messages before it too, so the
 * person or thing it refers to is searched for as well. `earlier` is oldest first.
 */
export function turnRecallQuery(latest: string, earlier: readonly { role: string; content: string }[]): string {
  if (!isFollowUp(latest)) return latest;
  const picked: string[] = [];
  let chars = 0;
  for (let i = earlier.length - 1; i >= 0 && picked.length < FOLLOW_UP_CONTEXT.messages; i--) {
    const m = earlier[i]!;
    if ((m.role !== "user" && m.role !== "assistant") || m.content.trim() === "") continue;
    const text = m.content.trim().slice(0, FOLLOW_UP_CONTEXT.chars - chars);
    if (text === "") break;
    picked.unshift(text);
    chars += text.length;
  }
  return [...picked, latest].join("\n");
}
