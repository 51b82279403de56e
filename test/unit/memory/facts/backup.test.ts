import { describe, expect, it } from "vitest";
import { MemoryError, UpstreamUnavailable } from "../../../../src/memory/errors.ts";
import { BACKUP_USERS_PER_RUN, type BackupRunDeps, restoreFacts, runBackups } from "../../../../src/memory/facts/backup.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import type { FactScope } from "../../../../src/memory/ports/facts.ts";
import { InMemoryBackupStore } from "../../../support/fakes/backups.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { testDeps } from "../../../support/memory-deps.ts";

const counter = { count: (text: string) => text.length };
const HOUR = 3_600_000;

const fact = (id: string, text = `fact ${id}`): Fact => ({
  id,
  text,
  type: "preference",
  importance: 0.5,
  createdAt: 1,
  updatedAt: 1,
  lastAccessedAt: 1,
  accessCount: 0,
  version: 1,
});

function runDeps() {
  let cursor = "";
  const deps = {
    facts: new InMemoryFactStore(),
    users: new InMemoryUserStore(),
    backups: new InMemoryBackupStore(),
    tenants: ["acme"],
    loadCursor: async () => cursor,
    saveCursor: async (next: string) => {
      cursor = next;
    },
    takenAt: 10 * HOUR,
    intervalMs: HOUR,
    now: () => 10 * HOUR,
  } satisfies BackupRunDeps;
  return { deps, cursor: () => cursor };
}

describe("runBackups", () => {
  it("snapshots every user of the configured tenants and no one else's", async () => {
    const { deps, cursor } = runDeps();
    await deps.facts.upsert({ tenant: "acme", userId: "u1" }, [fact("a"), fact("b")]);
    await deps.facts.upsert({ tenant: "acme", userId: "u2" }, [fact("c")]);
    await deps.facts.upsert({ tenant: "other", userId: "u1" }, [fact("d")]);

    const report = await runBackups(deps);

    expect(report).toEqual({ usersVisited: 2, written: 2, completedPass: true, errors: [] });
    expect((await deps.backups.latest({ tenant: "acme", userId: "u1" }))?.facts.map((f) => f.id).sort()).toEqual(["a", "b"]);
    expect(await deps.backups.latest({ tenant: "acme", userId: "u2" })).toMatchObject({ takenAt: 10 * HOUR });
    expect(await deps.backups.count({ tenant: "other", userId: "u1" })).toBe(0);
    expect(cursor()).toBe("");
  });

  it("skips a user whose newest snapshot is younger than the interval", async () => {
    const { deps } = runDeps();
    const scope = { tenant: "acme", userId: "u1" };
    await deps.facts.upsert(scope, [fact("a")]);
    await deps.backups.write(scope, { takenAt: 10 * HOUR - HOUR / 2, facts: [] });

    const report = await runBackups(deps);

    expect(report).toMatchObject({ usersVisited: 1, written: 0 });
    expect(await deps.backups.count(scope)).toBe(1);
  });

  it("visits a bounded number of users per run and resumes after the last one", async () => {
    const { deps, cursor } = runDeps();
    const total = BACKUP_USERS_PER_RUN + 5;
    for (let i = 0; i < total; i++) await deps.facts.upsert({ tenant: "acme", userId: `u${String(i).padStart(2, "0")}` }, [fact("a")]);

    const first = await runBackups(deps);
    expect(first).toMatchObject({ usersVisited: BACKUP_USERS_PER_RUN, written: BACKUP_USERS_PER_RUN, completedPass: false });
    expect(cursor()).toBe(`acme\u0000u${BACKUP_USERS_PER_RUN - 1}`);

    const second = await runBackups(deps);
    expect(second).toMatchObject({ usersVisited: 5, written: 5, completedPass: true });
    expect(cursor()).toBe("");
    expect(deps.backups.calls.write).toBe(total);
  });

  it("reports a failing user and goes on with the others", async () => {
    const { deps } = runDeps();
    await deps.facts.upsert({ tenant: "acme", userId: "u1" }, [fact("a")]);
    await deps.facts.upsert({ tenant: "acme", userId: "u2" }, [fact("b")]);
    deps.backups.failNext("newestAt");

    const report = await runBackups(deps);

    expect(report.errors).toEqual(["acme/u1: newestAt failed"]);
    expect(report).toMatchObject({ usersVisited: 2, written: 1, completedPass: true });
    expect(await deps.backups.count({ tenant: "acme", userId: "u2" })).toBe(1);
  });

  it("removes the snapshot of a user erased while the run read their facts", async () => {
    const { deps } = runDeps();
    const scope = { tenant: "acme", userId: "u1" };
    await deps.facts.upsert(scope, [fact("a")]);
    await deps.users.markErased(scope, 10 * HOUR);

    const report = await runBackups(deps);

    expect(report).toMatchObject({ usersVisited: 1, written: 0, errors: [] });
    expect(await deps.backups.count(scope)).toBe(0);
  });
});

