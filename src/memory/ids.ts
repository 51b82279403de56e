/**
 * Identifiers (tenant, session, user, message, fact, note key) become parts of Redis keys, Vector
 * namespaces and filter strings, so they are restricted to a charset with no separators (`:`),
 * globs (`*`, `?`, `[`), quotes, spaces or unicode look-alikes.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Max length of any identifier. */
export const ID_MAX_LENGTH = 128;

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}
