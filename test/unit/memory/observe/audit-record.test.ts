import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../../src/memory/observe/audit.ts";
import { recordAudit } from "../../../../src/memory/observe/audit-record.ts";
import type { AuditLog } from "../../../../src/memory/ports/operations.ts";

/** An audit log that keeps each append with its options, and can fail every write. */
function auditLog(fail = false): AuditLog & { appended: { tenant: string; entry: AuditEntry; throttle: boolean | undefined }[] } {
  const appended: { tenant: string; entry: AuditEntry; throttle: boolean | undefined }[] = [];
  return {
    appended,
    async append(tenant, entry, options) {
      if (fail) throw new Error("audit down");
      appended.push({ tenant, entry, throttle: options?.throttle });
    },
    async list() {
      return [];
    },
  };
}

function deps(audit: AuditLog) {
  const jobs: Promise<unknown>[] = [];
  return {
    jobs,
    tenant: "acme",
    actor: { kind: "key" as const, id: "k1" },
    audit,
    now: () => 1234,
    newId: () => "e1",
    background: (work: Promise<unknown>) => {
      jobs.push(work);
    },
  };
}

describe("recordAudit", () => {
  it("appends one entry for the tenant in the background, with actor, time, id and compact target", async () => {
    const audit = auditLog();
    const d = deps(audit);

    recordAudit(d, "fact.delete", { userId: "u1", factId: "f1", sessionId: undefined }, { count: 1 });

    expect(d.jobs).toHaveLength(1);
    await Promise.all(d.jobs);
    expect(audit.appended).toEqual([
      {
        tenant: "acme",
        throttle: false,
        entry: {
          id: "e1",
          ts: 1234,
          actor: { kind: "key", id: "k1" },
          action: "fact.delete",
          target: { userId: "u1", factId: "f1" },
          details: { count: 1 },
        },
      },
    ]);
    expect("sessionId" in (audit.appended[0]?.entry.target ?? {})).toBe(false);
  });

  it("leaves details out when there are none", async () => {
    const audit = auditLog();
    const d = deps(audit);
    recordAudit(d, "user.export", { userId: "u1" });
    await Promise.all(d.jobs);
    expect(audit.appended[0]?.entry).not.toHaveProperty("details");
  });

  it("throttles refusals and auth failures only", async () => {
    const audit = auditLog();
    const d = deps(audit);
    recordAudit(d, "access.denied", {});
    recordAudit(d, "auth.failed", {});
    recordAudit(d, "user.erase", { userId: "u1" });
    await Promise.all(d.jobs);
    expect(audit.appended.map((a) => [a.entry.action, a.throttle])).toEqual([
      ["access.denied", true],
      ["auth.failed", true],
      ["user.erase", false],
    ]);
  });

  it("never throws on the caller's path when the write fails: the failure goes to the background job", async () => {
    const d = deps(auditLog(true));
    expect(() => recordAudit(d, "user.erase", { userId: "u1" })).not.toThrow();
    await expect(d.jobs[0]).rejects.toThrow("audit down");
  });
});
