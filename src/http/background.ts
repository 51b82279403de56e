import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { FactService } from "../memory/fact-service.ts";
import { isSalient } from "../memory/facts.ts";
import type { AddResult, MemoryManager } from "../memory/manager.ts";
import type { IncomingMessage, StoredMessage } from "../memory/types.ts";
import { jsonLogger } from "./memory.ts";

export interface AppendedTurn {
  sessionId: string;
  userId: string | undefined;
  incoming: readonly IncomingMessage[];
  result: AddResult;
}

/**
 * After an append, off the response path (ctx.waitUntil): compression when due, and fact
 * extraction from new user messages. The response never waits for either; a failure leaves the
 * session as it was and is logged; the next append tries again.
 */
export function scheduleAfterAppend(c: Context<AppEnv>, memory: MemoryManager, turn: AppendedTurn): void {
  const deps = c.get("deps");
  const { sessionId, userId, incoming, result } = turn;
  if (result.compressionDue) {
    deps.background(
      memory.maybeCompress().then((outcome) => jsonLogger.info("background compression", { session: sessionId, ...outcome })),
    );
  }
  const extractor = deps.extractor;
  if (!extractor || !deps.facts || !userId) return;
  // Persisted messages are facts already; duplicates were learned from the first time. The
  // salience gate keeps small talk from costing a Vector query or an LLM call.
  const fresh: StoredMessage[] = [];
  incoming.forEach((m, i) => {
    const added = result.added[i];
    if (m.role !== "user" || m.persist || !added || added.duplicate || !isSalient(m.content).salient) return;
    fresh.push({ id: added.id, role: m.role, content: m.content, tokens: added.tokens, importance: m.importance ?? 0.5, ts: Date.now() });
  });
  if (fresh.length === 0) return;
  const service = new FactService({ facts: deps.facts, scope: { tenant: c.get("tenant"), userId }, options: c.get("config").memory });
  deps.background(
    service.learn(extractor, fresh, sessionId).then((report) => {
      if (report.added.length + report.updated.length > 0) jsonLogger.info("facts learned", { session: sessionId, ...report });
    }),
  );
}
