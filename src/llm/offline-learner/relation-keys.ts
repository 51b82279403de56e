// The offline learner's reading of a fact's relation, as the domain's RelationKeys port (the cron's duplicate repair, learning's supersedes).
import type { RelationKeys } from "../../memory/ports/index.ts";
import { singleValuedKey } from "./learner.ts";

/** {@link RelationKeys} by the offline learner's rules (English and Chinese, canonical or not). */
export class OfflineRelationKeys implements RelationKeys {
  keyOf(text: string): string | null {
    // Dates in a fact's text only decide whether a move is a plan; "now" reads them as the learner would.
    return singleValuedKey(text, Date.now());
  }
}
