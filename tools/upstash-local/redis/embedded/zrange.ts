import { ReplyError, type Reply } from "../reply.ts";
import { formatDouble, parseInteger, readZset, SYNTAX_ERROR, type CommandHandler, type EngineContext, type ZEntry } from "./types.ts";

export interface ScoreBound {
  value: number;
  exclusive: boolean;
}

interface LexBound {
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

function parseLexBound(text: string | undefined): LexBound {
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

function inLexRange(member: string, min: LexBound, max: LexBound): boolean {
  const okMin = min.infinite === -1 || (min.infinite === 0 && (min.exclusive ? member > min.value : member >= min.value));
  const okMax = max.infinite === 1 || (max.infinite === 0 && (max.exclusive ? member < max.value : member <= max.value));
  return okMin && okMax;
}

/** Members in Redis order: by score, then by member. */
export function sortedEntries(zset: Map<string, ZEntry>): ZEntry[] {
  return [...zset.values()].sort((a, b) => a.score - b.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

interface RangeQuery {
  by: "rank" | "score" | "lex";
  rev: boolean;
  limit?: { offset: number; count: number } | undefined;
  withScores: boolean;
}

/** ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES] and its older forms. */
function range(ctx: EngineContext, args: string[], query: RangeQuery): Reply {
  const zset = readZset(ctx, args[1] ?? "") ?? new Map<string, ZEntry>();
  let entries = sortedEntries(zset);
  if (query.rev) entries.reverse();
  // With REV the first bound is the high one.
  const [lowText, highText] = query.rev && query.by !== "rank" ? [args[3], args[2]] : [args[2], args[3]];
  if (query.by === "rank") {
    const length = entries.length;
    let start = parseInteger(args[2]);
    let stop = parseInteger(args[3]);
    if (start < 0) start = Math.max(0, length + start);
    if (stop < 0) stop = length + stop;
    entries = start > stop || start >= length ? [] : entries.slice(start, Math.min(stop, length - 1) + 1);
  } else if (query.by === "score") {
    const min = parseScoreBound(lowText);
    const max = parseScoreBound(highText);
    entries = entries.filter((e) => inScoreRange(e.score, min, max));
  } else {
    const min = parseLexBound(lowText);
    const max = parseLexBound(highText);
    entries = entries.filter((e) => inLexRange(e.value, min, max));
  }
  if (query.limit !== undefined) {
    const { offset, count } = query.limit;
    entries = offset < 0 ? [] : entries.slice(offset, count < 0 ? undefined : offset + count);
  }
  return query.withScores ? entries.flatMap((e) => [e.value, formatDouble(e.score)]) : entries.map((e) => e.value);
}

function parseOptions(args: string[], base: RangeQuery, allowed: { by: boolean; rev: boolean }): RangeQuery {
  const query: RangeQuery = { ...base };
  for (let i = 4; i < args.length; i++) {
    const option = (args[i] ?? "").toUpperCase();
    if (option === "WITHSCORES") query.withScores = true;
    else if (option === "LIMIT" && i + 2 < args.length) {
      query.limit = { offset: parseInteger(args[i + 1]), count: parseInteger(args[i + 2]) };
      i += 2;
    } else if (allowed.by && option === "BYSCORE") query.by = "score";
    else if (allowed.by && option === "BYLEX") query.by = "lex";
    else if (allowed.rev && option === "REV") query.rev = true;
    else throw new ReplyError(SYNTAX_ERROR);
  }
  if (query.limit !== undefined && query.by === "rank") {
    throw new ReplyError("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
  }
  if (query.withScores && query.by === "lex") {
    throw new ReplyError("ERR syntax error, WITHSCORES not supported in combination with BYLEX");
  }
  return query;
}

function rangeCommand(base: RangeQuery, allowed: { by: boolean; rev: boolean }): CommandHandler {
  return (ctx, args) => range(ctx, args, parseOptions(args, base, allowed));
}

const fixed = { by: false, rev: false };
export const zrange = rangeCommand({ by: "rank", rev: false, withScores: false }, { by: true, rev: true });
export const zrevrange = rangeCommand({ by: "rank", rev: true, withScores: false }, fixed);
export const zrangebyscore = rangeCommand({ by: "score", rev: false, withScores: false }, fixed);
export const zrevrangebyscore = rangeCommand({ by: "score", rev: true, withScores: false }, fixed);
export const zrangebylex = rangeCommand({ by: "lex", rev: false, withScores: false }, fixed);
export const zrevrangebylex = rangeCommand({ by: "lex", rev: true, withScores: false }, fixed);
