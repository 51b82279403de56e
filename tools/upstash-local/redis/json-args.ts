/**
 * A small JSON parser that keeps number tokens as their source text.
 *
 * `JSON.parse` turns `1e+21`, `0.10` or `12345678901234567890` into doubles and loses the exact
 * token; Redis must receive the text the client wrote, so numbers stay raw here.
 */

/** A JSON number as written in the request. */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** A JSON object. Arguments can't be objects, so only the fact that one was sent matters. */
export class RawObject {
  constructor(readonly size: number) {}
}

export type RawJson = string | boolean | null | RawNumber | RawObject | RawJson[];

export class JsonSyntaxError extends Error {}

/** Valid request bodies nest at most 3 levels; anything deeper is rejected early. */
const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NEEDS_DECODING = /[\\\u0000-\u001f]/;

export function parseRawJson(text: string): RawJson {
  const parser = new Parser(text);
  parser.skipSpace();
  const value = parser.value(0);
  parser.skipSpace();
  if (parser.pos !== text.length) parser.fail("unexpected data after the JSON value");
  return value;
}

class Parser {
  pos = 0;
  constructor(private readonly src: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} at position ${this.pos}`);
  }

  skipSpace(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  value(depth: number): RawJson {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    switch (this.src[this.pos]) {
      case '"':
        return this.string();
      case "[":
        return this.array(depth);
      case "{":
        return this.object(depth);
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case undefined:
        return this.fail("unexpected end of input");
      default:
        return this.number();
    }
  }

  private literal<T extends boolean | null>(word: string, value: T): T {
    if (!this.src.startsWith(word, this.pos)) this.fail("unexpected token");
    this.pos += word.length;
    return value;
  }

  private number(): RawNumber {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.src);
    if (match === null) this.fail("unexpected token");
    this.pos += match[0].length;
    return new RawNumber(match[0]);
  }

  private string(): string {
    const s = this.src;
    const start = this.pos;
    let from = start + 1;
    let end: number;
    for (;;) {
      end = s.indexOf('"', from);
      if (end < 0) this.fail("unterminated string");
      // The quote is escaped when an odd number of backslashes precede it.
      let slashes = 0;
      while (s.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
      from = end + 1;
    }
    this.pos = end + 1;
    const body = s.slice(start + 1, end);
    if (!NEEDS_DECODING.test(body)) return body;
    let decoded: unknown;
    try {
      decoded = JSON.parse(s.slice(start, end + 1));
    } catch {
      this.pos = start;
      this.fail("invalid string");
    }
    if (typeof decoded !== "string") this.fail("invalid string");
    return decoded;
  }

  private array(depth: number): RawJson[] {
    const items: RawJson[] = [];
    this.pos++;
    this.skipSpace();
    if (this.src[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.src[this.pos++];
      if (c === "]") return items;
      if (c !== ",") {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private object(depth: number): RawObject {
    let size = 0;
    this.pos++;
    this.skipSpace();
    if (this.src[this.pos] === "}") {
      this.pos++;
      return new RawObject(0);
    }
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] !== '"') this.fail("expected a string key");
      this.string();
      this.skipSpace();
      if (this.src[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      this.value(depth + 1);
      size++;
      this.skipSpace();
      const c = this.src[this.pos++];
      if (c === "}") return new RawObject(size);
      if (c !== ",") {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}
