/** @module RedisBackend interface: where the Redis emulator runs commands (a real Redis or the embedded engine). */
import type { Args, Reply, ReplyError } from "./reply.ts";

/**
 * Where commands run: a real Redis over RESP2, or the embedded engine.
 *
 * Redis error replies are returned as `ReplyError` values, never thrown. A promise rejects only
 * when the backend could not run the commands at all (`BackendUnavailableError`).
 */
export interface RedisBackend {
  /** Runs one command. */
  exec(args: Args): Promise<Reply>;
  /** Runs commands in order, not atomically; one reply per command. */
  pipeline(commands: Args[]): Promise<Reply[]>;
  /**
   * Runs commands atomically (MULTI/EXEC). Returns one reply per command, or a single
   * `ReplyError` when the transaction was discarded as a whole (e.g. EXECABORT).
   */
  execMulti(commands: Args[]): Promise<Reply[] | ReplyError>;
  /** Flushes pending state and releases connections. */
  close(): Promise<void>;
}
