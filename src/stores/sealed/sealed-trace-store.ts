/** @module SealedTraceStore: a trace store decorator that seals a trace's recall query and candidate texts at rest. */
import type { TraceRef, TraceStore } from "../../memory/ports/index.ts";
import type { Trace } from "../../memory/observe/index.ts";
import type { FieldCipher } from "./cipher.ts";
import { codecsFor, type TextCodec } from "./fields.ts";

/** A trace's contents are the recall query and the candidates' texts; ids, scores and timings stay clear. */
async function traceTexts(trace: Trace, codec: TextCodec): Promise<Trace> {
  if (!trace.recall) return trace;
  const [query, candidates] = await Promise.all([
    codec(trace.recall.query),
    Promise.all(trace.recall.candidates.map(async (c) => ({ ...c, text: await codec(c.text) }))),
  ]);
  return { ...trace, recall: { ...trace.recall, query, candidates } };
}

/** {@link TraceStore} that seals a trace's texts at rest. */
export class SealedTraceStore implements TraceStore {
  readonly #inner: TraceStore;
  readonly #cipher: FieldCipher;

  constructor(inner: TraceStore, cipher: FieldCipher) {
    this.#inner = inner;
    this.#cipher = cipher;
  }

  async put(tenant: string, trace: Trace, ttlSeconds: number): Promise<void> {
    await this.#inner.put(tenant, await traceTexts(trace, codecsFor(this.#cipher, tenant).seal), ttlSeconds);
  }

  async get(tenant: string, traceId: string): Promise<Trace | null> {
    const trace = await this.#inner.get(tenant, traceId);
    return trace ? traceTexts(trace, codecsFor(this.#cipher, tenant).open) : null;
  }

  eraseUser(tenant: string, userId: string, limit: number): Promise<{ removed: number; more: boolean }> {
    return this.#inner.eraseUser(tenant, userId, limit);
  }

  recent(tenant: string, sessionId: string, limit: number): Promise<TraceRef[]> {
    return this.#inner.recent(tenant, sessionId, limit);
  }
}
