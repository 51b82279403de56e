/** @module Embedded Redis backend: runs commands in-process on the engine, with optional persistence to disk. */
import type { RedisBackend } from "../backend.ts";
import { BackendUnavailableError, ReplyError } from "../reply.ts";
import { createEngine } from "./engine.ts";
import { Persister } from "./persister.ts";
import { applyChanges, entryOf, restoreSnapshot, takeSnapshot } from "./snapshot.ts";

/** Options of {@link createEmbeddedBackend}. */
export interface EmbeddedBackendOptions {
  /** Folder for `redis.json` and its change log. Default: none, data lives in memory only. */
  dataDir?: string | undefined;
  /** Debounce of data file writes in ms. Default 200. */
  persistDebounceMs?: number | undefined;
  /** Longest a Lua script may run before it is stopped, in ms. Default 5000. */
  scriptTimeoutMs?: number | undefined;
}

/**
 * The in-process backend. Commands run synchronously, one request at a time, so a /multi-exec
 * batch (and a script) is atomic without locks.
 */
export async function createEmbeddedBackend(options: EmbeddedBackendOptions = {}): Promise<RedisBackend> {
  let persister: Persister | undefined;
  const engine = createEngine({
    onWrite: (keys) => persister?.markDirty(keys),
    onSave: () => {
      persister?.compactNext();
      void persister?.flush().catch(() => undefined);
    },
    scriptTimeoutMs: options.scriptTimeoutMs,
  });
  if (options.dataDir !== undefined) {
    persister = new Persister({
      dataDir: options.dataDir,
      debounceMs: options.persistDebounceMs,
      snapshot: () => takeSnapshot(engine.ctx),
      entry: (key) => entryOf(engine.ctx, key),
    });
    const saved = await persister.load();
    if (saved.snapshot !== undefined) restoreSnapshot(engine.ctx, saved.snapshot);
    applyChanges(engine.ctx, saved.changes);
    // start from one snapshot: the log is folded in now, before any request
    if (saved.changes.length > 0) {
      persister.compactNext();
      await persister.flush();
    }
  }
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new BackendUnavailableError("ERR backend is closed");
  };

  return {
    async exec(args) {
      ensureOpen();
      return engine.run(args);
    },
    async pipeline(commands) {
      ensureOpen();
      return commands.map((args) => engine.run(args));
    },
    async execMulti(commands) {
      ensureOpen();
      // Like Redis, a command that can't even be queued discards the whole transaction.
      for (const args of commands) {
        const error = engine.check(args);
        if (error !== undefined) {
          return new ReplyError(`EXECABORT Transaction discarded because of previous errors. First error: ${error.message}`);
        }
      }
      return commands.map((args) => engine.run(args));
    },
    async close() {
      if (closed) return;
      closed = true;
      persister?.stop();
      // one snapshot to start from next time (shutdown is off the request path)
      persister?.compactNext();
      await persister?.flush();
      engine.dispose();
    },
  };
}
