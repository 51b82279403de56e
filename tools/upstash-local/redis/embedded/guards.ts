import { ReplyError } from "../reply.ts";
import { keyArgs, type CommandSpec } from "./table.ts";
import { keyType, WRONGTYPE, type EngineContext, type KeyType } from "./types.ts";

// ioredis-mock checks types in only some commands (HSET on a string key "works"), so every
// command of a type family checks its keys first, as Redis does.
const FAMILIES: [KeyType, string][] = [
  ["hash", "hdel hexists hget hgetall hincrby hincrbyfloat hkeys hlen hmget hmset hrandfield hscan hset hsetnx hstrlen hvals"],
  ["list", "lindex linsert llen lmove lpop lpos lpush lpushx lrange lrem lset ltrim rpop rpoplpush rpush rpushx"],
  [
    "set",
    "sadd scard sdiff sinter sismember smembers smismember smove spop srandmember srem sscan sunion sdiffstore sinterstore sunionstore",
  ],
  [
    "zset",
    "zadd zcard zcount zincrby zmscore zpopmax zpopmin zrange zrangebylex zrangebyscore zrank zrem zremrangebyrank zremrangebyscore zrevrange zrevrangebylex zrevrangebyscore zrevrank zscan zscore",
  ],
  ["string", "append decr decrby get getbit getdel getex getrange getset incr incrby incrbyfloat setbit setrange strlen substr"],
];
const FAMILY = new Map<string, KeyType>(FAMILIES.flatMap(([type, names]) => names.split(" ").map((n) => [n, type] as const)));

/** The destination of these is overwritten whatever its type. */
const DESTINATION_FIRST = new Set(["sdiffstore", "sinterstore", "sunionstore"]);
/** Arguments after this index come in pairs. */
const PAIRS_FROM: ReadonlyMap<string, number> = new Map([
  ["hset", 2],
  ["hmset", 2],
  ["mset", 1],
  ["msetnx", 1],
]);
const MUST_EXIST = new Set(["rename", "renamenx", "lset"]);

/** Keeps the emulator's memory bounded where one small request could allocate gigabytes. */
const MAX_STRING_BYTES = 64 * 1024 * 1024;
const MAX_RANDOM_COUNT = 1_000_000;

export function wrongArity(name: string): ReplyError {
  return new ReplyError(`ERR wrong number of arguments for '${name}' command`);
}

/** Checks what Redis checks before running a command: arity, key types, existence, limits. */
export function checkCommand(ctx: EngineContext, name: string, spec: CommandSpec, args: string[]): void {
  if (spec.arity > 0 ? args.length !== spec.arity : args.length < -spec.arity) throw wrongArity(name);
  const pairsFrom = PAIRS_FROM.get(name);
  if (pairsFrom !== undefined && (args.length - pairsFrom) % 2 !== 0) throw wrongArity(name);

  const family = FAMILY.get(name);
  if (family !== undefined) {
    const keys = keyArgs(spec, args);
    for (const key of DESTINATION_FIRST.has(name) ? keys.slice(1) : keys) {
      const actual = keyType(ctx, key);
      if (actual !== "none" && actual !== family) throw new ReplyError(WRONGTYPE);
    }
  }
  if (MUST_EXIST.has(name) && !ctx.data.has(args[1] ?? "")) throw new ReplyError("ERR no such key");

  if (name === "setrange" || name === "setbit") {
    const offset = Number(args[2]);
    const bytes = name === "setbit" ? offset / 8 : offset + Buffer.byteLength(args[3] ?? "");
    if (bytes > MAX_STRING_BYTES) {
      throw new ReplyError("ERR string exceeds maximum allowed size (the embedded engine allows 64 MiB)");
    }
  }
  if ((name === "srandmember" || name === "hrandfield") && Math.abs(Number(args[2] ?? 0)) > MAX_RANDOM_COUNT) {
    throw new ReplyError("ERR value is out of range (the embedded engine allows counts up to 1000000)");
  }
}
