/** @module Port checks for `npm run dev`: whether a port can be listened on and the one-line message when it cannot. */
import { createServer } from "node:net";
import type { PortSetting } from "./dev-options.ts";

/**
 * Why nothing can listen on `host:port` (`"EADDRINUSE"`, `"EACCES"`...), or null when something can.
 * Checked before anything starts, so a busy port stops `npm run dev` before a half-started stack.
 */
export function portProblem(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** The one line that tells which setting to change when its port cannot be used. */
export function portMessage(setting: PortSetting, port: number, problem: string): string {
  const state = problem === "EADDRINUSE" ? "is already in use" : `cannot be used (${problem})`;
  return `npm run dev: port ${port} (${setting.what}) ${state}; set ${setting.variable} or pass ${setting.flag} to pick another`;
}

/** The listen error's code and port, when `err` is one (Node sets both on a failed `listen`). */
export function listenFailure(err: unknown): { code: string; port: number } | null {
  const e = err as NodeJS.ErrnoException & { port?: unknown };
  if (e?.syscall !== "listen" || typeof e.code !== "string" || typeof e.port !== "number") return null;
  return { code: e.code, port: e.port };
}
