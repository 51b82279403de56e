/**
 * Identifiers (tenant, session, user, message, fact, note key) become parts of Redis keys, Vector
 * namespaces (the Vector client puts them into a URL path unencoded) and Lua arguments, so they
 * are restricted to a charset with no key separator (`:`), no glob (`*`, `?`, `[`), no quote, no
 * slash, percent, space or unicode look-alike. `@` and `+` are allowed so e-mail-like user ids
 * fit: both are literal in a URL path and mean nothing to Redis or the scripts.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}$/;

/** Max length of any identifier. */
export const ID_MAX_LENGTH = 128;

/** The rule in words, for error messages and docs. */
export const ID_RULE = "1-128 characters of A-Z a-z 0-9 _ . - @ +, starting with a letter or digit";

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/**
 * Tool-call ids come from the model provider (`call_...`, `toolu_...`, `functions.f:0`) and are
 * matched by scripts that pair results with calls: printable ASCII without space, quote or
 * backslash, at most 128 characters.
 */
export const TOOL_CALL_ID_PATTERN = /^[!#-[\]-~]{1,128}$/;

export function isValidToolCallId(value: unknown): value is string {
  return typeof value === "string" && TOOL_CALL_ID_PATTERN.test(value);
}
