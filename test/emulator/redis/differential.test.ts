import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedisBackend } from "../../../tools/upstash-local/redis/backend.ts";
import { createEmbeddedBackend } from "../../../tools/upstash-local/redis/embedded/backend.ts";
import { createEngine } from "../../../tools/upstash-local/redis/embedded/engine.ts";
import { restoreSnapshot, takeSnapshot } from "../../../tools/upstash-local/redis/embedded/snapshot.ts";
import { encodeReply } from "../../../tools/upstash-local/redis/encode.ts";
import { ReplyError, type Reply } from "../../../tools/upstash-local/redis/reply.ts";
import { createRespBackend } from "../../../tools/upstash-local/redis/resp/backend.ts";
import { redisVariants } from "./variants.ts";
import { prng } from "../../support/prng.ts";

// Runs the same seeded random commands on the embedded engine and on a real Redis and compares
// every reply and, after each command, the whole state of the keys involved. The same random
// states also check that the embedded engine's snapshot restores exactly.

const realRedis = (await redisVariants()).filter((v) => v.redisUrl !== undefined);

function generator(random: () => number, keys: string[]): () => string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const key = () => pick(keys);
  const num = () => pick(["0", "1", "2", "-1", "-2", "3", "10", "1.5", "-0.5", "abc"]);
  const word = () => pick(["a", "b", "c", "1", "10", "x y", "é", "汉字"]);
  const opt = (...choices: string[][]) => pick([[], ...choices]);
  const scripts = [
    "return redis.call('get', KEYS[1])",
    "return redis.call('incr', KEYS[1])",
    "return {redis.call('type', KEYS[1]), redis.call('exists', KEYS[1])}",
    "return redis.pcall('hset', KEYS[1], 'f', ARGV[1])",
    "redis.call('set', KEYS[1], ARGV[1]); return redis.call('strlen', KEYS[1])",
    "return redis.call('lrange', KEYS[1], 0, -1)",
    "return tonumber(ARGV[1]) and tonumber(ARGV[1]) * 2 or false",
    "local r = redis.call('set', KEYS[1], ARGV[1]); return {type(r), redis.call('type', KEYS[1])}",
    "local t = redis.call('hgetall', KEYS[1]); table.sort(t); table.insert(t, 'end'); return t",
  ];
  const commands: (() => string[])[] = [
    () => ["set", key(), word(), ...opt(["nx"], ["xx"], ["ex", "100"], ["get"], ["keepttl"], ["px", "0"])],
    () => ["get", key()],
    () => ["getdel", key()],
    () => ["getset", key(), word()],
    () => ["append", key(), word()],
    () => ["strlen", key()],
    () => ["getrange", key(), num(), num()],
    () => ["setrange", key(), pick(["0", "2"]), word()],
    () => ["incr", key()],
    () => ["incrby", key(), num()],
    () => ["decrby", key(), num()],
    () => ["incrbyfloat", key(), num()],
    () => ["mset", key(), word(), key(), num()],
    () => ["mget", key(), key()],
    () => ["setnx", key(), word()],
    () => ["hset", key(), word(), word(), ...opt([word(), num()])],
    () => ["hget", key(), word()],
    () => ["hgetall", key()],
    () => ["hdel", key(), word()],
    () => ["hincrby", key(), word(), num()],
    () => ["hincrbyfloat", key(), word(), num()],
    () => ["hlen", key()],
    () => ["hmget", key(), word(), word()],
    () => ["hexists", key(), word()],
    () => ["hstrlen", key(), word()],
    () => ["rpush", key(), word(), word()],
    () => ["lpush", key(), word()],
    () => ["lrange", key(), num(), num()],
    () => ["ltrim", key(), num(), num()],
    () => ["lrem", key(), num(), word()],
    () => ["llen", key()],
    () => ["lpop", key(), ...opt(["2"])],
    () => ["rpop", key()],
    () => ["lindex", key(), num()],
    () => ["lset", key(), num(), word()],
    () => ["lpos", key(), word()],
    () => ["linsert", key(), pick(["before", "after"]), word(), word()],
    () => ["rpoplpush", key(), key()],
    () => ["zadd", key(), ...opt(["nx"], ["xx"], ["gt"], ["lt", "ch"], ["incr"]), num(), word()],
    () => ["zadd", key(), num(), word(), num(), word()],
    () => ["zrange", key(), num(), num(), ...opt(["withscores"], ["rev"], ["rev", "withscores"])],
    () => [
      "zrange",
      key(),
      pick(["-inf", "(1", "0", "1.5"]),
      pick(["+inf", "(2", "2"]),
      "byscore",
      ...opt(["withscores"], ["limit", "0", "2"]),
    ],
    () => ["zrangebyscore", key(), pick(["-inf", "(1", "0"]), pick(["+inf", "(2", "2"]), ...opt(["withscores"])],
    () => ["zrevrangebyscore", key(), pick(["+inf", "2"]), pick(["-inf", "(1"])],
    () => ["zscore", key(), word()],
    () => ["zrem", key(), word()],
    () => ["zincrby", key(), num(), word()],
    () => ["zcard", key()],
    () => ["zrank", key(), word()],
    () => ["zcount", key(), pick(["-inf", "(1"]), pick(["+inf", "2"])],
    () => ["zremrangebyscore", key(), "-inf", pick(["1", "+inf"])],
    () => ["zpopmin", key()],
    () => ["zmscore", key(), word(), word()],
    () => ["sadd", key(), word(), word()],
    () => ["srem", key(), word()],
    () => ["scard", key()],
    () => ["sismember", key(), word()],
    () => ["smove", key(), key(), word()],
    () => ["sinterstore", key(), key(), key()],
    () => ["expire", key(), pick(["100", "200", "-1"]), ...opt(["nx"], ["xx"], ["gt"], ["lt"])],
    () => ["ttl", key()],
    () => ["persist", key()],
    () => ["exists", key(), key()],
    () => ["type", key()],
    () => ["del", key()],
    () => ["rename", key(), key()],
    () => ["renamenx", key(), key()],
    () => ["eval", pick(scripts), "1", key(), num()],
  ];
  return () => pick(commands)();
}

