/**
 * @module The cron's repair of a relation with several current facts: the newest stays current,
 * the others are marked superseded by it (one current truth, whatever a past race left).
 */
import { supersededFact } from "../facts/identity.ts";
import type { FactScope, FactStore, LearningLocks, UserStore } from "../ports/facts.ts";
import type { RelationKeys } from "../ports/llm.ts";
import type { Fact } from "../model.ts";

/** How long the repair holds the user's learning lock, ms (a read and a patch). */
const REPAIR_LOCK_TTL_MS = 10_000;

/** Groups of current facts that state one single-valued relation, per agent (an agent's private fact is never ended by another agent's or a shared one). */
function duplicateGroups(facts: readonly Fact[], keys: RelationKeys): Fact[][] {
  const groups = new Map<string, Fact[]>();
  for (const fact of facts) {
    // An episode is what the user said once: never a current truth to repair.
    if (fact.supersededAt !== undefined || fact.type === "episode") continue;
    const key = keys.keyOf(fact.text);
    if (key === null) continue;
    const group = `${fact.agentId ?? ""}\u0000${key}`;
    groups.set(group, [...(groups.get(group) ?? []), fact]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * The facts to mark superseded among `facts`: in each group of current facts of one agent and
 * one single-valued relation key, every fact but the newest (`updatedAt`, then `createdAt`, then
 * id, so the choice is stable), each marked superseded by that newest one at `now`.
 */
export function duplicateSupersedes(facts: readonly Fact[], keys: RelationKeys, now: number): Fact[] {
  return duplicateGroups(facts, keys).flatMap((group) => {
    const [newest, ...older] = [...group].sort(
      (a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    return older.map((fact) => supersededFact(fact, newest!.id, now));
  });
}

export interface DuplicateRepairDeps {
  facts: FactStore;
  users: Pick<UserStore, "erasedAt">;
  keys: RelationKeys;
  /** The user's learning lock: the repair runs only while no learning turn does. Null: unserialized. */
  locks: LearningLocks | null;
  now: number;
}

/**
 * Repairs duplicates among the facts the sweep read of one user. Under the user's learning lock
 * (skipped when a turn holds it: the next pass repairs what is left), the facts of each group are
 * read again and the repair is decided on what they say now, then patched. An erase meanwhile
 * wins: what was patched is deleted again. Returns how many facts it marked superseded.
 */
export async function repairDuplicates(deps: DuplicateRepairDeps, scope: FactScope, seen: readonly Fact[]): Promise<number> {
  const ids = duplicateGroups(seen, deps.keys).flatMap((g) => g.map((f) => f.id));
  if (ids.length === 0) return 0;
  const token = `lr_${crypto.randomUUID()}`;
  if (deps.locks && !(await deps.locks.tryAcquire(scope, token, REPAIR_LOCK_TTL_MS))) return 0;
  let patched: Fact[] = [];
  try {
    const fresh = (await deps.facts.get(scope, ids)).filter((f): f is Fact => f !== null);
    patched = duplicateSupersedes(fresh, deps.keys, deps.now);
    if (patched.length === 0) return 0;
    await deps.facts.patch(scope, patched);
    const erasedAt = await deps.users.erasedAt(scope);
    if (erasedAt !== null && erasedAt >= deps.now) {
      await deps.facts.delete(
        scope,
        patched.map((f) => f.id),
      );
      return 0;
    }
    return patched.length;
  } finally {
    await deps.locks?.release(
      scope,
      token,
      patched.map((f) => f.id),
      deps.now,
      deps.now,
    );
  }
}
