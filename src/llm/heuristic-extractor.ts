import type { FactExtractor, FactOperation } from "../memory/ports.ts";
import type { Fact, FactType, StoredMessage } from "../memory/types.ts";

interface Cue {
  re: RegExp;
  type: FactType;
  importance: number;
}

/**
 * Cue words that make a user sentence worth remembering, strongest first: on a sentence with
 * several cues the first listed decides the type and importance. Likes and dislikes are
 * preferences; name, home and allergies are facts; everything else is context.
 */
const CUES: readonly Cue[] = [
  { re: /我叫|\bmy name is\b|\bcall me\b/i, type: "fact", importance: 0.9 },
  { re: /\bI(?: am|'m) allergic\b|过敏/i, type: "fact", importance: 0.9 },
  { re: /我住在|\bI live in\b/i, type: "fact", importance: 0.8 },
  { re: /记住|重要|\bremember\b/i, type: "context", importance: 0.8 },
  { re: /偏好|\bI prefer\b/i, type: "preference", importance: 0.75 },
  { re: /喜欢|讨厌|\bI (?:really |don't |do not )?(?:like|love|hate)\b/i, type: "preference", importance: 0.7 },
  { re: /总是|永远|不要|\balways\b|\bnever\b/i, type: "context", importance: 0.65 },
  { re: /我是/, type: "context", importance: 0.6 },
];

/** Questions mention cue words ("你记得我叫什么吗？") without stating anything. */
const QUESTION_RE = /(?:[?？]|[吗呢][。.!！]?)\s*$/;
const MAX_TEXT_CHARS = 500;

/** Splits text into sentences; a `.` only ends one before a space or the end ("3.5" stays whole). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    const next = text[i + 1];
    const ends = "。！？!?；;\n".includes(ch) || (ch === "." && (next === undefined || /\s/.test(next)));
    if (ends) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The strongest cue of a sentence, or null when it is not worth remembering. */
export function classifySentence(sentence: string): { type: FactType; importance: number } | null {
  if (QUESTION_RE.test(sentence)) return null;
  const cue = CUES.find((c) => c.re.test(sentence));
  return cue ? { type: cue.type, importance: cue.importance } : null;
}

const normalize = (text: string): string => text.toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Offline fact extraction (no LLM): user sentences with a cue word become `add` operations,
 * other user messages are skipped, assistant and tool messages are ignored. It never updates:
 * without understanding it cannot tell a contradiction, and ids by content hash already merge
 * repeats. Deterministic: the same messages always give the same operations.
 */
export class HeuristicFactExtractor implements FactExtractor {
  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    const known = new Set(request.existing.map((f) => normalize(f.text)));
    const ops: FactOperation[] = [];
    for (const message of request.messages) {
      if (message.role !== "user") continue;
      let salient = false;
      for (const sentence of splitSentences(message.content)) {
        const cue = classifySentence(sentence);
        if (!cue) continue;
        salient = true;
        const text = sentence.slice(0, MAX_TEXT_CHARS);
        if (known.has(normalize(text))) {
          ops.push({ op: "skip", text });
          continue;
        }
        known.add(normalize(text));
        ops.push({ op: "add", text, type: cue.type, importance: cue.importance });
      }
      if (!salient && message.content.trim()) ops.push({ op: "skip", text: message.content.trim().slice(0, MAX_TEXT_CHARS) });
    }
    return ops;
  }
}
