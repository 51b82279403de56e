/** @module What deleting a fact changes in the facts it had superseded, so none points at a fact that is gone. */
import { reinstated } from "./identity.ts";
import type { Fact } from "../model.ts";

/** The facts to write before `gone` is deleted, and the one that became current again (null when none did). */
export interface SupersessionRepair {
  updates: Fact[];
  /** The fact current again because the statement that replaced it is gone; null when none is. */
  restored: string | null;
}

/** The newest statement first: created later, then superseded later, then by id (a stable order). */
function newestFirst(a: Fact, b: Fact): number {
  return b.createdAt - a.createdAt || (b.supersededAt ?? 0) - (a.supersededAt ?? 0) || a.id.localeCompare(b.id);
}

/**
 * Deleting a fact takes back the statement it made, not what was true before it: when `gone` is
 * current, the newest fact it superseded becomes current again ("forget that I moved to Munich"
 * leaves "lives in Berlin" true), and the others it superseded now point at that one. When `gone`
 * was itself superseded, what it replaced points at the fact that replaced it. Either way no fact
 * keeps a `supersededBy` naming a fact that is gone. Each changed fact gets its next version.
 */
export function repairAfterDelete(gone: Fact, superseded: readonly Fact[]): SupersessionRepair {
  const replaced = superseded.filter((f) => f.supersededBy === gone.id && f.id !== gone.id).sort(newestFirst);
  const successor = gone.supersededBy;
  if (successor !== undefined) {
    const updates = replaced.map((f) =>
      f.id === successor ? { ...reinstated(f), version: f.version + 1 } : { ...f, supersededBy: successor, version: f.version + 1 },
    );
    return { updates, restored: replaced.some((f) => f.id === successor) ? successor : null };
  }
  const [newest, ...older] = replaced;
  if (!newest) return { updates: [], restored: null };
  const updates = [
    { ...reinstated(newest), version: newest.version + 1 },
    ...older.map((f) => ({ ...f, supersededBy: newest.id, version: f.version + 1 })),
  ];
  return { updates, restored: newest.id };
}
