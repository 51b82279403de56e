/** In-memory fakes of the operations ports (src/memory/ports/operations.ts): audit log and erase journal. */
import type { AuditEntry } from "../../../src/memory/observe/audit.ts";
import type { AuditLog, EraseJob, EraseJournal, EraseOutcome, ErasePart, ErasedCounts } from "../../../src/memory/ports/operations.ts";
import type { FactScope } from "../../../src/memory/ports/facts.ts";

/** {@link AuditLog} in memory: every entry kept, throttling ignored. */
export class InMemoryAuditLog implements AuditLog {
  readonly entries: { tenant: string; entry: AuditEntry }[] = [];

  async append(tenant: string, entry: AuditEntry): Promise<void> {
    this.entries.push({ tenant, entry });
  }

  async list(tenant: string, query: { since: number; limit: number }): Promise<AuditEntry[]> {
    return this.entries
      .filter((e) => e.tenant === tenant && e.entry.ts > query.since)
      .map((e) => e.entry)
      .sort((a, b) => a.ts - b.ts)
      .slice(0, query.limit);
  }
}

/** {@link EraseJournal} in memory (the in-memory session store counts into it, like the scripts). */
export class InMemoryEraseJournal implements EraseJournal {
  readonly #jobs = new Map<string, EraseJob & { pending: Partial<Record<ErasePart, number>> }>();
  readonly #last = new Map<string, EraseJob>();
  readonly calls: Record<string, number> = {};
  #failNext: string | null = null;

  /** Makes the next call of `method` throw (a Redis fault on that step). */
  failNext(method: "begin" | "plan" | "settle" | "finish"): void {
    this.#failNext = method;
  }

  #enter(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (this.#failNext === method) {
      this.#failNext = null;
      throw new Error(`${method} failed`);
    }
  }

  async begin(scope: FactScope, receiptId: string, at: number): Promise<EraseJob> {
    this.#enter("begin");
    const key = `${scope.tenant}/${scope.userId}`;
    const job = this.#jobs.get(key) ?? {
      receiptId,
      startedAt: at,
      removed: { sessions: 0, messages: 0, archives: 0, notes: 0, facts: 0, backups: 0, traces: 0 },
      pending: {},
    };
    this.#jobs.set(key, job);
    return structuredClone({ receiptId: job.receiptId, startedAt: job.startedAt, removed: job.removed });
  }

  /** What a store removed, counted in the same step (as the scripts do); no-op without a running job. */
  count(scope: FactScope, removed: Partial<ErasedCounts>): void {
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    if (!job) return;
    for (const [name, n] of Object.entries(removed) as [keyof ErasedCounts, number][]) job.removed[name] += n;
  }

  async plan(scope: FactScope, part: ErasePart, remaining: number): Promise<void> {
    this.#enter("plan");
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    if (!job) return;
    const pending = job.pending[part];
    if (pending !== undefined && pending > remaining) job.removed[part] += pending - remaining;
    job.pending[part] = remaining;
  }

  async settle(scope: FactScope, part: ErasePart): Promise<void> {
    this.#enter("settle");
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    const pending = job?.pending[part];
    if (!job || pending === undefined) return;
    job.removed[part] += pending;
    delete job.pending[part];
  }

  async finish(scope: FactScope, more: boolean): Promise<EraseOutcome> {
    this.#enter("finish");
    const key = `${scope.tenant}/${scope.userId}`;
    const job = this.#jobs.get(key);
    const last = this.#last.get(key);
    const answer = (state: EraseOutcome["state"], j: EraseJob): EraseOutcome => ({
      state,
      receiptId: j.receiptId,
      startedAt: j.startedAt,
      removed: { ...j.removed },
    });
    if (!job)
      return last
        ? answer("replay", last)
        : {
            state: "replay",
            receiptId: "",
            startedAt: 0,
            removed: { sessions: 0, messages: 0, archives: 0, notes: 0, facts: 0, backups: 0, traces: 0 },
          };
    if (more || Object.keys(job.pending).length > 0) return answer("running", job);
    this.#jobs.delete(key);
    if (Object.values(job.removed).every((n) => n === 0) && last) return answer("replay", last);
    const closed = { receiptId: job.receiptId, startedAt: job.startedAt, removed: { ...job.removed } };
    this.#last.set(key, closed);
    return answer("closed", closed);
  }
}
