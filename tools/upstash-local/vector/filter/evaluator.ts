/** @module Evaluates a parsed metadata filter against a record's metadata. */
import type { FieldPath, FilterNode, Literal } from "./ast.ts";
import { compileGlob, type GlobMatcher } from "./glob.ts";

/**
 * Evaluates a filter against one record's metadata. Choices where Upstash documents nothing:
 * - A predicate on a missing field, or on a value of another type, is false. That includes `!=`,
 *   `NOT IN`, `NOT GLOB` and `NOT CONTAINS`: they only match records that have the field with a
 *   comparable value. `HAS NOT FIELD` is the way to select records without a field.
 * - `=`/`!=`/`IN` compare strings case-sensitively and numbers numerically; a boolean also equals
 *   the numbers 1 and 0 ("boolean literals are represented as 1 or 0").
 * - `<`, `<=`, `>`, `>=` only match numbers.
 * - `CONTAINS` needs an array field and matches when an element equals the literal.
 * - A field that is present with the value `null` counts for `HAS FIELD` but matches no predicate.
 */
export type FilterPredicate = (metadata: Readonly<Record<string, unknown>> | undefined) => boolean;

const MISSING = Symbol("missing");

function resolve(root: unknown, path: FieldPath): unknown {
  let current: unknown = root;
  for (const seg of path.segments) {
    if (seg.type === "key") {
      if (typeof current !== "object" || current === null || Array.isArray(current)) return MISSING;
      if (!Object.hasOwn(current, seg.key)) return MISSING;
      current = (current as Record<string, unknown>)[seg.key];
    } else {
      if (!Array.isArray(current)) return MISSING;
      const index = seg.type === "index" ? seg.index : current.length - seg.offset;
      if (index < 0 || index >= current.length) return MISSING;
      current = current[index] as unknown;
    }
  }
  return current;
}

const isScalar = (v: unknown): v is Literal =>
  typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/** Equality between a metadata scalar and a literal; null when the types cannot be compared. */
function equals(value: Literal, literal: Literal): boolean | null {
  if (typeof value === typeof literal) return value === literal;
  if (typeof value === "boolean" && typeof literal === "number") return literal === 1 || literal === 0 ? value === (literal === 1) : false;
  if (typeof value === "number" && typeof literal === "boolean") return value === 1 || value === 0 ? literal === (value === 1) : false;
  return null;
}

function compile(node: FilterNode): FilterPredicate {
  switch (node.kind) {
    case "and": {
      const parts = node.children.map(compile);
      return (m) => parts.every((p) => p(m));
    }
    case "or": {
      const parts = node.children.map(compile);
      return (m) => parts.some((p) => p(m));
    }
    case "hasField":
      return (m) => (resolve(m, node.path) !== MISSING) !== node.negated;
    case "compare": {
      const { op, value: literal, path } = node;
      return (m) => {
        const v = resolve(m, path);
        if (!isScalar(v)) return false;
        if (op === "=" || op === "!=") {
          const eq = equals(v, literal);
          return eq === null ? false : eq === (op === "=");
        }
        if (typeof v !== "number" || typeof literal !== "number") return false;
        return op === "<" ? v < literal : op === "<=" ? v <= literal : op === ">" ? v > literal : v >= literal;
      };
    }
    case "in": {
      const { values, negated, path } = node;
      return (m) => {
        const v = resolve(m, path);
        if (!isScalar(v)) return false;
        const results = values.map((lit) => equals(v, lit));
        if (results.every((r) => r === null)) return false; // no comparable literal: type mismatch
        return negated ? !results.includes(true) : results.includes(true);
      };
    }
    case "contains": {
      const { value: literal, negated, path } = node;
      return (m) => {
        const v = resolve(m, path);
        if (!Array.isArray(v)) return false;
        const found = v.some((el: unknown) => isScalar(el) && equals(el, literal) === true);
        return found !== negated;
      };
    }
    case "glob": {
      const match: GlobMatcher = compileGlob(node.pattern);
      const { negated, path } = node;
      return (m) => {
        const v = resolve(m, path);
        return typeof v === "string" ? match(v) !== negated : false;
      };
    }
  }
}

/** Turns the AST into a predicate once, so a query evaluates closures instead of walking the tree. */
export function compileFilter(node: FilterNode): FilterPredicate {
  return compile(node);
}

/** One-off evaluation (tests, debugging); queries should use {@link compileFilter}. */
export function evaluateFilter(node: FilterNode, metadata: Readonly<Record<string, unknown>> | undefined): boolean {
  return compile(node)(metadata);
}
