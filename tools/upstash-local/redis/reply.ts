/**
 * The RESP2 reply model shared by both backends and the JSON encoder.
 *
 * - `string`: a simple string, or a bulk string the embedded engine produced as text
 * - `Buffer`: a bulk string as raw bytes (what the real Redis returns)
 * - `number` / `bigint`: an integer reply (`bigint` only beyond 2^53)
 * - `null`: nil
 * - `ReplyError`: an error reply, e.g. inside an EXEC result
 * - arrays: multi-bulk replies, nested to any depth
 */
export type Reply = null | number | bigint | string | Buffer | ReplyError | Reply[];

/** One command with its arguments; the name is `args[0]`. */
export type Args = (string | Buffer)[];

/** A Redis error reply. `message` is the full text, code included, e.g. `ERR syntax error`. */
export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplyError";
  }
}

/** The backend could not run a command at all (connection lost, engine closed). */
export class BackendUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackendUnavailableError";
  }
}

/** Lower-cased command name, or "" when there is none. */
export function commandName(args: Args): string {
  const first = args[0];
  if (first === undefined) return "";
  return (typeof first === "string" ? first : first.toString("utf8")).toLowerCase();
}
