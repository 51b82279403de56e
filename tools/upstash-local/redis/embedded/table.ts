/** Static facts about one command, as Redis' COMMAND INFO reports them. */
export interface CommandSpec {
  /** Exact argument count including the name; negative means "at least -arity". */
  arity: number;
  /** Whether it may change data (drives persistence and read-only scripts). */
  write: boolean;
  /** Key positions: first, last (negative counts from the end), step; 0 when keys move. */
  firstKey: number;
  lastKey: number;
  step: number;
}

// name:arity:w|r:firstKey:lastKey:step, taken from Redis' command table for every command the
// embedded engine runs.
const TABLE = [
  "append:3:w:1:1:1 bgsave:-1:r:0:0:0 bitcount:-2:r:1:1:1 dbsize:1:r:0:0:0",
  "decr:2:w:1:1:1 decrby:3:w:1:1:1 del:-2:w:1:-1:1 echo:2:r:0:0:0 eval:-3:r:0:0:0",
  "eval_ro:-3:r:0:0:0 evalsha:-3:r:0:0:0 evalsha_ro:-3:r:0:0:0 exists:-2:r:1:-1:1",
  "expire:-3:w:1:1:1 expireat:-3:w:1:1:1 expiretime:2:r:1:1:1 flushall:-1:w:0:0:0",
  "flushdb:-1:w:0:0:0 get:2:r:1:1:1 getbit:3:r:1:1:1 getdel:2:w:1:1:1 getex:-2:w:1:1:1",
  "getrange:4:r:1:1:1 getset:3:w:1:1:1 hdel:-3:w:1:1:1 hexists:3:r:1:1:1 hget:3:r:1:1:1",
  "hgetall:2:r:1:1:1 hincrby:4:w:1:1:1 hincrbyfloat:4:w:1:1:1 hkeys:2:r:1:1:1 hlen:2:r:1:1:1",
  "hmget:-3:r:1:1:1 hmset:-4:w:1:1:1 hrandfield:-2:r:1:1:1 hscan:-3:r:1:1:1 hset:-4:w:1:1:1",
  "hsetnx:4:w:1:1:1 hstrlen:3:r:1:1:1 hvals:2:r:1:1:1 incr:2:w:1:1:1 incrby:3:w:1:1:1",
  "incrbyfloat:3:w:1:1:1 info:-1:r:0:0:0 keys:2:r:0:0:0 lastsave:1:r:0:0:0 lindex:3:r:1:1:1",
  "linsert:5:w:1:1:1 llen:2:r:1:1:1 lmove:5:w:1:2:1 lmpop:-4:w:0:0:0 lpop:-2:w:1:1:1",
  "lpos:-3:r:1:1:1 lpush:-3:w:1:1:1 lpushx:-3:w:1:1:1 lrange:4:r:1:1:1 lrem:4:w:1:1:1",
  "lset:4:w:1:1:1 ltrim:4:w:1:1:1 mget:-2:r:1:-1:1 mset:-3:w:1:-1:2 msetnx:-3:w:1:-1:2",
  "persist:2:w:1:1:1 pexpire:-3:w:1:1:1 pexpireat:-3:w:1:1:1 pexpiretime:2:r:1:1:1 ping:-1:r:0:0:0",
  "pfadd:-2:w:1:1:1 pfcount:-2:r:1:-1:1 pfmerge:-2:w:1:-1:1",
  "psetex:4:w:1:1:1 pttl:2:r:1:1:1 publish:3:r:0:0:0 randomkey:1:r:0:0:0 rename:3:w:1:2:1",
  "renamenx:3:w:1:2:1 rpop:-2:w:1:1:1 rpoplpush:3:w:1:2:1 rpush:-3:w:1:1:1 rpushx:-3:w:1:1:1",
  "sadd:-3:w:1:1:1 save:1:r:0:0:0 scan:-2:r:0:0:0 scard:2:r:1:1:1 script:-2:r:0:0:0",
  "sdiff:-2:r:1:-1:1 sdiffstore:-3:w:1:-1:1 set:-3:w:1:1:1 setbit:4:w:1:1:1 setex:4:w:1:1:1",
  "setnx:3:w:1:1:1 setrange:4:w:1:1:1 sinter:-2:r:1:-1:1 sinterstore:-3:w:1:-1:1",
  "sismember:3:r:1:1:1 smembers:2:r:1:1:1 smismember:-3:r:1:1:1 smove:4:w:1:2:1 spop:-2:w:1:1:1",
  "srandmember:-2:r:1:1:1 srem:-3:w:1:1:1 sscan:-3:r:1:1:1 strlen:2:r:1:1:1 substr:4:r:1:1:1",
  "sunion:-2:r:1:-1:1 sunionstore:-3:w:1:-1:1 time:1:r:0:0:0 ttl:2:r:1:1:1 type:2:r:1:1:1",
  "unlink:-2:w:1:-1:1 zadd:-4:w:1:1:1 zcard:2:r:1:1:1 zcount:4:r:1:1:1 zdiff:-3:r:0:0:0",
  "zincrby:4:w:1:1:1 zinterstore:-4:w:1:1:1 zmscore:-3:r:1:1:1 zpopmax:-2:w:1:1:1",
  "zpopmin:-2:w:1:1:1 zrange:-4:r:1:1:1 zrangebylex:-4:r:1:1:1 zrangebyscore:-4:r:1:1:1",
  "zrank:3:r:1:1:1 zrem:-3:w:1:1:1 zremrangebyrank:4:w:1:1:1 zremrangebyscore:4:w:1:1:1",
  "zrevrange:-4:r:1:1:1 zrevrangebylex:-4:r:1:1:1 zrevrangebyscore:-4:r:1:1:1 zrevrank:3:r:1:1:1",
  "zscan:-3:r:1:1:1 zscore:3:r:1:1:1",
].join(" ");

export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(
  TABLE.split(" ").map((entry) => {
    const [name = "", arity, rw, firstKey, lastKey, step] = entry.split(":");
    const spec: CommandSpec = {
      arity: Number(arity),
      write: rw === "w",
      firstKey: Number(firstKey),
      lastKey: Number(lastKey),
      step: Number(step),
    };
    return [name, spec];
  }),
);

/** The key arguments of a command, from its spec (empty when its keys move around). */
export function keyArgs(spec: CommandSpec, args: string[]): string[] {
  if (spec.firstKey <= 0 || spec.step <= 0) return [];
  const last = spec.lastKey < 0 ? args.length + spec.lastKey : spec.lastKey;
  const keys: string[] = [];
  for (let i = spec.firstKey; i <= last && i < args.length; i += spec.step) {
    const key = args[i];
    if (key !== undefined) keys.push(key);
  }
  return keys;
}
