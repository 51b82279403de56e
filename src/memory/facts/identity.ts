/** @module Fact identity: text normalization, content ids, and creating or merging facts that state the same thing. */
import { sha256Hex } from "../hash.ts";
import type { FactRefresh, FactScope, KnownFact } from "../ports/facts.ts";
import type { Fact, FactType } from "../model.ts";
/** Earlier texts kept per fact; older ones fall off. */
export const MAX_FACT_HISTORY = 10;

const TRAILING_PUNCTUATION = /[\s.!?;:,~。！？；：，、…～]+$/u;

/**
 * The text a fact's identity is computed from: NFKC (full-width forms fold to ASCII), trimmed,
 * whitespace collapsed, lower-cased, trailing punctuation (Latin and Chinese) removed.
 */
export function normalizeFactText(text: string): string {
  return text.normalize("NFKC").replace(/\s+/gu, " ").trim().toLowerCase().replace(TRAILING_PUNCTUATION, "");
}

/**
 * Content id of a text within (tenant, user): "f" + 24 hex digits of SHA-256 over
 * `tenant \0 user \0 normalized text`. The same statement always gets the same content id, in any
 * process, so writing it twice is one fact. A fact written by an agent (`agentId`) hashes with it:
 * the same text is one fact per agent and one shared fact. A new fact takes it as its id, and keeps that id
 * through edits; `Fact.contentId` follows the current text.
 */
export async function factId(scope: FactScope, text: string, agentId?: string): Promise<string> {
  // An agent's own facts hash with its id; shared facts keep the identity they always had.
  const agent = agentId === undefined ? "" : `agent:${agentId}\u0000`;
  return `f${await sha256Hex(`${scope.tenant}\u0000${scope.userId}\u0000${agent}${normalizeFactText(text)}`, 12)}`;
}

/** A fact as a writer proposes it; the timestamps and counters are the domain's business. */
export interface FactDraft {
  text: string;
  type: FactType;
  /** 0..1. */
  importance: number;
  /** The agent writing it; absent: a fact shared by all agents of the user (see `Fact.agentId`). */
  agentId?: string | undefined;
  sourceSession?: string | undefined;
  sourceMessage?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /**
   * When the statement was originally made, in ms (imports from another system). Default: now. The
   * type's lifetime and decay run from it.
   */
  createdAt?: number | undefined;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0.5);

/** A new fact; its id is its content id unless that id is taken (see `FactStore.findByContent`). */
export function createFact(id: string, draft: FactDraft, now: number, contentId: string = id): Fact {
  const at = draft.createdAt !== undefined && Number.isFinite(draft.createdAt) ? Math.min(now, draft.createdAt) : now;
  const fact: Fact = {
    id,
    text: draft.text.trim(),
    type: draft.type,
    importance: clamp01(draft.importance),
    createdAt: at,
    updatedAt: at,
    lastAccessedAt: at,
    accessCount: 0,
    version: 1,
    // Field order as the stores read facts back, so queued copies compare equal as JSON.
    contentId,
  };
  if (draft.agentId !== undefined) fact.agentId = draft.agentId;
  if (draft.sourceSession !== undefined) fact.sourceSession = draft.sourceSession;
  if (draft.sourceMessage !== undefined) fact.sourceMessage = draft.sourceMessage;
  if (draft.metadata !== undefined) fact.metadata = draft.metadata;
  return fact;
}

/**
 * Folds a new statement into an existing fact. The same statement (equal after normalization)
 * only refreshes it: newer `updatedAt`, next version, the higher importance. A different one is
 * an update or a contradiction: the latest text and type win and the old text goes to `history`.
 * The id never changes.
 */
export function mergeFact(existing: Fact, incoming: FactDraft, now: number): Fact {
  const at = incoming.createdAt !== undefined && Number.isFinite(incoming.createdAt) ? Math.min(now, incoming.createdAt) : now;
  const merged: Fact = {
    ...existing,
    importance: Math.max(existing.importance, clamp01(incoming.importance)),
    // an imported statement older than the stored fact's creation dates it back
    createdAt: Math.min(existing.createdAt, at),
    updatedAt: Math.max(existing.updatedAt, at),
    version: existing.version + 1,
  };
  if (incoming.metadata !== undefined) merged.metadata = { ...existing.metadata, ...incoming.metadata };
  if (normalizeFactText(existing.text) === normalizeFactText(incoming.text)) return merged;

  merged.text = incoming.text.trim();
  merged.type = incoming.type;
  merged.history = [...(existing.history ?? []), { text: existing.text, updatedAt: existing.updatedAt }].slice(-MAX_FACT_HISTORY);
  if (incoming.sourceSession !== undefined) merged.sourceSession = incoming.sourceSession;
  if (incoming.sourceMessage !== undefined) merged.sourceMessage = incoming.sourceMessage;
  return merged;
}

/**
 * A restatement as a refresh of the fact holding the same text, known without reading it: what
 * {@link mergeFact} would change when the statement adds nothing (no higher importance, no
 * metadata, not older than the fact) - the next version and a newer `updatedAt`. Null when it
 * does add something: then the fact has to be read and merged.
 */
export function refreshOf(known: KnownFact, incoming: Fact): FactRefresh | null {
  if (incoming.metadata !== undefined || incoming.importance > known.importance || incoming.createdAt < known.createdAt) return null;
  return { id: known.id, version: known.version + 1, updatedAt: Math.max(known.updatedAt, incoming.updatedAt) };
}

/**
 * A fact stated again: true from now on, so a superseded one is current again (a user who moved
 * back to Paris). Only a new statement does this; an edit of a superseded fact keeps it superseded.
 */
export function reinstated(fact: Fact): Fact {
  if (fact.supersededAt === undefined && fact.supersededBy === undefined) return fact;
  const { supersededAt: _at, supersededBy: _by, ...current } = fact;
  return current;
}

/**
 * `old` stops being true at `at` because `by` replaced it: marked, never deleted, so history and
 * export keep it with its validity (`createdAt` .. `supersededAt`). The next version.
 */
export function supersededFact(old: Fact, by: string, at: number): Fact {
  return { ...old, version: old.version + 1, supersededAt: at, supersededBy: by };
}

/** A fresh fact id for a new fact whose content id is already some edited fact's id. */
export function freshFactId(): string {
  return `f${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
