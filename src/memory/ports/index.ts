/**
 * @module The ports of the domain: what it needs from session stores, fact stores, language models and operations.
 */
export { type BackupStore, type ContentMatch, type ContentRef, type FactAccess, type FactPage, type FactQuery, type FactRefresh, type FactScope, type FactSnapshot, type FactStore, type KnownFact, type RecallCount, type UserStore } from "./facts.ts";
export { type ChatMessage, type ChatModel, type ChatRequest, type ChatUsage, type FactExtractor, type FactOperation, type ModelReply, type PassThroughAnswer, type PassThroughChunk, type PassThroughRequest, type PassThroughStream, type Summarizer, type SummaryRequest, type TokenCounter } from "./llm.ts";
export { type AuditLog, type EraseJob, type EraseJournal, type EraseOutcome, type ErasePart, type ErasedCounts, type MemoryLogger, type MetricsStore, type TraceRef, type TraceStore } from "./operations.ts";
export { TURN_OUTCOMES_KEPT, WINDOW_SCAN_FACTOR, type AppendOptions, type AppendResult, type CommitOutcome, type CompressionCommit, type HeadLimits, type HistoryPage, type IndexSweep, type NoteCaps, type NoteRefusal, type ResetResult, type SessionDump, type SessionIdPage, type SessionListEntry, type SessionStore, type SettingsChange, type UserSessionsErased, type WindowBound, type WorkingMemoryStore } from "./sessions.ts";
