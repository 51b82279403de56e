import { errors, Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRedisEmulator, type RedisEmulator } from "../../../tools/upstash-local/redis/standalone.ts";
import { deleteByPrefix, redisVariants, uniquePrefix } from "./variants.ts";

const variants = await redisVariants();

/** The commands of one logged request body, e.g. [["set","k","v"]] for /pipeline. */
function loggedCommands(body: string): unknown[][] {
  const parsed: unknown = JSON.parse(body);
  if (!Array.isArray(parsed)) throw new Error(`unexpected body ${body}`);
  return parsed.every(Array.isArray) ? (parsed as unknown[][]) : [parsed];
}

describe.each(variants)("@upstash/redis against the emulator ($name)", ({ redisUrl }) => {
  let emu: RedisEmulator;
  let redis: Redis;
  const prefix = uniquePrefix("client");
  let n = 0;
  let key = "";
  const k = (suffix: string) => `${key}${suffix}`;

  beforeAll(async () => {
    emu = await startRedisEmulator({ token: "conformance-token", redisUrl });
    // Default settings on purpose: auto-pipelining, base64 responses, read-your-writes.
    redis = new Redis({ url: emu.url, token: emu.token });
  });
  afterAll(async () => {
    await deleteByPrefix(redis, prefix);
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
    await emu.close();
  });
  beforeEach(() => {
    key = `${prefix}${++n}:`;
    emu.listener.resetLog();
  });

  it("round-trips strings, numbers and JSON objects", async () => {
    expect(await redis.set(k("s"), "hello")).toBe("OK");
    expect(await redis.get(k("s"))).toBe("hello");
    const doc = { name: "Ada", tags: ["x", "y"], nested: { n: 1, ok: true, none: null } };
    await redis.set(k("doc"), doc);
    expect(await redis.get(k("doc"))).toEqual(doc);
    await redis.set(k("num"), 42);
    expect(await redis.get(k("num"))).toBe(42);
    // Text that only looks like a number keeps its exact spelling.
    await redis.set(k("float-text"), "1.0");
    expect(await redis.get(k("float-text"))).toBe("1.0");
    await redis.set(k("big"), "101600000000150081467");
    expect(await redis.get(k("big"))).toBe("101600000000150081467");
    expect(await redis.get(k("missing"))).toBeNull();
    await redis.mset({ [k("m1")]: "a", [k("m2")]: { b: 2 } });
    expect(await redis.mget(k("m1"), k("m2"), k("missing"))).toEqual(["a", { b: 2 }, null]);
  });

  it("keeps Chinese text and emoji intact, also in large values", async () => {
    const text = "记忆体 — 你好，世界！🌍👩‍👩‍👧 café";
    await redis.set(k("unicode"), text);
    expect(await redis.get(k("unicode"))).toBe(text);
    await redis.hset(k("h"), { [text]: text });
    expect(await redis.hget(k("h"), text)).toBe(text);
    await redis.set(k(text), "unicode key");
    expect(await redis.get(k(text))).toBe("unicode key");
    // ~600 KB of multi-byte text crosses many TCP chunks in both directions.
    const big = "汉字🙂é".repeat(60_000);
    await redis.set(k("big"), big);
    expect(await redis.get(k("big"))).toBe(big);
  });

  it("counts with incr, incrby, decr and incrbyfloat", async () => {
    expect(await redis.incr(k("c"))).toBe(1);
    expect(await redis.incrby(k("c"), 41)).toBe(42);
    expect(await redis.decr(k("c"))).toBe(41);
    expect(await redis.incrbyfloat(k("f"), 0.1)).toBe(0.1);
    expect(await redis.incrbyfloat(k("f"), 0.2)).toBeCloseTo(0.3, 10);
    await redis.set(k("text"), "abc");
    await expect(redis.incr(k("text"))).rejects.toThrow(/not an integer/);
  });

  it("handles hashes", async () => {
    expect(await redis.hset(k("h"), { a: 1, b: "two", c: { deep: [1, 2] } })).toBe(3);
    expect(await redis.hgetall(k("h"))).toEqual({ a: 1, b: "two", c: { deep: [1, 2] } });
    expect(await redis.hincrby(k("h"), "a", 10)).toBe(11);
    expect(await redis.hget(k("h"), "a")).toBe(11);
    expect(await redis.hdel(k("h"), "b", "c")).toBe(2);
    expect(await redis.hgetall(k("h"))).toEqual({ a: 11 });
    expect(await redis.hgetall(k("nohash"))).toBeNull();
    expect(await redis.hdel(k("h"), "a")).toBe(1);
    expect(await redis.exists(k("h"))).toBe(0); // an emptied hash is gone
  });

  it("handles lists", async () => {
    expect(await redis.rpush(k("l"), "a", "b", "c", "a", "d")).toBe(5);
    expect(await redis.lrange(k("l"), 0, -1)).toEqual(["a", "b", "c", "a", "d"]);
    expect(await redis.lrem(k("l"), 0, "a")).toBe(2);
    expect(await redis.lrange(k("l"), 0, -1)).toEqual(["b", "c", "d"]);
    expect(await redis.ltrim(k("l"), 1, -1)).toBe("OK");
    expect(await redis.lrange(k("l"), 0, -1)).toEqual(["c", "d"]);
    expect(await redis.llen(k("l"))).toBe(2);
    expect(await redis.lpop(k("l"))).toBe("c");
    await redis.ltrim(k("l"), 5, 10);
    expect(await redis.exists(k("l"))).toBe(0);
  });

  it("handles sorted sets", async () => {
    const z = k("z");
    expect(await redis.zadd(z, { score: 1.5, member: "a" }, { score: 2, member: "b" }, { score: 3, member: "c" })).toBe(3);
    expect(await redis.zrange(z, 0, -1, { withScores: true })).toEqual(["a", 1.5, "b", 2, "c", 3]);
    expect(await redis.zrange(z, "(1.5", "+inf", { byScore: true })).toEqual(["b", "c"]);
    expect(await redis.zrange(z, "+inf", "-inf", { byScore: true, rev: true, offset: 0, count: 2 })).toEqual(["c", "b"]);
    expect(await redis.zscore(z, "a")).toBe(1.5);
    expect(await redis.zscore(z, "nope")).toBeNull();
    expect(await redis.zadd(z, { gt: true, ch: true }, { score: 1, member: "c" }, { score: 10, member: "b" })).toBe(1);
    expect(await redis.zadd(z, { incr: true }, { score: 0.5, member: "a" })).toBe(2);
    expect(await redis.zincrby(z, 1, "a")).toBe(3);
    expect(await redis.zrem(z, "a", "nope")).toBe(1);
    expect(await redis.zcard(z)).toBe(2);
    expect(await redis.zcount(z, 3, "+inf")).toBe(2);
    expect(await redis.zrank(z, "b")).toBe(1);
  });

  it("expires keys (set ex, expire, ttl, pexpire, px)", async () => {
    await redis.set(k("e"), "v", { ex: 100 });
    expect(await redis.ttl(k("e"))).toBe(100);
    expect(await redis.expire(k("e"), 50)).toBe(1);
    expect(await redis.ttl(k("e"))).toBe(50);
    expect(await redis.pexpire(k("e"), 1500)).toBe(1);
    const pttl = await redis.pttl(k("e"));
    expect(pttl).toBeGreaterThan(1000);
    expect(pttl).toBeLessThanOrEqual(1500);
    expect(await redis.persist(k("e"))).toBe(1);
    expect(await redis.ttl(k("e"))).toBe(-1);
    expect(await redis.ttl(k("missing"))).toBe(-2);
    expect(await redis.expire(k("missing"), 10)).toBe(0);
    await redis.set(k("short"), "v", { px: 60 });
    await new Promise((r) => setTimeout(r, 150));
    expect(await redis.get(k("short"))).toBeNull();
  });

  it("batches concurrent commands into few /pipeline requests", async () => {
    const writes = Array.from({ length: 50 }, (_, i) => redis.set(k(`p${i}`), i));
    const reads = Array.from({ length: 50 }, (_, i) => redis.get(k(`p${i}`)));
    const results = await Promise.all([...writes, ...reads]);
    expect(results.slice(0, 50)).toEqual(Array(50).fill("OK"));
    const log = emu.listener.log;
    expect(log.length).toBeGreaterThanOrEqual(1);
    expect(log.length).toBeLessThanOrEqual(4);
    expect(log.every((entry) => entry.path === "/pipeline")).toBe(true);
    // A plain await is a one-command pipeline.
    emu.listener.resetLog();
    expect(await redis.get(k("p7"))).toBe(7);
    expect(emu.listener.log.map((e) => [e.path, loggedCommands(e.body)])).toEqual([["/pipeline", [["get", k("p7")]]]]);
    // Each entry says how long the answer took and how large it was (the benches read both).
    const [entry] = emu.listener.log;
    expect(entry?.handlerMs).toBeGreaterThanOrEqual(0);
    expect(entry?.responseBytes).toBeGreaterThan(0);
  });

  it("runs an explicit pipeline, with per-command errors", async () => {
    const results = await redis.pipeline().set(k("a"), 1).incr(k("a")).get(k("a")).hset(k("h"), { f: "v" }).exec();
    expect(results).toEqual(["OK", 2, 2, 1]);
    const failing = redis.pipeline().set(k("t"), "text").lpush(k("t"), "x").get(k("t"));
    await expect(failing.exec()).rejects.toThrow(/WRONGTYPE/);
    const kept = await redis.pipeline().lpush(k("t"), "x").get(k("t")).exec({ keepErrors: true });
    expect(kept[0]?.error).toMatch(/^WRONGTYPE/);
    expect(kept[1]?.result).toBe("text");
  });

  it("runs multi() atomically through /multi-exec", async () => {
    const results = await redis.multi().set(k("m"), 10).incrby(k("m"), 5).get(k("m")).exec();
    expect(results).toEqual(["OK", 15, 15]);
    expect(emu.listener.log.map((e) => e.path)).toContain("/multi-exec");
  });

  it("createScript: EVALSHA, NOSCRIPT, EVAL, then EVALSHA only", async () => {
    // A per-run comment makes the SHA unique, so a script cached by an earlier run can't interfere.
    const script = redis.createScript<number>(`-- ${prefix}\nreturn redis.call('incrby', KEYS[1], ARGV[1])`);
    expect(await script.exec([k("s")], ["5"])).toBe(5);
    const first = emu.listener.log.map((e) => loggedCommands(e.body)[0]?.[0]);
    expect(first).toEqual(["evalsha", "eval"]);
    emu.listener.resetLog();
    expect(await script.exec([k("s")], ["2"])).toBe(7);
    expect(emu.listener.log.map((e) => loggedCommands(e.body)[0]?.[0])).toEqual(["evalsha"]);
    expect(await redis.scriptExists(script.sha1)).toEqual([1]);
    expect(await redis.eval("return {KEYS[1], ARGV[1], 3}", [k("x")], ["y"])).toEqual([k("x"), "y", 3]);
  });

  it("reports wrong types as UpstashError with WRONGTYPE", async () => {
    await redis.set(k("str"), "text");
    const error: unknown = await redis.lpush(k("str"), "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.UpstashError);
    expect(String(error)).toMatch(/WRONGTYPE Operation against a key holding the wrong kind of value/);
    await expect(redis.hgetall(k("str"))).rejects.toThrow(/WRONGTYPE/);
  });

  it("returns a fresh sync token on every response (read-your-writes)", async () => {
    const seen = new Set<string | undefined>([redis.readYourWritesSyncToken]);
    for (let i = 0; i < 3; i++) {
      await redis.set(k("ryw"), i);
      seen.add(redis.readYourWritesSyncToken);
      expect(await redis.get(k("ryw"))).toBe(i);
      seen.add(redis.readYourWritesSyncToken);
    }
    expect(seen.size).toBe(7);
  });

  it("rejects a bad token", async () => {
    const bad = new Redis({ url: emu.url, token: "wrong-token" });
    await expect(bad.get(k("x"))).rejects.toThrow(/WRONGPASS invalid or missing auth token/);
  });
});
