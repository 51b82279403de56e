/** @module The shape of one life event of the long conversation (see events.ts). */

/** One event: its turn, an optional later turn, and questions answered by the turn(s) named. */
export interface ConversationEvent {
  key: string;
  turn: string;
  /** A later turn about the same thing (a second piece of evidence). */
  later?: string;
  /** [question, evidence] where evidence is "turn", "later" or "both"; `when` questions ask for a date. */
  questions: readonly (readonly [question: string, evidence: "turn" | "later" | "both", when?: "when"])[];
}
