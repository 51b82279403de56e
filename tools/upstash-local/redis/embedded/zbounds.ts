/** @module Score and lex range bounds of sorted-set commands and Redis' member order. */
import { ReplyError } from "../reply.ts";
import type { ZEntry } from "./types.ts";

// Range bounds of sorted-set commands: "(1.5" / "-inf" for scores, "[a" / "(b" / "-" / "+" for
// members. ioredis-mock parses scores with parseInt, so 1.5 became 1.

export interface ScoreBound {
  value: number;
  exclusive: boolean;
}

export interface LexBound {
  value: string;
  exclusive: boolean;
  /** -1 for "-", 1 for "+", 0 for a real bound. */
  infinite: -1 | 0 | 1;
}

export function parseScoreBound(text: string | undefined): ScoreBound {
  const raw = text ?? "";
  const exclusive = raw.startsWith("(");
  const body = exclusive ? raw.slice(1) : raw;
  let value: number;
  if (/^[+-]?inf$/i.test(body)) value = body.startsWith("-") ? -Infinity : Infinity;
  else if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(body)) value = Number(body);
  else throw new ReplyError("ERR min or max is not a float");
  return { value, exclusive };
}

export function parseLexBound(text: string | undefined): LexBound {
  const raw = text ?? "";
  if (raw === "-") return { value: "", exclusive: false, infinite: -1 };
  if (raw === "+") return { value: "", exclusive: false, infinite: 1 };
  if (raw.startsWith("(") || raw.startsWith("[")) return { value: raw.slice(1), exclusive: raw.startsWith("("), infinite: 0 };
  throw new ReplyError("ERR min or max not valid string range item");
}

const aboveMin = (score: number, min: ScoreBound) => (min.exclusive ? score > min.value : score >= min.value);
const belowMax = (score: number, max: ScoreBound) => (max.exclusive ? score < max.value : score <= max.value);

export function inScoreRange(score: number, min: ScoreBound, max: ScoreBound): boolean {
  return aboveMin(score, min) && belowMax(score, max);
}

export function inLexRange(member: string, min: LexBound, max: LexBound): boolean {
  const okMin = min.infinite === -1 || (min.infinite === 0 && (min.exclusive ? member > min.value : member >= min.value));
  const okMax = max.infinite === 1 || (max.infinite === 0 && (max.exclusive ? member < max.value : member <= max.value));
  return okMin && okMax;
}

/** Members in Redis order: by score, then by member. */
export function sortedEntries(zset: Map<string, ZEntry>): ZEntry[] {
  return [...zset.values()].sort((a, b) => a.score - b.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
