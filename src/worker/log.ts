/** @module The structured logger: one JSON line per event. */
import type { MemoryLogger } from "../memory/ports/index.ts";

/** Structured logs: one JSON line per event, never message contents. */
export const jsonLogger: MemoryLogger = {
  debug: (msg, data) => console.debug(JSON.stringify({ level: "debug", msg, ...data })),
  info: (msg, data) => console.log(JSON.stringify({ level: "info", msg, ...data })),
  warn: (msg, data) => console.warn(JSON.stringify({ level: "warn", msg, ...data })),
  error: (msg, data) => console.error(JSON.stringify({ level: "error", msg, ...data })),
};
