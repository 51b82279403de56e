import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstashLocal } from "../../../tools/upstash-local/index.ts";
import { startRedisEmulator } from "../../../tools/upstash-local/redis/standalone.ts";

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

  it("logs the keys a write changed soon after it, without rewriting the snapshot, and a crash keeps them", async () => {
    const emu = await startRedisEmulator({ dataDir });
    const crashed = await mkdtemp(join(tmpdir(), "upstash-local-redis-crash-"));
    try {
      const redis = new Redis({ url: emu.url, token: emu.token });
      await redis.set("early", "written");
      await redis.rpush("early-list", "a", "b");
      await redis.eval("redis.call('SET', KEYS[1], ARGV[1]); redis.call('DEL', KEYS[2])", ["scripted", "early-list"], ["by a script"]);
      await expect
        .poll(async () => readFile(join(dataDir, "redis.json.log"), "utf8").catch(() => ""), { timeout: 3000 })
        .toContain("scripted");
      // only what changed was written: the snapshot from the last start is as it was
      expect(await readFile(join(dataDir, "redis.json"), "utf8")).not.toContain("early");
      // what a crash leaves: the files as they are now, with the emulator still running
      await cp(dataDir, crashed, { recursive: true });
      const restarted = await startRedisEmulator({ dataDir: crashed });
      try {
        const after = new Redis({ url: restarted.url, token: restarted.token });
        expect(await after.get("early")).toBe("written");
        expect(await after.get("scripted")).toBe("by a script");
        expect(await after.exists("early-list")).toBe(0);
        expect(await after.incr("counter")).toBe(3);
      } finally {
        await restarted.close();
      }
      // a start folds the log into the snapshot
      expect(await readFile(join(crashed, "redis.json"), "utf8")).toContain("scripted");
      await expect(readFile(join(crashed, "redis.json.log"), "utf8")).rejects.toThrow(/ENOENT/);
    } finally {
      await emu.close();
      await rm(crashed, { recursive: true, force: true });
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
