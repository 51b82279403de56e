import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { MemoryManager, type MemoryLogger } from "../memory/manager.ts";
import type { SessionRef } from "../memory/types.ts";

/** Structured logs: one JSON line per event, never message contents. */
export const jsonLogger: MemoryLogger = {
  info: (msg, data) => console.log(JSON.stringify({ level: "info", msg, ...data })),
  warn: (msg, data) => console.warn(JSON.stringify({ level: "warn", msg, ...data })),
  error: (msg, data) => console.error(JSON.stringify({ level: "error", msg, ...data })),
};

export function sessionRef(c: Context<AppEnv>, sessionId: string): SessionRef {
  return { tenant: c.get("tenant"), sessionId };
}

/** Builds this request's MemoryManager; it holds nothing beyond the request. */
export async function memoryFor(c: Context<AppEnv>, sessionId: string, userId?: string): Promise<MemoryManager> {
  const deps = c.get("deps");
  const config = c.get("config");
  const counter = await deps.counter();
  return new MemoryManager({
    ref: sessionRef(c, sessionId),
    userId,
    sessions: deps.sessions(),
    facts: deps.facts,
    summarizer: deps.summarizer(counter),
    counter,
    options: config.memory,
    logger: jsonLogger,
  });
}
