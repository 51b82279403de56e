import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisEmulator, type RedisEmulator } from "../../../tools/upstash-local/redis/standalone.ts";
import { deleteByPrefix, redisVariants, uniquePrefix } from "./variants.ts";

// The tenant metrics count distinct sessions per hour with PFADD / PFCOUNT; the embedded engine
// must answer them as Redis does (Redis is exact at these small counts).
const variants = await redisVariants();

describe.each(variants)("HyperLogLog commands ($name)", ({ redisUrl }) => {
  let emu: RedisEmulator;
  let redis: Redis;
  const prefix = uniquePrefix("hll");

  beforeAll(async () => {
    emu = await startRedisEmulator({ token: "hll-token", redisUrl });
    redis = new Redis({ url: emu.url, token: emu.token, enableAutoPipelining: false });
  });
  afterAll(async () => {
    await deleteByPrefix(redis, prefix);
    await emu.close();
  });

  it("adds, counts a union, merges, and is a string to TYPE", async () => {
    const [a, b, c] = [`${prefix}a`, `${prefix}b`, `${prefix}c`];
    expect(await redis.pfadd(a, "s1", "s2", "s3")).toBe(1);
    expect(await redis.pfadd(a, "s2")).toBe(0);
    expect(await redis.pfadd(b, "s3", "s4")).toBe(1);
    expect(await redis.pfcount(a)).toBe(3);
    expect(await redis.pfcount(a, b)).toBe(4);
    expect(await redis.pfcount(`${prefix}missing`)).toBe(0);
    expect(await redis.pfmerge(c, a, b)).toBe("OK");
    expect(await redis.pfcount(c)).toBe(4);
    expect(await redis.type(a)).toBe("string");
    // A key created empty still counts as created.
    expect(await redis.pfadd(`${prefix}empty`)).toBe(1);
    expect(await redis.pfcount(`${prefix}empty`)).toBe(0);
  });

  it("refuses a value that is not a HyperLogLog", async () => {
    await redis.set(`${prefix}plain`, "hello");
    await expect(redis.pfadd(`${prefix}plain`, "x")).rejects.toThrow(/WRONGTYPE/);
    await redis.lpush(`${prefix}list`, "x");
    await expect(redis.pfcount(`${prefix}list`)).rejects.toThrow(/WRONGTYPE/);
  });
});
