/** @module Runs variadic commands with huge argument lists in slices so ioredis-mock's call stack does not overflow. */
import type { Reply } from "../reply.ts";

/**
 * ioredis-mock takes arguments as JS rest parameters, and `fn.apply` with ~100k arguments
 * overflows the call stack. Variadic commands whose effect is the same when split are run in
 * slices (still synchronously, so still atomic) and their replies combined.
 */
interface ChunkSpec {
  /** Leading arguments repeated in every slice (name, key). */
  fixed: number;
  /** Arguments per item (2 for field/value pairs). */
  group: number;
  combine: "sum" | "last" | "concat";
}

const each = (names: string[], spec: ChunkSpec): [string, ChunkSpec][] => names.map((n) => [n, spec]);
const CHUNKED: ReadonlyMap<string, ChunkSpec> = new Map([
  ...each(["del", "unlink", "exists"], { fixed: 1, group: 1, combine: "sum" }),
  ...each(["mset"], { fixed: 1, group: 2, combine: "last" }),
  ...each(["rpush", "lpush", "rpushx", "lpushx"], { fixed: 2, group: 1, combine: "last" }),
  ...each(["sadd", "srem", "hdel", "zrem"], { fixed: 2, group: 1, combine: "sum" }),
  ...each(["hset"], { fixed: 2, group: 2, combine: "sum" }),
  ...each(["hmset"], { fixed: 2, group: 2, combine: "last" }),
  ...each(["hmget", "smismember"], { fixed: 2, group: 1, combine: "concat" }),
]);

const SLICE = 10_000;

/** Runs `run` on slices of `args` when it is long and `name` can be split; else once. */
export function runChunked(name: string, args: string[], run: (slice: string[]) => Reply): Reply {
  const spec = CHUNKED.get(name);
  if (spec === undefined || args.length <= SLICE) return run(args);
  const head = args.slice(0, spec.fixed);
  const size = SLICE - (SLICE % spec.group);
  let sum = 0;
  let last: Reply = null;
  const all: Reply[] = [];
  for (let i = spec.fixed; i < args.length; i += size) {
    last = run([...head, ...args.slice(i, i + size)]);
    if (typeof last === "number") sum += last;
    if (Array.isArray(last)) for (const item of last) all.push(item);
  }
  return spec.combine === "sum" ? sum : spec.combine === "concat" ? all : last;
}
