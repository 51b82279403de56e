/**
 * @module Compressing a session: when a pass is due, what it folds, and the rolling summary it writes (LLM or extractive).
 */
export { ExtractiveSummarizer } from "./extractive-summary.ts";
export { buildSummaryPrompt } from "./summary-prompt.ts";
