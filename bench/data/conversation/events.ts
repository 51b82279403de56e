/**
 * The life events of the long conversation: what the user says in one turn (and, for some, a later
 * turn that adds to it), and the questions those turns answer. Written by hand; the generator
 * (generate.ts) spreads them over sessions among everyday small talk.
 */

/** One event: its turn, an optional later turn, and questions answered by the turn(s) named. */
export interface ConversationEvent {
  key: string;
  turn: string;
  /** A later turn about the same thing (a second piece of evidence). */
  later?: string;
  /** [question, evidence] where evidence is "turn", "later" or "both"; `when` questions ask for a date. */
  questions: readonly (readonly [question: string, evidence: "turn" | "later" | "both", when?: "when"])[];
}

import { EVENTS_PART_1 } from "./events-part-1.ts";
import { EVENTS_PART_2 } from "./events-part-2.ts";

/** Every event, in the order the generator places them. */
export const EVENTS: readonly ConversationEvent[] = [...EVENTS_PART_1, ...EVENTS_PART_2];
