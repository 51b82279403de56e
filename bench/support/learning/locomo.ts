/**
 * @module LoCoMo (snap-research/LoCoMo, `data/locomo10.json`) read as a chat app's history: one
 * speaker is the memory's user, the other the assistant; the questions about that user, turned
 * into first person; and the answer-word score.
 */
import { readFileSync } from "node:fs";

/** One line of a LoCoMo session. */
interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}

interface RawQuestion {
  question: string;
  answer?: string | number;
  evidence?: string[];
  category: number;
}

interface RawConversation {
  sample_id: string;
  qa: RawQuestion[];
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
}

/** One dated session of a conversation. */
export interface DialogueSession {
  index: number;
  /** Epoch ms of the session's date and time (UTC), as the file states it. */
  startsAt: number;
  turns: Turn[];
}

/** A question about one speaker, asked by that speaker in first person. */
export interface DialogueQuestion {
  text: string;
  answer: string;
  category: number;
}

/** One conversation seen from one of its speakers: what they said, to whom, and what they are asked. */
export interface SpeakerView {
  conversation: number;
  user: string;
  other: string;
  sessions: DialogueSession[];
  questions: DialogueQuestion[];
}

/** LoCoMo's question categories (1-4; 5, the adversarial questions without an answer, is left out). */
export const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:56 pm on 8 May, 2023" -> epoch ms (UTC). */
export function parseSessionTime(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable session time: ${text}`);
  const [, hh, mm, ampm, day, month, year] = m;
  const monthIndex = MONTHS.indexOf(month!.toLowerCase());
  if (monthIndex < 0) throw new Error(`unreadable month in: ${text}`);
  const hour = (Number(hh) % 12) + (ampm!.toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(Number(year), monthIndex, Number(day), hour, Number(mm));
}

function sessionsOf(raw: RawConversation): DialogueSession[] {
  const sessions: DialogueSession[] = [];
  for (let i = 1; Array.isArray(raw.conversation[`session_${i}`]); i++) {
    const when = raw.conversation[`session_${i}_date_time`];
    sessions.push({ index: i, startsAt: parseSessionTime(String(when)), turns: raw.conversation[`session_${i}`] as Turn[] });
  }
  return sessions;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A third-person question about `name` in first person: "When did Caroline go ..." -> "When did I
 * go ...", "What is Caroline's job?" -> "What is my job?". Null when the question does not name them.
 */
export function firstPerson(question: string, name: string): string | null {
  const n = escapeRegExp(name);
  if (!new RegExp(`\\b${n}\\b`).test(question)) return null;
  return question
    .replace(new RegExp(`\\b${n}'s\\b`, "g"), "my")
    .replace(new RegExp(`\\b(does|do) ${n}\\b`, "gi"), (_, v: string) => (v[0] === "D" ? "Do I" : "do I"))
    .replace(new RegExp(`\\b(is) ${n}\\b`, "gi"), (_, v: string) => (v[0] === "I" ? "Am I" : "am I"))
    .replace(new RegExp(`\\b(has) ${n}\\b`, "gi"), (_, v: string) => (v[0] === "H" ? "Have I" : "have I"))
    .replace(new RegExp(`\\b(did|was|would|will|could|can|might|should) ${n}\\b`, "gi"), (_, v: string) => `${v} I`)
    .replace(new RegExp(`^${n}\\b`), "I")
    .replace(new RegExp(`\\b(and|or|that|when|where|after|before|while|since|because|if) ${n}\\b`, "g"), (_, w: string) => `${w} I`)
    .replace(new RegExp(`\\b${n}\\b`, "g"), "me");
}

/** Both speakers' views of each conversation in `indices`, with the questions whose evidence that speaker said. */
export function readLocomo(path: string, indices: readonly number[]): SpeakerView[] {
  const all = JSON.parse(readFileSync(path, "utf8")) as RawConversation[];
  const views: SpeakerView[] = [];
  for (const index of indices) {
    const raw = all[index];
    if (!raw) throw new Error(`${path} has no conversation ${index} (it has ${all.length})`);
    const sessions = sessionsOf(raw);
    const speakerOf = new Map(sessions.flatMap((s) => s.turns.map((t) => [t.dia_id, t.speaker] as const)));
    for (const [user, other] of [
      [raw.conversation.speaker_a, raw.conversation.speaker_b],
      [raw.conversation.speaker_b, raw.conversation.speaker_a],
    ] as const) {
      const questions: DialogueQuestion[] = [];
      for (const q of raw.qa) {
        if (!(q.category in CATEGORIES) || q.answer === undefined || !q.evidence?.length) continue;
        // Evidence ids are sometimes written "D8:6; D9:17": split them.
        const evidence = q.evidence.flatMap((e) => e.split(/[;,\s]+/)).filter((e) => e !== "");
        if (!evidence.every((e) => speakerOf.get(e) === user)) continue;
        const text = firstPerson(q.question, user.split(" ")[0]!);
        if (text !== null) questions.push({ text, answer: String(q.answer), category: q.category });
      }
      views.push({ conversation: index, user, other, sessions, questions });
    }
  }
  return views;
}

const STOP = new Set(
  "a an the of in on at to for and or but is are was were be been being by with from as that this these those it its i my me we our you your he she his her they their them what when where who whom which why how did do does not no yes".split(
    " ",
  ),
);

/** The content words of an answer (lower case, no punctuation or stop words). */
export function contentWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !STOP.has(w));
}

/** Share of `answer`'s content words found in `text` (as whole words); null when the answer has none. */
export function answerShare(answer: string, text: string): number | null {
  const words = contentWords(answer);
  if (words.length === 0) return null;
  const present = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return words.filter((w) => present.has(w)).length / words.length;
}
