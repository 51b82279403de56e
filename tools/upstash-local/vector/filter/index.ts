/** @module Metadata filter entry point: re-exports the filter parts and compiles request filters with a cache. */
import { badRequest } from "../errors.ts";
import { compileFilter, type FilterPredicate } from "./evaluator.ts";
import { FilterSyntaxError } from "./lexer.ts";
import { parseFilter } from "./parser.ts";

export type { FilterNode, FieldPath, Literal } from "./ast.ts";
export { compileFilter, evaluateFilter, type FilterPredicate } from "./evaluator.ts";
export { FilterSyntaxError, tokenize, type Token } from "./lexer.ts";
export { parseFilter } from "./parser.ts";

// Agents tend to repeat the same few filters; parsing once per distinct string keeps queries cheap.
const cache = new Map<string, FilterPredicate>();
const CACHE_LIMIT = 500;

/**
 * Parses and compiles a filter string from a request. An absent or blank filter means "no filter"
 * (`undefined`). A syntax error becomes a 400 with the ANTLR-like message.
 */
export function filterFromRequest(filter: string | undefined): FilterPredicate | undefined {
  if (filter === undefined || filter.trim() === "") return undefined;
  const hit = cache.get(filter);
  if (hit) return hit;
  let predicate: FilterPredicate;
  try {
    predicate = compileFilter(parseFilter(filter));
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw badRequest(err.message);
    throw err;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(filter, predicate);
  return predicate;
}
