/**
 * RFC 7396 JSON Merge Patch, used by `update` with `metadataUpdateMode: "PATCH"`: object members
 * are merged recursively, `null` deletes a member, anything else (arrays included) replaces.
 * Returns a new value; the inputs are not modified.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}
