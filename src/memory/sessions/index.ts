/**
 * @module One session's memory: appends, chat turns, settings, history, the user's session list and working notes.
 */
export { proxiedRefusal, proxiedTurn, type ChatTurn, type ProxiedRequest, type TurnMemory } from "./chat-turn.ts";
export type { ProxiedTurnInput, TurnResult, TurnRun } from "./run-turn.ts";
export { metadataProblem, orphanToolMessage } from "./message-rules.ts";
export { MAX_CLOCK_SKEW_MS, tsBeforePrevious } from "./message-times.ts";
export type { CompressResult } from "./requests.ts";
export { MAX_SESSIONS_PER_PAGE } from "./session-list.ts";
export type { SessionState } from "./session-state.ts";
export { MAX_WORKING_VALUE_CHARS, NOTES_PAGE_LIMIT } from "./working-memory.ts";
