import type { EraseJob, EraseJournal, ErasedCounts, FactScope } from "../memory/ports.ts";
import { UnexpectedReply } from "./errors.ts";
import { eraseJobKey } from "./keys.ts";
import { ERASE_ADD_LUA, ERASE_BEGIN_LUA } from "./lua/audit.ts";
import { num } from "./reply.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** A job nobody continues is dropped after this long, seconds (a later erase starts a new receipt). */
const JOB_TTL_SECONDS = 7 * 86_400;

const COUNT_NAMES = ["sessions", "messages", "archives", "notes", "facts", "backups"] as const;

function decodeJson(reply: unknown, what: string): unknown {
  if (typeof reply !== "string") return reply;
  try {
    return JSON.parse(reply) as unknown;
  } catch {
    throw new UnexpectedReply(what);
  }
}

/** {@link EraseJournal} on Upstash Redis: one hash per running erase. */
export class RedisEraseJournal implements EraseJournal {
  readonly #scripts: ScriptRunner;

  constructor(redis: RedisClient) {
    this.#scripts = new ScriptRunner(redis);
  }

  async begin(scope: FactScope, receiptId: string, at: number): Promise<EraseJob> {
    const reply = decodeJson(await this.#scripts.run(ERASE_BEGIN_LUA, [eraseJobKey(scope.tenant, scope.userId)], [receiptId, String(at), String(JOB_TTL_SECONDS)]), "eraseBegin");
    if (!Array.isArray(reply)) throw new UnexpectedReply("eraseBegin");
    const map = new Map<string, unknown>();
    for (let i = 0; i + 1 < reply.length; i += 2) map.set(String(reply[i]), reply[i + 1]);
    const id = map.get("receiptId");
    if (typeof id !== "string") throw new UnexpectedReply("eraseBegin");
    const removed = Object.fromEntries(COUNT_NAMES.map((n) => [n, num(map.get(n))])) as unknown as ErasedCounts;
    return { receiptId: id, startedAt: num(map.get("startedAt"), at), removed };
  }

  async add(scope: FactScope, removed: ErasedCounts, done: boolean): Promise<ErasedCounts> {
    const args = [...COUNT_NAMES.map((n) => String(removed[n])), done ? "1" : "0"];
    const reply = decodeJson(await this.#scripts.run(ERASE_ADD_LUA, [eraseJobKey(scope.tenant, scope.userId)], args), "eraseAdd");
    if (!Array.isArray(reply) || reply.length !== COUNT_NAMES.length) throw new UnexpectedReply("eraseAdd");
    return Object.fromEntries(COUNT_NAMES.map((n, i) => [n, num(reply[i])])) as unknown as ErasedCounts;
  }
}
