/**
 * Tokenizer of the Upstash metadata filter language. Keywords (AND, OR, NOT, IN, GLOB, CONTAINS,
 * HAS, FIELD, TRUE, FALSE) come out as `ident` tokens; the parser recognises them case-insensitively,
 * which also lets a field be called e.g. `in` or `field`.
 */
export type TokenKind = "ident" | "string" | "number" | "op" | "lparen" | "rparen" | "comma" | "eof";

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for strings: the decoded value is in `value`). */
  text: string;
  /** Decoded string or number value. */
  value?: string | number;
  /** 1-based line and 0-based column, as ANTLR reports them. */
  line: number;
  column: number;
}

/** A syntax error with an ANTLR-like message, e.g. `At line 1:24 token recognition error at: '['`. */
export class FilterSyntaxError extends Error {
  constructor(line: number, column: number, detail: string) {
    super(`Invalid filter. At line ${line}:${column} ${detail}`);
    this.name = "FilterSyntaxError";
  }
}

const IDENT_START = /[A-Za-z_]/;
// Same character class as the documented identifier: a.b.c, arr[0], arr[#-1], my-field.
const IDENT_PART = /[A-Za-z_0-9.[\]#-]/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" };

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string | number): void => {
    const token: Token = { kind, text: source.slice(start, end), line, column: start - lineStart };
    if (value !== undefined) token.value = value;
    tokens.push(token);
  };

  while (i < source.length) {
    const c = source.charAt(i);
    if (c === "\n") {
      i += 1;
      line += 1;
      lineStart = i;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i += 1;
      continue;
    }
    const start = i;
    if (c === "(" || c === ")" || c === ",") {
      push(c === "(" ? "lparen" : c === ")" ? "rparen" : "comma", i, i + 1);
      i += 1;
    } else if (c === "=" || c === "<" || c === ">" || c === "!") {
      const two = source.slice(i, i + 2);
      const len = two === "!=" || two === "<=" || two === ">=" ? 2 : c === "!" ? 0 : 1;
      if (len === 0) throw new FilterSyntaxError(line, i - lineStart, `token recognition error at: '${c}'`);
      push("op", i, i + len);
      i += len;
    } else if (c === "'" || c === '"') {
      let value = "";
      i += 1;
      for (;;) {
        if (i >= source.length) {
          const text = source.slice(start).split("\n")[0] ?? "";
          throw new FilterSyntaxError(line, start - lineStart, `token recognition error at: '${text}'`);
        }
        const d = source.charAt(i);
        if (d === c) break;
        if (d === "\\" && i + 1 < source.length) {
          const e = source.charAt(i + 1);
          if (e === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          value += ESCAPES[e] ?? e; // \\ \' \" and any other escaped char stand for themselves
          i += 2;
          continue;
        }
        value += d;
        i += 1;
      }
      i += 1;
      push("string", start, i, value);
    } else if (/[0-9.-]/.test(c) && NUMBER.test(source.slice(i))) {
      const text = NUMBER.exec(source.slice(i))?.[0] ?? "";
      i += text.length;
      push("number", start, i, Number(text));
    } else if (IDENT_START.test(c)) {
      while (i < source.length && IDENT_PART.test(source.charAt(i))) i += 1;
      push("ident", start, i);
    } else {
      throw new FilterSyntaxError(line, i - lineStart, `token recognition error at: '${c}'`);
    }
  }
  tokens.push({ kind: "eof", text: "<EOF>", line, column: i - lineStart });
  return tokens;
}
