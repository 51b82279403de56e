/** @module The characters a fact text may not hold: NUL, lone surrogates, and bidirectional embedding, override and isolate controls. */
import { MemoryError } from "../errors.ts";

/**
 * NUL cuts a text short in many readers; a lone surrogate is no character at all (it cannot be
 * encoded as UTF-8, so stores and embedders mangle it); bidi controls (U+202A-U+202E,
 * U+2066-U+2069) make a text display in another order than it reads ("Trojan Source"), so a
 * memory could look harmless and say otherwise to the model. Refused, never stripped: the stored
 * fact is exactly what was sent, or nothing. Without the `u` flag the pattern reads UTF-16 units,
 * so a lone surrogate half can match.
 */
const UNSAFE = /\u0000|[\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be a fact, in words that name the rule; null when it can. */
export function factTextProblem(text: string): string | null {
  const found = UNSAFE.exec(text);
  if (!found) return null;
  const unit = found[0].charCodeAt(0);
  if (unit === 0) return "must not hold a NUL character";
  if (unit >= 0xd800 && unit <= 0xdfff) return "must not hold a lone surrogate (text must be valid Unicode)";
  const code = unit.toString(16).toUpperCase().padStart(4, "0");
  return `must not hold bidirectional control characters (U+202A-U+202E, U+2066-U+2069; found U+${code})`;
}

/** Refuses (`invalid`) a text the fact text rule does not allow, whichever caller wrote it. */
export function checkFactText(text: string, field = "text"): void {
  const problem = factTextProblem(text);
  if (problem) throw new MemoryError("invalid", `${field} ${problem}`);
}
