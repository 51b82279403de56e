/** @module ZRANGE and its older forms (ZREVRANGE, ZRANGEBYSCORE, ZRANGEBYLEX...) for the embedded engine. */
import { ReplyError, type Reply } from "../reply.ts";
import { formatDouble, parseInteger, readZset, SYNTAX_ERROR, type CommandHandler, type EngineContext, type ZEntry } from "./types.ts";
import { inLexRange, inScoreRange, parseLexBound, parseScoreBound, sortedEntries } from "./zbounds.ts";

interface RangeQuery {
  by: "rank" | "score" | "lex";
  rev: boolean;
  limit?: { offset: number; count: number } | undefined;
  withScores: boolean;
}

/** ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES] and its older forms. */
function range(ctx: EngineContext, args: string[], query: RangeQuery): Reply {
  // Bounds are parsed before the key is read: a bad bound is reported even for a wrong type.
  const [lowText, highText] = query.rev && query.by !== "rank" ? [args[3], args[2]] : [args[2], args[3]]; // REV: high first
  const keep = filterFor(query.by, lowText, highText);
  const ranks = query.by === "rank" ? [parseInteger(args[2]), parseInteger(args[3])] : undefined;
  let entries = sortedEntries(readZset(ctx, args[1] ?? "") ?? new Map<string, ZEntry>());
  if (query.rev) entries.reverse();
  if (ranks !== undefined) {
    const length = entries.length;
    let [start = 0, stop = 0] = ranks;
    if (start < 0) start = Math.max(0, length + start);
    if (stop < 0) stop = length + stop;
    entries = start > stop || start >= length ? [] : entries.slice(start, Math.min(stop, length - 1) + 1);
  } else {
    entries = entries.filter(keep);
  }
  if (query.limit !== undefined) {
    const { offset, count } = query.limit;
    entries = offset < 0 ? [] : entries.slice(offset, count < 0 ? undefined : offset + count);
  }
  return query.withScores ? entries.flatMap((e) => [e.value, formatDouble(e.score)]) : entries.map((e) => e.value);
}

function filterFor(by: RangeQuery["by"], lowText: string | undefined, highText: string | undefined): (e: ZEntry) => boolean {
  if (by === "score") {
    const min = parseScoreBound(lowText);
    const max = parseScoreBound(highText);
    return (e) => inScoreRange(e.score, min, max);
  }
  if (by === "lex") {
    const min = parseLexBound(lowText);
    const max = parseLexBound(highText);
    return (e) => inLexRange(e.value, min, max);
  }
  return () => true;
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
