import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { CompressionCommit } from "../../../src/memory/ports/sessions.ts";
import type { Role, SessionRef, StoredMessage } from "../../../src/memory/model.ts";
import { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { RedisWorkingMemoryStore } from "../../../src/stores/working-memory-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../../tools/upstash-local/index.ts";
import { redisVariants } from "../../emulator/redis/variants.ts";

// The session-store tests run through the official client against upstash-local, once forwarding to
// the run's real Redis (when it has one) and once on its embedded engine (what `npm run dev` uses
// without a Redis), so the Lua scripts are proven on both. A per-run tenant keeps these files' keys
// apart from other suites'.
export const tenant = `st${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
export const TTL = 600;

export const BACKENDS: [string, string | undefined][] = (await redisVariants()).map((v) => [v.name, v.redisUrl]);

/** The stores on one backend, set up before the describe block's tests and cleaned up after them. */
export class SessionStores {
  local!: UpstashLocal;
  redis!: Redis;
  store!: RedisSessionStore;
  working!: RedisWorkingMemoryStore;
  clock = 1_700_000_000_000;
  #seq = 0;

  readonly nextRef = (): SessionRef => ({ tenant, sessionId: `s${++this.#seq}` });

  readonly msg = (id: string, role: Role, content: string, tokens = 10): StoredMessage => ({
    id,
    role,
    content,
    tokens,
    importance: role === "system" ? 1 : 0.5,
    ts: this.clock,
  });

  /** Counts HTTP requests the operation sent to the emulator (each is one round trip). */
  readonly roundTrips = async (op: () => Promise<unknown>): Promise<number> => {
    this.local.redis.resetLog();
    await op();
    return this.local.redis.log.length;
  };

  readonly commitFor = (
    epoch: number,
    expectedVersion: number,
    prefixIds: string[],
    extra: Partial<CompressionCommit> = {},
  ): CompressionCommit => ({
    epoch,
    expectedVersion,
    prefixIds,
    summary: {
      text: `summary of ${prefixIds.join(",")}`,
      tokens: 7,
      version: expectedVersion + 1,
      covered: prefixIds.length,
      method: "llm",
      updatedAt: this.clock,
      lastRatio: 0.25,
    },
    archiveLimit: 100,
    ttlSeconds: TTL,
    ...extra,
  });
}

/** Registers the hooks of a describe block over one backend (`redisUrl` undefined: the embedded engine). */
export function sessionStoresOn(redisUrl: string | undefined): SessionStores {
  const s = new SessionStores();
  beforeAll(async () => {
    s.local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(redisUrl ? { redisUrl } : {}) });
    s.redis = new Redis({ url: s.local.redis.url, token: s.local.token, enableTelemetry: false });
    s.store = new RedisSessionStore(s.redis, { now: () => s.clock });
    s.working = new RedisWorkingMemoryStore(s.redis);
  });

  afterAll(async () => {
    let cursor = "0";
    do {
      const [next, keys] = await s.redis.scan(cursor, { match: `am:${tenant}:*`, count: 500 });
      if (keys.length > 0) await s.redis.del(...keys);
      cursor = String(next);
    } while (cursor !== "0");
    await s.local.close();
  });

  beforeEach(() => {
    s.clock += 1000;
  });
  return s;
}
