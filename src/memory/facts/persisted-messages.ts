/** @module Turns user messages flagged `persist` into facts with content ids, type and importance from salience cues. */
import { MemoryError } from "../errors.ts";
import { redactFactText } from "./fact-guard.ts";
import { factTextProblem } from "./fact-text.ts";
import { createFact, factId, type FactDraft } from "./identity.ts";
import { REDACTION_CATEGORIES, type RedactionCategory } from "./sensitive.ts";
import type { FactScope } from "../ports/facts.ts";
import { isSalient } from "./salience.ts";
import type { Fact, IncomingMessage, StoredMessage } from "../model.ts";

export interface PersistInput {
  scope: FactScope;
  /** As the client sent them, parallel to `stored`. */
  incoming: readonly IncomingMessage[];
  stored: readonly StoredMessage[];
  /** Persist every user message of the batch (besides those flagged one by one). */
  persistAll: boolean;
  sessionId: string;
  now: number;
  /**
   * Sensitive data stored as `[redacted]` (see `redactSensitive`).
   * @default every category
   */
  redact?: readonly RedactionCategory[] | undefined;
}

/**
 * The facts a write stores: user messages flagged `persist` (or all, with `persistAll`), with a
 * content id, and type and importance from the salience cues unless the client set importance.
 * Restatements within the batch collapse into one fact. Assistant, tool and system text never
 * becomes a fact here. A text the fact text rule refuses (see `factTextProblem`) refuses the
 * whole write (`invalid`), before anything is stored. Secrets are stored redacted; a message
 * that says nothing but a secret ("My password is hunter2") stores no fact (the message itself
 * is still appended).
 */
export async function factsToPersist(input: PersistInput): Promise<Fact[]> {
  const facts = new Map<string, Fact>();
  for (const [i, message] of input.incoming.entries()) {
    if (message.role !== "user" || !(input.persistAll || message.persist) || message.content.trim() === "") continue;
    const problem = factTextProblem(message.content.trim());
    if (problem) throw new MemoryError("invalid", `messages.${i}.content ${problem}: a persisted message is stored as a fact`);
    const { text, onlySecret } = redactFactText(message.content.trim(), input.redact ?? REDACTION_CATEGORIES);
    if (onlySecret) continue;
    const salience = isSalient(text);
    const draft: FactDraft = {
      text,
      type: salience.salient ? salience.type : "fact",
      importance: message.importance ?? (salience.salient ? salience.importance : 0.5),
      sourceSession: input.sessionId,
      sourceMessage: input.stored[i]?.id,
    };
    const id = await factId(input.scope, text);
    facts.set(id, createFact(id, draft, input.now));
  }
  return [...facts.values()];
}
