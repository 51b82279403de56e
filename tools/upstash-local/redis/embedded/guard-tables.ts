/** @module Tables for the embedded engine's argument checks: type family per command, pairs, integer and float arguments. */
import type { KeyType } from "./types.ts";

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
export const FAMILY = new Map<string, KeyType>(FAMILIES.flatMap(([type, names]) => names.split(" ").map((n) => [n, type] as const)));

/** The destination of these is overwritten whatever its type. */
export const DESTINATION_FIRST = new Set(["sdiffstore", "sinterstore", "sunionstore"]);
/** Arguments after this index come in pairs. */
export const PAIRS_FROM: ReadonlyMap<string, number> = new Map([
  ["hset", 2],
  ["hmset", 2],
  ["mset", 1],
  ["msetnx", 1],
]);
export const MUST_EXIST = new Set(["rename", "renamenx", "lset"]);
/** Redis parses these integer arguments before it looks at the key. */
const at = (names: string[], positions: number[]): [string, number[]][] => names.map((n) => [n, positions]);
export const INTEGER_ARGS: ReadonlyMap<string, number[]> = new Map([
  ...at(["lrange", "ltrim", "getrange", "substr", "zremrangebyrank", "zrevrange"], [2, 3]),
  ...at(["lrem", "setrange", "getbit", "setbit", "incrby", "decrby", "setex", "psetex"], [2]),
  ...at(["expire", "pexpire", "expireat", "pexpireat"], [2]),
  ...at(["hincrby"], [3]),
]);
/** ... and these only once the key turned out to exist with the right type. */
export const INTEGER_ARGS_OF_EXISTING: ReadonlyMap<string, number[]> = new Map(at(["lindex"], [2]));
export const FLOAT_ARGS: ReadonlyMap<string, number[]> = new Map([...at(["zincrby"], [2]), ...at(["hincrbyfloat"], [3])]);
/** Only the source's type matters while the source is empty. */
export const SOURCE_FIRST = new Set(["lmove", "rpoplpush", "smove"]);
