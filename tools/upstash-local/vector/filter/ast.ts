/** AST of a parsed metadata filter. */

/** One step of a field path: `a`, `[0]` or `[#-1]` (`fromEnd: 1` means the last element). */
export type PathSegment = { type: "key"; key: string } | { type: "index"; index: number } | { type: "fromEnd"; offset: number };

export interface FieldPath {
  /** The path as written, e.g. `geography.continent` or `tags[#-1]`. */
  text: string;
  segments: PathSegment[];
}

export type Literal = string | number | boolean;

export type CompareOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type FilterNode =
  | { kind: "and"; children: FilterNode[] }
  | { kind: "or"; children: FilterNode[] }
  | { kind: "compare"; path: FieldPath; op: CompareOp; value: Literal }
  | { kind: "glob"; path: FieldPath; negated: boolean; pattern: string }
  | { kind: "in"; path: FieldPath; negated: boolean; values: Literal[] }
  | { kind: "contains"; path: FieldPath; negated: boolean; value: Literal }
  | { kind: "hasField"; path: FieldPath; negated: boolean };

const KEY = /^[A-Za-z0-9_-]+/;
const INDEX = /^\[(\d+)\]/;
const FROM_END = /^\[#-(\d+)\]/;

/**
 * Splits an identifier token into path segments. Returns the offset of the first bad character
 * (relative to the token) instead when the path is malformed, e.g. `a..b` or `a[x]`.
 */
export function parseFieldPath(text: string): FieldPath | number {
  const segments: PathSegment[] = [];
  let rest = text;
  let first = true;
  while (rest.length > 0) {
    const at = text.length - rest.length;
    if (first || rest.startsWith(".")) {
      const body = first ? rest : rest.slice(1);
      const m = KEY.exec(body);
      if (!m) return first ? at : at + 1;
      segments.push({ type: "key", key: m[0] });
      rest = body.slice(m[0].length);
      first = false;
      continue;
    }
    const idx = INDEX.exec(rest);
    if (idx) {
      segments.push({ type: "index", index: Number(idx[1]) });
      rest = rest.slice(idx[0].length);
      continue;
    }
    const end = FROM_END.exec(rest);
    if (end) {
      segments.push({ type: "fromEnd", offset: Number(end[1]) });
      rest = rest.slice(end[0].length);
      continue;
    }
    return at;
  }
  return { text, segments };
}
