/** @module The fact extractor without an LLM (heuristic mode and fallback), backed by the rules in offline-learner/. */
import type { FactExtractor, FactOperation } from "../memory/ports/index.ts";
import type { Fact, StoredMessage } from "../memory/model.ts";
import { learnOperations } from "./offline-learner/learner.ts";

/**
 * Offline fact extraction (no LLM), the `heuristic` mode and the fallback when the LLM fails:
 * user statements about themselves and their world (name, job, home, diet, health, likes,
 * relatives, pets, colleagues, plans, tools; English and Chinese) become self-contained
 * third-person facts ("The user's sister Mia lives in Lisbon.", "用户的妹妹在深圳当小学老师。")
 * with relative dates resolved. Precise rather than complete: only the kinds of fact the rules
 * can be sure of are written (profile relations, relatives and pets, identity, plans, dated and
 * life events, habits); questions, requests, greetings, reactions, advice or invitations to the
 * other person, talk about the conversation's topics and clauses whose "it"/"they"/它 points
 * outside them teach nothing, and are left to the episodes. A clause with the subject and relation
 * of a stored fact supersedes it. Deterministic; rules in `offline-learner/` (precision.ts).
 */
export class HeuristicFactExtractor implements FactExtractor {
  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    return learnOperations(request.messages, request.existing);
  }
}
