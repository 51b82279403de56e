/** @module RedisEraseJournal: the running erase of a user and the receipt of its last finished one, so an erase resumes or replays. */
import type { EraseJob, EraseJournal, ErasedCounts, EraseOutcome, ErasePart, FactScope } from "../memory/ports/index.ts";
import { UnexpectedReply } from "./errors.ts";
import { eraseJobKey, eraseReceiptKey } from "./keys.ts";
import { ERASE_BEGIN_LUA, ERASE_COUNT_NAMES, ERASE_FINISH_LUA, ERASE_PLAN_LUA, ERASE_SETTLE_LUA } from "./lua/audit.ts";
import { asList, decodeReply, num } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** A job nobody continues is dropped after this long, seconds (a later erase starts a new receipt). */
const JOB_TTL_SECONDS = 7 * 86_400;
/** How long the last finished erase answers a repeated one (a retry whose answer was lost), seconds. */
const RECEIPT_TTL_SECONDS = 7 * 86_400;

function decodeJson(reply: unknown, what: string): unknown {
  if (typeof reply !== "string") return reply;
  try {
    return JSON.parse(reply) as unknown;
  } catch {
    throw new UnexpectedReply(what);
  }
}

const countsFrom = (values: readonly unknown[]): ErasedCounts =>
  Object.fromEntries(ERASE_COUNT_NAMES.map((n, i) => [n, num(values[i])])) as unknown as ErasedCounts;

/** {@link EraseJournal} on Upstash Redis: one hash per running erase, one for the last finished. */
export class RedisEraseJournal implements EraseJournal {
  readonly #scripts: ScriptRunner;

  constructor(redis: RedisClient) {
    this.#scripts = new ScriptRunner(redis);
  }

  async begin(scope: FactScope, receiptId: string, at: number): Promise<EraseJob> {
    const reply = decodeJson(
      await this.#scripts.run(ERASE_BEGIN_LUA, [eraseJobKey(scope.tenant, scope.userId)], [receiptId, String(at), String(JOB_TTL_SECONDS)]),
      "eraseBegin",
    );
    if (!Array.isArray(reply)) throw new UnexpectedReply("eraseBegin");
    const map = new Map<string, unknown>();
    for (let i = 0; i + 1 < reply.length; i += 2) map.set(String(reply[i]), reply[i + 1]);
    const id = map.get("receiptId");
    if (typeof id !== "string") throw new UnexpectedReply("eraseBegin");
    const removed = countsFrom(ERASE_COUNT_NAMES.map((n) => map.get(n)));
    return { receiptId: id, startedAt: num(map.get("startedAt"), at), removed };
  }

  async plan(scope: FactScope, part: ErasePart, remaining: number): Promise<void> {
    await this.#scripts.run(ERASE_PLAN_LUA, [eraseJobKey(scope.tenant, scope.userId)], [part, String(Math.max(0, Math.floor(remaining)))]);
  }

  async settle(scope: FactScope, part: ErasePart): Promise<void> {
    await this.#scripts.run(ERASE_SETTLE_LUA, [eraseJobKey(scope.tenant, scope.userId)], [part]);
  }

  async finish(scope: FactScope, more: boolean, now: number): Promise<EraseOutcome> {
    const keys = [eraseJobKey(scope.tenant, scope.userId), eraseReceiptKey(scope.tenant, scope.userId)];
    const reply = decodeReply(
      await this.#scripts.run(ERASE_FINISH_LUA, keys, [more ? "1" : "0", String(now), String(RECEIPT_TTL_SECONDS)]),
      "eraseFinish",
    );
    const state = reply.state;
    if (state !== "running" && state !== "closed" && state !== "replay") throw new UnexpectedReply("eraseFinish");
    return {
      state,
      receiptId: typeof reply.receiptId === "string" ? reply.receiptId : "",
      startedAt: num(reply.startedAt, now),
      removed: countsFrom(asList(reply.counts)),
    };
  }
}
