/** @module Heuristic salience of user statements: cue words (English and Chinese) decide whether, and as what type, to remember. */
import type { FactType } from "../model.ts";

/** What a statement looks like as a memory: worth keeping, of which type, how important. */
export interface Salience {
  salient: boolean;
  type: FactType;
  /** Suggested importance, 0..1. */
  importance: number;
  /** The cue groups that matched, for logs and tests. */
  cues: string[];
}

interface CueGroup {
  name: string;
  type: FactType | null;
  importance: number;
  pattern: RegExp;
}

// Latin cues need word boundaries; Chinese has none, so its cues match as substrings.
const GROUPS: CueGroup[] = [
  {
    name: "health",
    type: "fact",
    importance: 0.9,
    pattern: /过敏|忌口|不能吃|\b(?:allergic|allergy|intolerant)\b/u,
  },
  {
    name: "preference",
    type: "preference",
    importance: 0.7,
    pattern:
      /偏好|喜欢|爱吃|讨厌|最爱|习惯用|不要用|别用|\bi (?:really )?(?:prefer|like|love|hate|dislike|enjoy)\b|\bi (?:don't|do not) like\b|\bmy favou?rite\b/u,
  },
  {
    name: "identity",
    type: "fact",
    importance: 0.8,
    pattern:
      /我叫|我的名字|我是|我住在|我来自|我在.{1,12}工作|\bmy name is\b|\bcall me\b|\bi am\b|\bi'm\b|\bi live\b|\bi work\b|\bi come from\b/u,
  },
  {
    name: "emphasis",
    type: null,
    importance: 0.8,
    pattern: /记住|别忘|不要忘|重要|总是|永远|从不|一定要|务必|\b(?:remember|important|always|never|don't forget|make sure)\b/u,
  },
  {
    name: "context",
    type: "context",
    importance: 0.4,
    pattern: /今天|明天|这周|本周|目前|现在|正在|这次|\b(?:today|tomorrow|tonight|this week|currently|right now|at the moment)\b/u,
  },
];

/** Sentences of Chinese or English text; decimals such as 3.5 stay whole. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[。！？；…])|(?<=[.!?;])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A question mentions cue words ("你记得我叫什么吗？", "do you remember my name?") without stating anything. */
const QUESTION = /(?:[?？]|[吗呢][。.!！]?)\s*$/u;

const FIRST_PERSON = /我|\b(?:i|i'm|i've|my|me|we|our)\b/u;

/**
 * Words that carry no memory on their own: acknowledgements, greetings, pointers ("that", "这个")
 * and the emphasis cues themselves. A statement made only of them ("Remember that.", "ok",
 * "你好", "记住这个") is filler.
 */
const FILLER_WORDS =
  /\b(?:please|pls|ok|okay|k|yes|yeah|yep|no|nope|sure|thanks|thank you|thx|hi|hello|hey|bye|good (?:morning|night|evening)|got it|cool|great|fine|that|this|it|that's|those|these|remember|don't forget|make sure|important|always|never|well|so|and|oh|ah|hmm|um|lol)\b|你好|您好|谢谢|好的|好吧|好|嗯|哦|啊|行|可以|收到|明白|知道了|再见|拜拜|请|记住|别忘了|别忘|不要忘了|不要忘|务必|一定要|重要|这个|那个|这些|那些|这|那|吧|了|呢|吗|的/gu;

/** Whether nothing but filler is left once the filler words and punctuation are gone. */
export function isFiller(text: string): boolean {
  const rest = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019]/gu, "'")
    .replace(FILLER_WORDS, " ")
    .replace(/[\p{P}\p{S}\s]+/gu, "");
  return rest.length < 2;
}

const NOT_SALIENT: Salience = { salient: false, type: "context", importance: 0.3, cues: [] };

/**
 * Heuristic salience of a user statement (no LLM): cue words for preferences, identity, health,
 * emphasis and passing context; a question or filler ({@link isFiller}) is never salient. Type precedence: preference, then
 * fact (identity, health, emphasis), then context. Emphasis raises importance by 0.1.
 */
export function isSalient(text: string): Salience {
  const normalized = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019]/gu, "'");
  if (QUESTION.test(normalized.trim()) || isFiller(normalized)) return NOT_SALIENT;
  const matched = GROUPS.filter((g) => g.pattern.test(normalized));
  if (matched.length === 0) return NOT_SALIENT;
  // "今天天气不错" names a time but says nothing about the user: passing context needs a speaker.
  if (matched.every((g) => g.name === "context") && !FIRST_PERSON.test(normalized)) return NOT_SALIENT;

  const has = (name: string) => matched.some((g) => g.name === name);
  const type: FactType = has("preference") ? "preference" : has("health") || has("identity") || has("emphasis") ? "fact" : "context";
  const weights = matched.filter((g) => g.name !== "emphasis").map((g) => g.importance);
  const base = weights.length > 0 ? Math.max(...weights) : 0.5;
  const importance = Math.min(0.95, has("emphasis") ? Math.max(base + 0.1, 0.8) : base);
  return { salient: true, type, importance: Math.round(importance * 100) / 100, cues: matched.map((g) => g.name) };
}
