import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import type { AddResult, MemoryManager } from "../memory/manager.ts";
import { jsonLogger } from "./memory.ts";

/**
 * After an append: compression when due, off the response path (ctx.waitUntil). The response never
 * waits for the summarizer; a failure leaves the session as it was and the next append retries.
 */
export function scheduleAfterAppend(
  c: Context<AppEnv>,
  memory: MemoryManager,
  sessionId: string,
  result: AddResult,
): void {
  const deps = c.get("deps");
  if (result.compressionDue) {
    deps.background(
      memory.maybeCompress().then((outcome) => {
        jsonLogger.info("background compression", { session: sessionId, ...outcome });
      }),
    );
  }
}