describe("restoreFacts", () => {
  const scope: FactScope = { tenant: "acme", userId: "u1" };

  function restoreDeps(users = new InMemoryUserStore()) {
    const facts = new InMemoryFactStore();
    const backups = new InMemoryBackupStore();
    return { facts, backups, users, deps: testDeps({ counter, facts, backups, users, now: () => 5 * HOUR }) };
  }

  it("writes back the facts missing since the newest snapshot and leaves present ones as they are", async () => {
    const { facts, backups, deps } = restoreDeps();
    await backups.write(scope, { takenAt: HOUR, facts: [fact("old")] });
    await backups.write(scope, { takenAt: 2 * HOUR, facts: [fact("a"), fact("b")] });
    await facts.upsert(scope, [fact("a", "edited since")]);

    const result = await restoreFacts(deps, "u1");

    expect(result).toEqual({ userId: "u1", snapshotAt: 2 * HOUR, restored: 1, present: 1 });
    const stored = Object.fromEntries(facts.all(scope).map((f) => [f.id, f.text]));
    expect(stored).toEqual({ a: "edited since", b: "fact b" });
  });

  it("is idempotent: a second restore finds everything present", async () => {
    const { backups, deps } = restoreDeps();
    await backups.write(scope, { takenAt: HOUR, facts: [fact("a")] });
    await restoreFacts(deps, "u1");

    expect(await restoreFacts(deps, "u1")).toMatchObject({ restored: 0, present: 1 });
  });

  it("refuses when backups or long-term memory are off", async () => {
    const { deps } = restoreDeps();
    await expect(restoreFacts({ ...deps, backups: null }, "u1")).rejects.toBeInstanceOf(UpstreamUnavailable);
    await expect(restoreFacts({ ...deps, facts: null }, "u1")).rejects.toMatchObject({ upstream: "vector", reason: "not_configured" });
  });

  it("is not_found without a snapshot", async () => {
    const { deps } = restoreDeps();
    await expect(restoreFacts(deps, "u1")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("never restores an erased user", async () => {
    const { facts, backups, users, deps } = restoreDeps();
    await backups.write(scope, { takenAt: HOUR, facts: [fact("a")] });
    await users.markErased(scope, 3 * HOUR);

    await expect(restoreFacts(deps, "u1")).rejects.toMatchObject({ kind: "conflict" });
    expect(facts.all(scope)).toEqual([]);
  });

  it("takes back what it wrote when the user is erased during the restore", async () => {
    // The first check passes; the erase lands before the second one.
    class ErasedMidway extends InMemoryUserStore {
      override async erasedAt(s: FactScope): Promise<number | null> {
        const first = this.calls.erasedAt === undefined;
        await super.erasedAt(s);
        return first ? null : 5 * HOUR;
      }
    }
    const { facts, backups, deps } = restoreDeps(new ErasedMidway());
    await backups.write(scope, { takenAt: HOUR, facts: [fact("a"), fact("b")] });

    const error = await restoreFacts(deps, "u1").catch((err: unknown) => err);

    expect(error).toBeInstanceOf(MemoryError);
    expect(facts.calls.upsert).toBe(1);
    expect(facts.all(scope)).toEqual([]);
  });
});