/** Replies compared by value; errors by their code only (message texts vary across versions). */
function normalize(command: string, reply: Reply): string {
  if (reply instanceof ReplyError) return `error ${reply.message.split(" ")[0] ?? ""}`;
  const text = encodeReply(reply, true); // base64, so strings compare byte for byte
  return command === "hgetall" ? JSON.stringify((JSON.parse(text) as string[]).sort()) : text;
}

async function dump(backend: RedisBackend, keys: string[]): Promise<string> {
  const read: Record<string, string[]> = {
    string: ["get"],
    hash: ["hgetall"],
    list: ["lrange", "0", "-1"],
    zset: ["zrange", "0", "-1", "withscores"],
    set: ["smembers"],
  };
  const parts: string[] = [];
  for (const key of keys) {
    const type = String(await backend.exec(["type", key]));
    const [command, ...rest] = read[type] ?? [];
    const value =
      command === undefined ? "" : normalize(command === "smembers" ? "hgetall" : command, await backend.exec([command, key, ...rest]));
    const ttl = Number(await backend.exec(["ttl", key]));
    parts.push(`${key}=${type}:${value}:${ttl > 0 ? "ttl" : ttl}`);
  }
  return parts.join(" | ");
}

describe("embedded engine snapshots", () => {
  it.each([4, 5])("restore random states exactly, TTLs and non-UTF-8 strings included (seed %i)", async (seed) => {
    const keys = ["a", "b", "c", "d", "e"];
    const noop = { onWrite: () => undefined, onSave: () => undefined };
    const source = createEngine(noop);
    const asBackend = (engine: typeof source): RedisBackend => ({
      exec: async (args) => engine.run(args),
      pipeline: async (commands) => commands.map((args) => engine.run(args)),
      execMulti: async (commands) => commands.map((args) => engine.run(args)),
      close: async () => engine.dispose(),
    });
    const next = generator(prng(seed), keys);
    for (let i = 0; i < 300; i++) {
      for (let j = 0; j < 10; j++) source.run(next());
      const copy = createEngine(noop);
      restoreSnapshot(copy.ctx, JSON.parse(JSON.stringify(takeSnapshot(source.ctx))));
      expect(await dump(asBackend(copy), keys), `after ${(i + 1) * 10} commands`).toBe(await dump(asBackend(source), keys));
      copy.dispose();
    }
    source.dispose();
  });
});

describe.each(realRedis)("embedded engine versus $name", ({ redisUrl }) => {
  const prefix = `diff:${randomUUID().slice(0, 8)}:`;
  const keys = ["a", "b", "c", "d", "e"].map((k) => prefix + k);
  let redis: RedisBackend;
  let embedded: RedisBackend;

  beforeAll(async () => {
    redis = await createRespBackend({ url: redisUrl ?? "" });
    embedded = await createEmbeddedBackend();
  });
  afterAll(async () => {
    await redis.exec(["del", ...keys]);
    await Promise.all([redis.close(), embedded.close()]);
  });

  it.each([1, 2, 3])("gives the same replies and state for 1500 random commands (seed %i)", async (seed) => {
    await redis.exec(["del", ...keys]);
    await embedded.exec(["del", ...keys]);
    const next = generator(prng(seed), keys);
    for (let i = 0; i < 1500; i++) {
      const command = next();
      const name = command[0] ?? "";
      const [expected, actual] = [await redis.exec(command), await embedded.exec(command)];
      const context = `#${i} ${JSON.stringify(command)}`;
      expect(normalize(name, actual), context).toBe(normalize(name, expected));
      expect(await dump(embedded, keys), context).toBe(await dump(redis, keys));
    }
  });
});
