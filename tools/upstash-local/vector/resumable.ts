import { randomUUID } from "node:crypto";
import type { VectorContext } from "./context.ts";
import { badRequest, notFound } from "./errors.ts";
import { parseQuery, search, type QueryMode } from "./query.ts";
import { renderRecord } from "./render.ts";
import type { ScoredRecord } from "./store.ts";
import { LIMITS } from "./limits.ts";
import { present, readCount, readString, requireObject, type Includes, type Json } from "./validate.ts";

interface Session {
  namespace: string;
  ranked: ScoredRecord[];
  position: number;
  includes: Includes;
  maxIdleMs: number;
  expiresAt: number;
}

/** Active resumable queries allowed at once (Upstash has a limit but does not state it). */
const MAX_SESSIONS = 1000;
const DEFAULT_MAX_IDLE_S = 3600;

/**
 * Resumable queries: the full ranking is computed when the query starts, and each `next` call
 * returns the following `additionalK` hits. Records deleted or replaced since the start are skipped.
 */
export class ResumableQueries {
  readonly #sessions = new Map<string, Session>();

  /** `POST /resumable-query/{ns}` and `/resumable-query-data/{ns}` -> `{uuid, scores}`. */
  start(ctx: VectorContext, namespace: string, body: unknown, mode: QueryMode): { uuid: string; scores: Json[] } {
    const q = parseQuery(ctx, body, mode);
    const maxIdleS = readCount(requireObject(body, "the query").maxIdle, "maxIdle", DEFAULT_MAX_IDLE_S, 7 * 24 * 3600);
    this.#expire();
    if (this.#sessions.size >= MAX_SESSIONS) {
      throw badRequest(`Too many active resumable queries (limit ${MAX_SESSIONS}); stop some first`);
    }
    const session: Session = {
      namespace,
      ranked: search(ctx, namespace, q, Infinity),
      position: 0,
      includes: q.includes,
      maxIdleMs: maxIdleS * 1000,
      expiresAt: 0,
    };
    const uuid = randomUUID();
    this.#sessions.set(uuid, session);
    return { uuid, scores: this.#take(ctx, session, q.topK) };
  }

  /** `POST /resumable-query-next` `{uuid, additionalK}`. */
  next(ctx: VectorContext, body: unknown): Json[] {
    const req = requireObject(body, "the resumable query payload");
    const session = this.#get(req.uuid);
    if (!present(req.additionalK)) throw badRequest("Invalid request body: additionalK is required");
    return this.#take(ctx, session, readCount(req.additionalK, "additionalK", 0, LIMITS.topK));
  }

  /** `POST /resumable-query-end` `{uuid}`. */
  end(body: unknown): string {
    const req = requireObject(body, "the resumable query payload");
    this.#get(req.uuid);
    this.#sessions.delete(String(req.uuid));
    return "Success";
  }

  #get(uuid: unknown): Session {
    const id = readString(uuid, "uuid");
    if (id === undefined) throw badRequest("Invalid request body: uuid is required");
    this.#expire();
    const session = this.#sessions.get(id);
    if (!session) throw notFound(`Resumable query ${id} does not exist or has expired`);
    return session;
  }

  #take(ctx: VectorContext, session: Session, k: number): Json[] {
    session.expiresAt = Date.now() + session.maxIdleMs;
    const ns = ctx.store.get(session.namespace);
    const out: Json[] = [];
    while (out.length < k && session.position < session.ranked.length) {
      const hit = session.ranked[session.position];
      session.position += 1;
      if (ns && hit && ns.get(hit.record.id) === hit.record) out.push(renderRecord(ns, hit.record, session.includes, hit.score));
    }
    return out;
  }

  #expire(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(id);
  }
}
