/**
 * @module Long-term facts: identity and merge rules, learning from conversation, recall by meaning, lifetimes and snapshots.
 */
export { runBackups } from "./backup.ts";
export { MAX_IMPORT } from "./fact-service.ts";
export { factTextProblem } from "./fact-text.ts";
export {
  MAX_METADATA_FILTERS,
  MAX_METADATA_FILTER_VALUE,
  METADATA_FILTER_KEY,
  booleanOf,
  numberOf,
  type FactFilter,
  type FactListOptions,
} from "./filter.ts";
export { normalizeFactText, type FactDraft } from "./identity.ts";
export { DEFAULT_RECALL_GATES } from "./relevance.ts";
export { isFiller, splitSentences } from "./salience.ts";
export { REDACTION_CATEGORIES, type RedactionCategory } from "./sensitive.ts";
