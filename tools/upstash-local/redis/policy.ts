/** @module Commands the Redis REST emulator refuses because they need a long-lived connection or change its state. */
import { commandName, type Args } from "./reply.ts";

// Commands that need a long-lived connection or change its state. A stateless REST request can't
// honour them, and on a pooled connection they would leak into other requests.
const REJECTED: ReadonlyMap<string, string> = new Map([
  ...["subscribe", "psubscribe", "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "monitor"].map(
    (n) => [n, "it needs a streaming connection"] as const,
  ),
  ...["blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax", "bzmpop", "wait", "waitaof"].map(
    (n) => [n, "blocking commands are not supported over REST"] as const,
  ),
  ...["multi", "exec", "discard", "watch", "unwatch"].map((n) => [n, "use the /multi-exec endpoint for transactions"] as const),
  ...["select", "swapdb", "auth", "hello", "reset", "quit", "client", "readonly", "readwrite"].map(
    (n) => [n, "it changes connection state"] as const,
  ),
  ...["sync", "psync", "replconf", "replicaof", "slaveof", "shutdown", "debug", "failover"].map(
    (n) => [n, "it is a server administration command"] as const,
  ),
]);

/** Why a command can't run through the REST API, or `undefined` when it can. */
export function rejectReason(args: Args): string | undefined {
  const name = commandName(args);
  const reason = REJECTED.get(name);
  if (reason !== undefined) return `ERR '${name}' is not supported by the REST API: ${reason}`;
  // XREAD/XREADGROUP are fine unless they ask to block.
  if (name === "xread" || name === "xreadgroup") {
    // Options come before STREAMS; after it are keys and ids, which may be spelled "block".
    const lowered = args.map((a) => a.toString().toLowerCase());
    const streams = lowered.indexOf("streams");
    if (!lowered.slice(1, streams < 0 ? undefined : streams).includes("block")) return undefined;
    return `ERR '${name}' with BLOCK is not supported by the REST API: blocking commands are not supported over REST`;
  }
  return undefined;
}
