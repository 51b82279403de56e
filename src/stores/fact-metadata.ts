/** @module Converts a fact to the Vector metadata stored beside its vector, and that metadata back to a fact. */
import { FACT_TYPES, type Fact, type FactType } from "../memory/model.ts";
import { InvalidStoreInput } from "./errors.ts";

/** Vector metadata: every field of a fact except its id (which is the vector id). */
export type FactMetadata = Record<string, unknown>;

/** Fact -> metadata; absent optional fields are left out (JSON has no `undefined`). */
export function factToMetadata(fact: Fact): FactMetadata {
  const md: FactMetadata = {
    text: fact.text,
    type: fact.type,
    importance: fact.importance,
    createdAt: fact.createdAt,
    updatedAt: fact.updatedAt,
    lastAccessedAt: fact.lastAccessedAt,
    accessCount: fact.accessCount,
    version: fact.version,
  };
  if (fact.contentId !== undefined) md.contentId = fact.contentId;
  if (fact.agentId !== undefined) md.agentId = fact.agentId;
  if (fact.sourceSession !== undefined) md.sourceSession = fact.sourceSession;
  if (fact.sourceMessage !== undefined) md.sourceMessage = fact.sourceMessage;
  if (fact.history !== undefined) md.history = fact.history;
  if (fact.metadata !== undefined) md.metadata = fact.metadata;
  if (fact.supersededAt !== undefined) md.supersededAt = fact.supersededAt;
  if (fact.supersededBy !== undefined) md.supersededBy = fact.supersededBy;
  return md;
}

const isType = (v: unknown): v is FactType => typeof v === "string" && (FACT_TYPES as readonly string[]).includes(v);
const numberOr = (v: unknown, fallback: number): number => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseHistory(v: unknown): Fact["history"] {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isRecord).flatMap((h) => (typeof h.text === "string" ? [{ text: h.text, updatedAt: numberOr(h.updatedAt, 0) }] : []));
}

/** Metadata -> fact; `null` for a vector that is not a fact (no text or no known type). */
export function factFromMetadata(id: string | number, md: unknown): Fact | null {
  if (!isRecord(md) || typeof md.text !== "string" || !isType(md.type)) return null;
  const createdAt = numberOr(md.createdAt, 0);
  const fact: Fact = {
    id: String(id),
    text: md.text,
    type: md.type,
    importance: numberOr(md.importance, 0.5),
    createdAt,
    updatedAt: numberOr(md.updatedAt, createdAt),
    lastAccessedAt: numberOr(md.lastAccessedAt, createdAt),
    accessCount: numberOr(md.accessCount, 0),
    version: numberOr(md.version, 1),
  };
  if (typeof md.contentId === "string") fact.contentId = md.contentId;
  if (typeof md.agentId === "string") fact.agentId = md.agentId;
  if (typeof md.sourceSession === "string") fact.sourceSession = md.sourceSession;
  if (typeof md.sourceMessage === "string") fact.sourceMessage = md.sourceMessage;
  const history = parseHistory(md.history);
  if (history) fact.history = history;
  if (isRecord(md.metadata)) fact.metadata = md.metadata;
  if (typeof md.supersededAt === "number" && Number.isFinite(md.supersededAt)) fact.supersededAt = md.supersededAt;
  if (typeof md.supersededBy === "string") fact.supersededBy = md.supersededBy;
  return fact;
}

/** Refuses a fact the store cannot write: no id, or a type the metadata cannot carry. */
export function assertFact(fact: Fact): void {
  if (typeof fact.id !== "string" || fact.id === "") throw new InvalidStoreInput("fact id is required");
  if (!(FACT_TYPES as readonly string[]).includes(fact.type)) throw new InvalidStoreInput("unknown fact type");
}
