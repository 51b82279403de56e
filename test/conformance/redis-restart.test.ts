import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import { startRedisEmulator } from "../../tools/upstash-local/redis/standalone.ts";

describe("embedded engine persistence", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "upstash-local-redis-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps data and TTLs written by the client across close and start", async () => {
    const first = await startRedisEmulator({ dataDir });
    const before = new Redis({ url: first.url, token: first.token });
    await before.set("doc", { text: "你好 🌍", n: 1 });
    await before.set("session", "alive", { ex: 300 });
    await before.set("brief", "gone soon", { px: 100 });
    await before.hset("hash", { a: 1, b: "two" });
    await before.rpush("list", "x", "y", "z");
    await before.zadd("zset", { score: 1.5, member: "a" }, { score: -2, member: "b" });
    await before.sadd("set", "m1", "m2");
    await before.incr("counter");
    await first.close();

    const saved: unknown = JSON.parse(await readFile(join(dataDir, "redis.json"), "utf8"));
    expect(saved).toMatchObject({ version: 1 });
    await new Promise((r) => setTimeout(r, 150)); // "brief" expires while the emulator is down

    const second = await startRedisEmulator({ dataDir });
    const after = new Redis({ url: second.url, token: second.token });
    try {
      expect(await after.get("doc")).toEqual({ text: "你好 🌍", n: 1 });
      const ttl = await after.ttl("session");
      expect(ttl).toBeGreaterThan(290);
      expect(ttl).toBeLessThanOrEqual(300);
      expect(await after.get("brief")).toBeNull();
      expect(await after.hgetall("hash")).toEqual({ a: 1, b: "two" });
      expect(await after.lrange("list", 0, -1)).toEqual(["x", "y", "z"]);
      expect(await after.zrange("zset", 0, -1, { withScores: true })).toEqual(["b", -2, "a", 1.5]);
      expect((await after.smembers("set")).sort()).toEqual(["m1", "m2"]);
      expect(await after.incr("counter")).toBe(2);
    } finally {
      await second.close();
    }
  });

  it("writes changes soon after they happen, before close", async () => {
    const emu = await startRedisEmulator({ dataDir });
    try {
      await new Redis({ url: emu.url, token: emu.token }).set("early", "written");
      await expect
        .poll(async () => readFile(join(dataDir, "redis.json"), "utf8"), { timeout: 3000 })
        .toContain("early");
    } finally {
      await emu.close();
    }
  });

  it("is what startUpstashLocal serves on the Redis port", async () => {
    const local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, dataDir });
    try {
      const redis = new Redis({
        url: local.env.UPSTASH_REDIS_REST_URL ?? "",
        token: local.env.UPSTASH_REDIS_REST_TOKEN ?? "",
      });
      expect(await redis.get("early")).toBe("written");
      expect(await redis.ping()).toBe("PONG");
    } finally {
      await local.close();
    }
  });
});
