/** @module RESP backend: forwards the emulator's commands to a real Redis given by a `redis://` URL. */
import type { RedisBackend } from "../backend.ts";
import { ReplyError, type Args, type Reply } from "../reply.ts";
import { RespConnection, type RedisTarget } from "./connection.ts";

/** Options of {@link createRespBackend}. */
export interface RespBackendOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** Number of pipelined connections. Default 3. */
  poolSize?: number | undefined;
  /** Milliseconds to wait for a connection. Default 5000. */
  connectTimeoutMs?: number | undefined;
}

/** Parses a Redis URL; port defaults to 6379 and db to 0. */
export function parseRedisUrl(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid Redis URL: ${url}`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new Error(`unsupported Redis URL scheme "${parsed.protocol}" (use redis:// or rediss://)`);
  }
  const dbText = parsed.pathname.replace(/^\//, "");
  if (dbText !== "" && !/^\d+$/.test(dbText)) throw new Error(`invalid database number in Redis URL: ${dbText}`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1",
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    tls: parsed.protocol === "rediss:",
    username: parsed.username !== "" ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password !== "" ? decodeURIComponent(parsed.password) : undefined,
    db: dbText === "" ? 0 : Number(dbText),
  };
}

/**
 * Forwards commands to a real Redis and returns its replies exactly as received. Checks that the
 * server answers PING before resolving, so a wrong URL fails at start rather than on first use.
 */
export async function createRespBackend(options: RespBackendOptions): Promise<RedisBackend> {
  const target = parseRedisUrl(options.url);
  const size = Math.max(1, options.poolSize ?? 3);
  const pool = Array.from({ length: size }, () => new RespConnection(target, options.connectTimeoutMs ?? 5000));
  const pick = (): RespConnection => pool.reduce((best, c) => (c.inFlight < best.inFlight ? c : best));

  const backend: RedisBackend = {
    async exec(args: Args): Promise<Reply> {
      const [reply] = await pick().send([args]);
      return reply ?? null;
    },
    pipeline: (commands) => pick().send(commands),
    async execMulti(commands) {
      const replies = await pick().send([["MULTI"], ...commands, ["EXEC"]]);
      const [multi] = replies;
      if (multi instanceof ReplyError) return multi;
      const exec = replies[replies.length - 1] ?? null;
      if (Array.isArray(exec)) return exec;
      // EXECABORT: say which queued command was refused.
      const queued = replies.slice(1, -1).find((r): r is ReplyError => r instanceof ReplyError);
      if (exec instanceof ReplyError) {
        return new ReplyError(queued !== undefined ? `${exec.message} First error: ${queued.message}` : exec.message);
      }
      return new ReplyError("EXECABORT Transaction discarded");
    },
    async close() {
      await Promise.all(pool.map((c) => c.close()));
    },
  };

  const pong = await backend.exec(["PING"]).catch(async (err: unknown) => {
    await backend.close();
    throw new Error(`cannot reach Redis at ${options.url}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (pong instanceof ReplyError) {
    await backend.close();
    throw new Error(`Redis at ${options.url} refused PING: ${pong.message}`);
  }
  return backend;
}
