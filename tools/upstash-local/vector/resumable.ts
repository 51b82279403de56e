/** @module Resumable Vector queries: a ranking computed at start and returned page by page. */
import { randomUUID } from "node:crypto";
import type { VectorContext } from "./context.ts";
import { badRequest, notFound } from "./errors.ts";
import type { FusionAlgorithm } from "./fusion.ts";
import { parseQuery, rankRequest, search, type QueryMode } from "./query.ts";
import { denseRanking, fuseTop, sparseRanking } from "./ranking.ts";
import { renderRecord } from "./render.ts";
import type { NamespaceStore, ScoredRecord, StoredRecord } from "./store.ts";
import { LIMITS } from "./limits.ts";
import { present, readCount, readString, requireObject, type Includes, type Json } from "./validate.ts";

/** A query with both parts: the two component rankings, fused page by page. */
interface FusedPages {
  dense: ScoredRecord[];
  sparse: ScoredRecord[];
  fusion: FusionAlgorithm;
  returned: Set<StoredRecord>;
}

interface Session {
  namespace: string;
  /** Single-component queries: the full ranking, paged through. */
  ranked: ScoredRecord[];
  position: number;
  fused: FusedPages | undefined;
  includes: Includes;
  maxIdleMs: number;
  expiresAt: number;
}

/** Active resumable queries allowed at once (Upstash has a limit but does not state it). */
const MAX_SESSIONS = 1000;
const DEFAULT_MAX_IDLE_S = 3600;

/**
 * Resumable queries: the ranking is computed when the query starts, and each `next` call returns
 * the following `additionalK` hits. Records deleted or replaced since the start are skipped.
 *
 * A query with both parts (hybrid) is fused page by page, as the live service does: a page of k
 * fuses the best k not yet returned of each component ranking and returns the best k of that.
 * This reproduces the SDK's resumable hybrid test (DBSF scores 0.617851 and 0.5, then 0.5), which
 * a single fusion over the whole ranking would not.
 */
export class ResumableQueries {
  readonly #sessions = new Map<string, Session>();

  /** `POST /resumable-query/{ns}` and `/resumable-query-data/{ns}` -> `{uuid, scores}`. */
  async start(ctx: VectorContext, namespace: string, body: unknown, mode: QueryMode): Promise<{ uuid: string; scores: Json[] }> {
    const q = await parseQuery(ctx, body, mode);
    const maxIdleS = readCount(requireObject(body, "the query").maxIdle, "maxIdle", DEFAULT_MAX_IDLE_S, 7 * 24 * 3600);
    this.#expire();
    if (this.#sessions.size >= MAX_SESSIONS) {
      throw badRequest(`Too many active resumable queries (limit ${MAX_SESSIONS}); stop some first`);
    }
    const ns = ctx.store.get(namespace);
    const both = q.vector !== undefined && q.sparse !== undefined;
    const request = rankRequest(q);
    const session: Session = {
      namespace,
      ranked: both ? [] : search(ctx, namespace, q, Infinity),
      position: 0,
      fused:
        both && ns
          ? {
              dense: denseRanking(ctx, ns, request, Infinity),
              sparse: sparseRanking(ns, request, Infinity),
              fusion: q.fusion,
              returned: new Set(),
            }
          : undefined,
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
    if (session.fused) return ns ? this.#takeFused(ctx, ns, session.fused, session.includes, k) : [];
    const out: Json[] = [];
    while (out.length < k && session.position < session.ranked.length) {
      const hit = session.ranked[session.position];
      session.position += 1;
      if (ns && hit && ns.get(hit.record.id) === hit.record) out.push(renderRecord(ctx, ns, hit.record, session.includes, hit.score));
    }
    return out;
  }

  #takeFused(ctx: VectorContext, ns: NamespaceStore, pages: FusedPages, includes: Includes, k: number): Json[] {
    const open = (h: ScoredRecord): boolean => ns.get(h.record.id) === h.record && !pages.returned.has(h.record);
    const next = (list: ScoredRecord[]): ScoredRecord[] => {
      const out: ScoredRecord[] = [];
      for (const h of list) {
        if (out.length >= k) break;
        if (open(h)) out.push(h);
      }
      return out;
    };
    const page = fuseTop(next(pages.dense), next(pages.sparse), pages.fusion, k);
    for (const h of page) pages.returned.add(h.record);
    return page.map((h) => renderRecord(ctx, ns, h.record, includes, h.score));
  }

  #expire(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(id);
  }
}
