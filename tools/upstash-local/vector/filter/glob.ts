/**
 * Case-sensitive UNIX glob as in SQLite's GLOB: `*` any run of characters, `?` exactly one,
 * `[abc]`, `[a-z]`, `[^abc]` / `[^a-z]` character classes (a `]` right after `[` or `[^` is literal).
 * There is no escape character; an unclosed `[` matches itself. Works on code points, so `?`
 * matches one CJK character or emoji.
 */
export type GlobMatcher = (text: string) => boolean;

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const escapeLiteral = (s: string): string => s.replace(SYNTAX, "\\$&");
const escapeInClass = (ch: string): string => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`;

/** Translates one `[...]` class starting at `chars[start]`; null when it is not closed. */
function translateClass(chars: string[], start: number): { source: string; end: number } | null {
  let i = start + 1;
  const negated = chars[i] === "^";
  if (negated) i += 1;
  const items: string[] = [];
  let first = true;
  while (i < chars.length) {
    const c = chars[i] ?? "";
    if (c === "]" && !first) {
      // An empty negated class matches any one character, an empty class matches nothing.
      const body = items.join("");
      const source = body === "" ? (negated ? "[^]" : "[]") : `[${negated ? "^" : ""}${body}]`;
      return { source, end: i };
    }
    first = false;
    const hi = chars[i + 2];
    if (chars[i + 1] === "-" && hi !== undefined && hi !== "]") {
      // A reversed range such as [z-a] matches nothing, as in SQLite.
      if ((c.codePointAt(0) ?? 0) <= (hi.codePointAt(0) ?? 0)) items.push(`${escapeInClass(c)}-${escapeInClass(hi)}`);
      i += 3;
    } else {
      items.push(escapeInClass(c));
      i += 1;
    }
  }
  return null;
}

export function compileGlob(pattern: string): GlobMatcher {
  const chars = Array.from(pattern);
  let source = "";
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] ?? "";
    if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (c === "[") {
      const cls = translateClass(chars, i);
      if (cls) {
        source += cls.source;
        i = cls.end;
      } else source += "\\[";
    } else source += escapeLiteral(c);
  }
  const re = new RegExp(`^${source}$`, "su");
  return (text) => re.test(text);
}
