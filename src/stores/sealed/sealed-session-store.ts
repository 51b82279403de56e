/** @module SealedSessionStore: a session store decorator that seals message contents, summaries, titles and queued facts at rest. */
import type {
  AppendOptions,
  AppendResult,
  CommitOutcome,
  CompressionCommit,
  HeadLimits,
  HistoryPage,
  IndexSweep,
  ResetResult,
  SessionDump,
  SessionIdPage,
  SessionStore,
  SettingsChange,
  UserSessionsErased,
  WindowBound,
} from "../../memory/ports/index.ts";
import type { SessionRef, SessionSettings, SessionSnapshot, StoredMessage } from "../../memory/model.ts";
import type { FieldCipher } from "./cipher.ts";
import * as seal from "./fields.ts";

/**
 * A {@link SessionStore} that seals message contents, tool arguments, summaries, titles, turn
 * outcomes and queued fact texts before they reach the inner store, and opens them on the way
 * back. Ids, roles, token counts and timestamps pass through untouched (the scripts read them).
 */
export class SealedSessionStore implements SessionStore {
  readonly #inner: SessionStore;
  readonly #cipher: FieldCipher;

  constructor(inner: SessionStore, cipher: FieldCipher) {
    this.#inner = inner;
    this.#cipher = cipher;
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    const c = seal.codecsFor(this.#cipher, ref.tenant);
    const turn = options.turn;
    const [sealed, facts, outcome, title] = await Promise.all([
      seal.messages(messages, c.seal),
      options.facts ? Promise.all(options.facts.map((f) => seal.fact(f, c.seal))) : undefined,
      turn?.outcome ? seal.outcome(turn.outcome, c.seal) : undefined,
      options.title === undefined ? undefined : c.seal(options.title),
    ]);
    const result = await this.#inner.append(ref, sealed, {
      ...options,
      ...(facts ? { facts } : {}),
      ...(turn ? { turn: { ...turn, outcome } } : {}),
      ...(title === undefined ? {} : { title }),
    });
    const [snapshot, prior] = await Promise.all([
      result.snapshot ? seal.snapshot(result.snapshot, c.open) : undefined,
      result.outcome ? seal.outcome(result.outcome, c.open) : result.outcome,
    ]);
    return { ...result, ...(result.snapshot ? { snapshot } : {}), ...("outcome" in result ? { outcome: prior } : {}) };
  }

  /** The owner is stored clear (the scripts compare it). */
  owner(ref: SessionRef): Promise<string | null> {
    return this.#inner.owner(ref);
  }

  ownership(ref: SessionRef): Promise<{ exists: boolean; owner: string | null }> {
    return this.#inner.ownership(ref);
  }

  async read(ref: SessionRef, bound?: WindowBound): Promise<SessionSnapshot> {
    return seal.snapshot(await this.#inner.read(ref, bound), seal.codecsFor(this.#cipher, ref.tenant).open);
  }

  async readPage(ref: SessionRef, page: { offset: number; limit: number }): Promise<SessionSnapshot> {
    return seal.snapshot(await this.#inner.readPage(ref, page), seal.codecsFor(this.#cipher, ref.tenant).open);
  }

  async readHead(ref: SessionRef, limits: HeadLimits): Promise<SessionSnapshot> {
    return seal.snapshot(await this.#inner.readHead(ref, limits), seal.codecsFor(this.#cipher, ref.tenant).open);
  }

  updateSettings(ref: SessionRef, change: SettingsChange, defaultTtlSeconds: number): Promise<SessionSettings> {
    return this.#inner.updateSettings(ref, change, defaultTtlSeconds);
  }

  reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult> {
    return this.#inner.reset(ref, options);
  }

  async commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome> {
    const summary = await seal.summary(commit.summary, seal.codecsFor(this.#cipher, ref.tenant).seal);
    return this.#inner.commitCompression(ref, { ...commit, summary });
  }

  recordSummaryFailure(ref: SessionRef): Promise<number> {
    return this.#inner.recordSummaryFailure(ref);
  }

  acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean> {
    return this.#inner.acquireLock(ref, token, ttlMs);
  }

  releaseLock(ref: SessionRef, token: string): Promise<void> {
    return this.#inner.releaseLock(ref, token);
  }

  async history(ref: SessionRef, page: { offset: number; limit: number }): Promise<HistoryPage> {
    const open = seal.codecsFor(this.#cipher, ref.tenant).open;
    const h = await this.#inner.history(ref, page);
    const [summary, archived] = await Promise.all([h.summary ? seal.summary(h.summary, open) : null, seal.messages(h.archived, open)]);
    return { ...h, summary, archived };
  }

  async userSessions(tenant: string, userId: string, page: { offset: number; limit: number }): Promise<SessionIdPage> {
    const open = seal.codecsFor(this.#cipher, tenant).open;
    const p = await this.#inner.userSessions(tenant, userId, page);
    return { ...p, sessions: await Promise.all(p.sessions.map((s) => seal.listEntry(s, open))) };
  }

  async exportSessions(
    tenant: string,
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ sessions: SessionDump[]; next: number | null }> {
    const open = seal.codecsFor(this.#cipher, tenant).open;
    const p = await this.#inner.exportSessions(tenant, userId, page);
    return { ...p, sessions: await Promise.all(p.sessions.map((d) => seal.dump(d, open))) };
  }

  eraseUserSessions(tenant: string, userId: string, limit: number): Promise<UserSessionsErased> {
    return this.#inner.eraseUserSessions(tenant, userId, limit);
  }

  sweepIndexes(tenant: string, cursor: string): Promise<IndexSweep> {
    return this.#inner.sweepIndexes(tenant, cursor);
  }
}
