/** @module Table of commands the embedded engine implements itself because ioredis-mock gets them wrong. */
import { append, get, getdel, getex, getrange, getset, hstrlen, setrange, strlen } from "./bytes.ts";
import { expire, expireat, pexpire, pexpireat, pttl, ttl } from "./expire.ts";
import { pfadd, pfcount, pfmerge } from "./hyperloglog.ts";
import { info, keys, rename, renamenx, scan, type } from "./keys.ts";
import { lset } from "./lists.ts";
import { decr, decrby, hincrby, hincrbyfloat, incr, incrby, incrbyfloat, mget, set } from "./strings.ts";
import type { CommandHandler } from "./types.ts";
import { zrange, zrangebylex, zrangebyscore, zrevrange, zrevrangebylex, zrevrangebyscore } from "./zrange.ts";
import { zadd, zcount, zincrby, zmscore, zremrangebyscore, zscore } from "./zset.ts";

/**
 * Commands ioredis-mock gets wrong in ways clients notice (case-sensitive options, integer-only
 * score ranges, character instead of byte lengths, no overflow or type checks, missing options),
 * implemented by the engine itself. They check key types themselves, in Redis' order.
 */
export const OVERRIDES: ReadonlyMap<string, CommandHandler> = new Map(
  Object.entries({
    set,
    get,
    mget,
    getdel,
    getex,
    getset,
    append,
    strlen,
    hstrlen,
    getrange,
    substr: getrange,
    setrange,
    incr,
    decr,
    incrby,
    decrby,
    incrbyfloat,
    hincrby,
    hincrbyfloat,
    lset,
    pfadd,
    pfcount,
    pfmerge,
    expire,
    pexpire,
    expireat,
    pexpireat,
    ttl,
    pttl,
    keys,
    scan,
    info,
    rename,
    renamenx,
    type,
    zadd,
    zincrby,
    zscore,
    zmscore,
    zcount,
    zremrangebyscore,
    zrange,
    zrevrange,
    zrangebyscore,
    zrevrangebyscore,
    zrangebylex,
    zrevrangebylex,
  }),
);
