// The offline learner: statements about the user and their world in a conversation, as canonical fact operations (no LLM, deterministic).
import { normalizeFactText, isFiller, splitSentences } from "../../memory/facts/index.ts";
import type { FactOperation } from "../../memory/ports/index.ts";
import type { Fact, StoredMessage } from "../../memory/model.ts";
import { chineseClauses } from "./chinese.ts";
import { englishClauses, type Clause } from "./english.ts";
import { classify } from "./kinds.ts";
import { keyOf, relationKey } from "./relation-key.ts";

const MAX_TEXT_CHARS = 500;
const HAN = /\p{Script=Han}/u;

/** Relations that hold one value at a time; others (a health condition, an undated plan, "is a ...") can hold several. */
const isSingleValued = (relation: string): boolean => relation !== "health" && relation !== "plan" && !relation.startsWith("is-a:");

/** Relations a future date turns into a plan. */
const PLANNABLE = new Set(["home", "job", "employer", "study"]);

/** Canonical clauses of one message: each sentence read as Chinese or English by its script. */
export function learnClauses(text: string, ts: number): Clause[] {
  const clauses: Clause[] = [];
  for (const sentence of splitSentences(text)) {
    if (isFiller(sentence)) continue;
    clauses.push(...(HAN.test(sentence) ? chineseClauses(sentence, ts) : englishClauses(sentence, ts)));
  }
  return clauses;
}

/** Keys a fact's text states: the text itself when canonical, else the clauses the learner reads in it (`ts` resolves their dates). */
function keysOfText(text: string, ts: number): string[] {
  const own = relationKey(text);
  if (own) return [keyOf(own)];
  if (/^(?:the user|用户)/iu.test(text.trim())) return [];
  return learnClauses(text, ts).flatMap((c) => {
    const key = relationKey(c.text);
    return key ? [keyOf(key)] : [];
  });
}

const keysOfFact = (fact: Fact): string[] => keysOfText(fact.text, fact.createdAt);

/** The relation of a key (`user.sister:home` -> `home`). */
const relationOf = (key: string): string => key.slice(key.indexOf(":") + 1);

/**
 * The one single-valued relation key a fact's text states (`user:home` for "The user lives in
 * Rome."), or null when it states none, only relations that hold several values, or more than one.
 */
export function singleValuedKey(text: string, ts: number): string | null {
  const keys = [...new Set(keysOfText(text, ts))].filter((k) => isSingleValued(relationOf(k)));
  return keys.length === 1 ? keys[0]! : null;
}

/** Canonical texts an existing fact says, to tell a restatement from news. */
function textsOfFact(fact: Fact): string[] {
  const canonical = /^(?:the user|用户)/iu.test(fact.text.trim()) ? [] : learnClauses(fact.text, fact.createdAt).map((c) => c.text);
  return [fact.text, ...canonical].map(normalizeFactText);
}

/**
 * Operations for the user's new messages against their most similar stored facts: a clause an
 * existing fact already says is skipped; one with the subject and relation of existing facts
 * (single-valued relations: name, home, job, a like of one thing, ...) supersedes every one of
 * them (one operation each: a race may have left several current); the rest are added. Within one
 * batch the later of two clauses with one key wins. Messages with nothing to learn become one
 * skip each.
 */
export function learnOperations(messages: readonly StoredMessage[], existing: readonly Fact[]): FactOperation[] {
  const known = new Set(existing.flatMap(textsOfFact));
  const byKey = new Map<string, Fact[]>();
  for (const fact of existing) {
    for (const key of new Set(keysOfFact(fact))) {
      const holders = byKey.get(key) ?? [];
      if (!holders.some((f) => f.id === fact.id)) holders.push(fact);
      byKey.set(key, holders);
    }
  }

  const ops: FactOperation[] = [];
  /** Per key, the operations of the batch's latest clause with it (a later clause turns them into skips). */
  const batchKeys = new Map<string, number[]>();
  for (const message of messages) {
    if (message.role !== "user") continue;
    const clauses = learnClauses(message.content, message.ts);
    if (clauses.length === 0 && message.content.trim()) ops.push({ op: "skip", text: message.content.trim().slice(0, MAX_TEXT_CHARS) });
    for (const clause of clauses) {
      const text = clause.text.slice(0, MAX_TEXT_CHARS);
      const normalized = normalizeFactText(text);
      if (known.has(normalized)) {
        ops.push({ op: "skip", text });
        continue;
      }
      known.add(normalized);
      const stated = relationKey(text);
      // A dated move or new job still ahead is a plan: it must not end the current home or job.
      const key =
        stated && clause.future && PLANNABLE.has(stated.kind)
          ? { ...stated, relation: `plan:${stated.relation}`, kind: "plan" as const }
          : stated;
      const { type, importance } = classify(text, key, clause);
      const single = key && isSingleValued(key.relation) ? keyOf(key) : null;
      const stale = single !== null ? (byKey.get(single) ?? []) : [];
      const clauseOps: FactOperation[] =
        stale.length > 0
          ? stale.map((fact) => ({ op: "supersede", id: fact.id, text, type, importance }))
          : [{ op: "add", text, type, importance }];
      if (single !== null) {
        for (const earlier of batchKeys.get(single) ?? []) ops[earlier] = { op: "skip", text: (ops[earlier] as { text: string }).text };
        batchKeys.set(
          single,
          clauseOps.map((_, i) => ops.length + i),
        );
      }
      ops.push(...clauseOps);
    }
  }
  return ops;
}
