/** @module Recursive-descent parser of Upstash's metadata filter grammar. */
import { parseFieldPath, type CompareOp, type FieldPath, type FilterNode, type Literal } from "./ast.ts";
import { FilterSyntaxError, tokenize, type Token } from "./lexer.ts";

/**
 * Recursive-descent parser of the filter grammar (reference B5):
 *
 *   filter    := or_expr EOF
 *   or_expr   := and_expr ( OR and_expr )*        -- AND binds tighter than OR
 *   and_expr  := primary ( AND primary )*
 *   primary   := "(" or_expr ")" | HAS [NOT] FIELD ident | ident predicate
 *   predicate := ("=" | "!=") literal | ("<" | "<=" | ">" | ">=") number
 *              | [NOT] GLOB string | [NOT] IN "(" literal ("," literal)* ")" | [NOT] CONTAINS literal
 *   literal   := string | number | TRUE | FALSE
 *
 * Throws {@link FilterSyntaxError} with the position of the offending token.
 */
export function parseFilter(source: string): FilterNode {
  return new Parser(tokenize(source)).parse();
}

const isWord = (t: Token, word: string): boolean => t.kind === "ident" && t.text.toUpperCase() === word;

class Parser {
  #pos = 0;
  readonly #tokens: Token[];

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  parse(): FilterNode {
    const node = this.#orExpr();
    const t = this.#peek();
    if (t.kind !== "eof") this.#fail(t, `extraneous input '${t.text}' expecting {<EOF>, AND, OR}`);
    return node;
  }

  #peek(ahead = 0): Token {
    const t = this.#tokens[Math.min(this.#pos + ahead, this.#tokens.length - 1)];
    if (!t) throw new Error("token stream is empty"); // tokenize always ends with eof
    return t;
  }

  #next(): Token {
    const t = this.#peek();
    if (this.#pos < this.#tokens.length - 1) this.#pos += 1;
    return t;
  }

  #fail(t: Token, detail: string): never {
    throw new FilterSyntaxError(t.line, t.column, detail);
  }

  #mismatch(t: Token, expecting: string): never {
    this.#fail(t, `mismatched input '${t.text}' expecting ${expecting}`);
  }

  #orExpr(): FilterNode {
    const children = [this.#andExpr()];
    while (isWord(this.#peek(), "OR")) {
      this.#next();
      children.push(this.#andExpr());
    }
    return children.length === 1 && children[0] ? children[0] : { kind: "or", children };
  }

  #andExpr(): FilterNode {
    const children = [this.#primary()];
    while (isWord(this.#peek(), "AND")) {
      this.#next();
      children.push(this.#primary());
    }
    return children.length === 1 && children[0] ? children[0] : { kind: "and", children };
  }

  #primary(): FilterNode {
    const t = this.#peek();
    if (t.kind === "lparen") {
      this.#next();
      const inner = this.#orExpr();
      const close = this.#next();
      if (close.kind !== "rparen") this.#mismatch(close, "{')', AND, OR}");
      return inner;
    }
    if (isWord(t, "HAS") && (isWord(this.#peek(1), "FIELD") || isWord(this.#peek(1), "NOT"))) {
      this.#next();
      const negated = isWord(this.#peek(), "NOT");
      if (negated) this.#next();
      const field = this.#next();
      if (!isWord(field, "FIELD")) this.#mismatch(field, "FIELD");
      return { kind: "hasField", path: this.#path(), negated };
    }
    const path = this.#path();
    return this.#predicate(path);
  }

  #path(): FieldPath {
    const t = this.#next();
    if (t.kind !== "ident") this.#mismatch(t, "{'(', HAS, IDENTIFIER}");
    const path = parseFieldPath(t.text);
    if (typeof path === "number") {
      this.#fail({ ...t, column: t.column + path }, `invalid field path '${t.text}'`);
    }
    return path;
  }

  #predicate(path: FieldPath): FilterNode {
    const t = this.#next();
    if (t.kind === "op") {
      const op = t.text as CompareOp;
      if (op === "=" || op === "!=") return { kind: "compare", path, op, value: this.#literal() };
      const n = this.#next();
      if (n.kind !== "number" || typeof n.value !== "number") this.#mismatch(n, "NUMBER");
      return { kind: "compare", path, op, value: n.value };
    }
    const negated = isWord(t, "NOT");
    const word = negated ? this.#next() : t;
    if (isWord(word, "GLOB")) {
      const s = this.#next();
      if (s.kind !== "string" || typeof s.value !== "string") this.#mismatch(s, "STRING");
      return { kind: "glob", path, negated, pattern: s.value };
    }
    if (isWord(word, "CONTAINS")) return { kind: "contains", path, negated, value: this.#literal() };
    if (isWord(word, "IN")) {
      const open = this.#next();
      if (open.kind !== "lparen") this.#mismatch(open, "'('");
      const values = [this.#literal()];
      while (this.#peek().kind === "comma") {
        this.#next();
        values.push(this.#literal());
      }
      const close = this.#next();
      if (close.kind !== "rparen") this.#mismatch(close, "{',', ')'}");
      return { kind: "in", path, negated, values };
    }
    if (negated) this.#mismatch(word, "{GLOB, IN, CONTAINS}");
    this.#mismatch(word, "{'=', '!=', '<', '<=', '>', '>=', GLOB, NOT, IN, CONTAINS}");
  }

  #literal(): Literal {
    const t = this.#next();
    if ((t.kind === "string" || t.kind === "number") && t.value !== undefined) return t.value;
    if (isWord(t, "TRUE")) return true;
    if (isWord(t, "FALSE")) return false;
    this.#mismatch(t, "{STRING, NUMBER, BOOLEAN}");
  }
}
