/**
 * @module What may become a fact and what a recalled fact may show: secrets redacted (sensitive.ts),
 * claims and instructions never learned (claims.ts), a fact that would say only a secret not kept.
 */
import { claimKind } from "./claims.ts";
import { REDACTED, redactSensitive, type RedactionCategory } from "./sensitive.ts";
import type { Fact, RecallCandidate, StoredMessage } from "../model.ts";

/** Clause boundaries: punctuation, and the conjunctions that join two statements. */
const CLAUSE_BREAK = /(\s*[,;，；、]\s*|\s+(?:and|but|while|whereas)\s+|(?<=[.!?。！？])\s+|(?<=[。！？])|并且|而且|同时)/u;

/**
 * The text without its clauses that hold a redacted secret: "The user lives in Lyon and their
 * password is [redacted]." -> "The user lives in Lyon."; "" when every clause held one (the text
 * says nothing but the secret).
 */
export function withoutRedactedClauses(text: string): string {
  if (!text.includes(REDACTED)) return text;
  const parts = text.split(CLAUSE_BREAK);
  let kept = "";
  for (let i = 0; i < parts.length; i += 2) {
    const clause = parts[i] ?? "";
    if (clause.trim() === "" || clause.includes(REDACTED)) continue;
    kept += kept === "" ? clause : `${parts[i - 1] ?? " "}${clause}`;
  }
  kept = kept.trim().replace(/[\s,;，；、]+$/u, "");
  if (kept === "" || !/[\p{L}\p{N}]/u.test(kept)) return "";
  const end = /[.!?。！？]$/u.exec(text.trim())?.[0];
  if (end && !/[.!?。！？]$/u.test(kept)) kept += end;
  // a clause that followed a conjunction may start in lower case
  return /^[A-Z]/u.test(text.trim()) ? kept.charAt(0).toUpperCase() + kept.slice(1) : kept;
}

/** A text a client asked to store, redacted; `onlySecret` when nothing but the secret would be left. */
export interface GuardedText {
  text: string;
  onlySecret: boolean;
}

/** Redacts a text written as a fact (API, MCP, import, `persist`): the rest is stored as said. */
export function redactFactText(text: string, categories: readonly RedactionCategory[]): GuardedText {
  const redacted = redactSensitive(text, categories).text;
  return { text: redacted, onlySecret: redacted.includes(REDACTED) && withoutRedactedClauses(redacted) === "" };
}

/**
 * The text a learner's operation may store, or null when it must be skipped: a claim of rights,
 * access or role, or an instruction to the assistant; or nothing left once the clauses holding a
 * secret (redacted now, or already `[redacted]` in what the learner read) are taken out.
 */
export function learnedText(text: string, categories: readonly RedactionCategory[]): string | null {
  if (claimKind(text) !== null) return null;
  if (categories.length === 0) return text;
  const kept = withoutRedactedClauses(redactSensitive(text, categories).text).trim();
  return kept === "" ? null : kept;
}

/** Messages as a learner may read them: every secret replaced before it reaches the extractor (or an LLM). */
export function redactedMessages(messages: readonly StoredMessage[], categories: readonly RedactionCategory[]): StoredMessage[] {
  if (categories.length === 0) return [...messages];
  return messages.map((m) => {
    const { text, found } = redactSensitive(m.content, categories);
    return found.length === 0 ? m : { ...m, content: text };
  });
}

/**
 * A stored fact as it may be shown (recalled into a context, offered to a learner): its text
 * redacted, or null when it says nothing but a secret. Facts stored before redaction was on, or
 * while it was off, never show their secret while it is on.
 */
export function shownFact(fact: Fact, categories: readonly RedactionCategory[]): Fact | null {
  if (categories.length === 0) return fact;
  const { text, found } = redactSensitive(fact.text, categories);
  if (found.length === 0 && !fact.text.includes(REDACTED)) return fact;
  if (withoutRedactedClauses(text) === "") return null;
  return found.length === 0 ? fact : { ...fact, text };
}

/** {@link shownFact} over recall candidates: redacted, and those that only hold a secret left out. */
export function shownCandidates(candidates: readonly RecallCandidate[], categories: readonly RedactionCategory[]): RecallCandidate[] {
  if (categories.length === 0) return [...candidates];
  return candidates.flatMap((c) => {
    const fact = shownFact(c.fact, categories);
    return fact ? [fact === c.fact ? c : { ...c, fact }] : [];
  });
}
