/** @module Re-seals stored values under the newest key after a rotation, in bounded resumable runs over Redis and Vector. */
import type { Redis } from "@upstash/redis";
import type { VectorIndex } from "../fact-index.ts";
import { orEmpty } from "../fact-index.ts";
import { namespaceToScope } from "../fact-namespace.ts";
import { KEY_PREFIX } from "../keys.ts";
import { asList, decodeReply } from "../script-replies.ts";
import { ScriptRunner, type RedisClient } from "../scripts.ts";
import type { FieldCipher } from "./cipher.ts";

/**
 * Re-sealing under the newest key after a rotation, in bounded batches. It works on stored values
 * as strings (a sealed value needs no JSON escaping), so it does not depend on the record shapes:
 * any list item or hash field holding a value sealed under an older key is sealed again.
 */

/** The part of the Redis client a re-seal run uses. */
export type ResealRedis = RedisClient & Pick<Redis, "scan">;

/** Where the re-seal resumes: a SCAN cursor per tenant, and a namespace and range cursor in Vector. */
export interface ResealCursor {
  redis: Record<string, string>;
  vector: { namespace: string; cursor: string };
}

export interface ResealReport {
  keysScanned: number;
  valuesResealed: number;
  factsExamined: number;
  factsResealed: number;
  /** True when every tenant's scan and the Vector pass reached their end (the next run starts over). */
  completedPass: boolean;
}

/** Facts re-sealed per run at most (one Vector request each; Workers cap subrequests per run). */
export const FACT_UPDATES_PER_RUN = 100;

export const EMPTY_RESEAL_CURSOR: ResealCursor = { redis: {}, vector: { namespace: "", cursor: "" } };

/**
 * Stored values under an older key, from the given keys (lists, hashes and strings - a trace is one
 * JSON string; ids, sets and sorted sets hold no sealed text). Replies
 * `{items: [[key, 'l'|'h'|'s', index|field|'', value], ...]}`.
 *
 * ARGV: the newest key id
 */
const STALE_LUA = `
local cur = ARGV[1]
local function stale(v)
  if not string.find(v, 'enc:v1:', 1, true) then return false end
  for kid in string.gmatch(v, 'enc:v1:([%w_%-]+):') do
    if kid ~= cur then return true end
  end
  return false
end
local out = {}
for _, key in ipairs(KEYS) do
  local t = redis.call('TYPE', key)['ok']
  if t == 'list' then
    for i, v in ipairs(redis.call('LRANGE', key, 0, -1)) do
      if stale(v) then out[#out + 1] = { key, 'l', tostring(i - 1), v } end
    end
  elseif t == 'hash' then
    local flat = redis.call('HGETALL', key)
    for i = 1, #flat, 2 do
      if stale(flat[i + 1]) then out[#out + 1] = { key, 'h', flat[i], flat[i + 1] } end
    end
  elseif t == 'string' then
    local v = redis.call('GET', key)
    if stale(v) then out[#out + 1] = { key, 's', '', v } end
  end
end
return cjson.encode({ items = out })
`;

/**
 * Replaces each value only if it is still the one that was read (compare-and-set per value), so a
 * concurrent write or a compression that shifted a list always wins; what was skipped is picked up
 * by a later run. Keeps every TTL (LSET and HSET do not touch it; a string's is set again).
 *
 * KEYS: one per replacement; ARGV: per replacement `kind index|field old new`
 */
const REPLACE_LUA = `
local n = 0
for i = 1, #KEYS do
  local b = (i - 1) * 4
  local kind, field, old, new = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3], ARGV[b + 4]
  if kind == 'l' then
    if redis.call('LINDEX', KEYS[i], tonumber(field)) == old then redis.call('LSET', KEYS[i], tonumber(field), new); n = n + 1 end
  elseif kind == 'h' then
    if redis.call('HGET', KEYS[i], field) == old then redis.call('HSET', KEYS[i], field, new); n = n + 1 end
  elseif kind == 's' then
    if redis.call('GET', KEYS[i]) == old then
      local ttl = redis.call('PTTL', KEYS[i])
      redis.call('SET', KEYS[i], new)
      if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) end
      n = n + 1
    end
  end
end
return n
`;

export interface ResealDeps {
  redis: ResealRedis;
  /** The raw index (not the sealing decorator): the run must see which key sealed what. */
  vector: VectorIndex | null;
  cipher: FieldCipher;
  tenants: readonly string[];
  /** Redis keys examined per tenant, and facts per run. */
  batch: number;
}

/** One bounded re-seal run over every tenant's Redis keys and the facts in Vector. */
export async function runReseal(deps: ResealDeps, cursor: ResealCursor): Promise<{ report: ResealReport; cursor: ResealCursor }> {
  const report: ResealReport = { keysScanned: 0, valuesResealed: 0, factsExamined: 0, factsResealed: 0, completedPass: true };
  const next: ResealCursor = { redis: { ...cursor.redis }, vector: { ...cursor.vector } };
  const scripts = new ScriptRunner(deps.redis);
  for (const tenant of deps.tenants) {
    const [scanCursor, keys] = await deps.redis.scan(cursor.redis[tenant] ?? "0", {
      match: `${KEY_PREFIX}:${tenant}:*`,
      count: deps.batch,
    });
    next.redis[tenant] = String(scanCursor);
    if (String(scanCursor) !== "0") report.completedPass = false;
    report.keysScanned += keys.length;
    if (keys.length > 0) report.valuesResealed += await resealKeys(scripts, deps.cipher, tenant, keys);
  }
  if (deps.vector) {
    const vector = await resealFacts(deps.vector, deps.cipher, cursor.vector, deps.batch, report);
    next.vector = vector;
    if (vector.namespace !== "") report.completedPass = false;
  }
  return { report, cursor: next };
}

async function resealKeys(scripts: ScriptRunner, cipher: FieldCipher, tenant: string, keys: string[]): Promise<number> {
  const reply = decodeReply(await scripts.run(STALE_LUA, keys, [cipher.currentKid ?? ""]), "reseal");
  const replaceKeys: string[] = [];
  const args: string[] = [];
  for (const item of asList(reply.items)) {
    const [key, kind, field, value] = asList(item).map(String);
    if (key === undefined || kind === undefined || field === undefined || value === undefined) continue;
    const resealed = await cipher.reseal(value, tenant);
    if (resealed === value) continue;
    replaceKeys.push(key);
    args.push(kind, field, value, resealed);
  }
  if (replaceKeys.length === 0) return 0;
  return Number(await scripts.run(REPLACE_LUA, replaceKeys, args)) || 0;
}

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Facts whose metadata texts are sealed under an older key get those fields re-sealed (a PATCH of
 * `text` and `history` only, no re-embedding). A fact edited between the read and the PATCH is the
 * same last-writer-wins race as two concurrent edits; the window is one round trip.
 */
async function resealFacts(
  index: VectorIndex,
  cipher: FieldCipher,
  from: ResealCursor["vector"],
  budget: number,
  report: ResealReport,
): Promise<ResealCursor["vector"]> {
  const namespaces = (await index.listNamespaces()).filter((ns) => namespaceToScope(ns) !== null).sort();
  let position = { ...from };
  for (const namespace of namespaces) {
    if (position.namespace !== "" && namespace < position.namespace) continue;
    const tenant = namespaceToScope(namespace)?.tenant ?? "";
    let rangeCursor = namespace === position.namespace ? position.cursor : "";
    do {
      if (report.factsExamined >= budget) return { namespace, cursor: rangeCursor };
      const empty = { nextCursor: "", vectors: [] };
      const page = await orEmpty(
        () =>
          index.range({ cursor: rangeCursor === "" ? 0 : rangeCursor, limit: Math.min(100, budget), includeMetadata: true }, { namespace }),
        empty,
      );
      for (const v of page.vectors) {
        // Each re-sealed fact is one request (Vector has no batch metadata update): a page cut
        // short here is read again next run, where what was done is no longer stale.
        if (report.factsResealed >= FACT_UPDATES_PER_RUN) return { namespace, cursor: rangeCursor };
        report.factsExamined++;
        const md = v.metadata;
        if (!isDict(md) || !cipher.isStale(JSON.stringify({ text: md.text, history: md.history, metadata: md.metadata }))) continue;
        const patch: Record<string, unknown> = {};
        // Client metadata sealed as one string (SEAL_FACT_METADATA=on).
        if (typeof md.metadata === "string") patch.metadata = await cipher.reseal(md.metadata, tenant);
        if (typeof md.text === "string") patch.text = await cipher.reseal(md.text, tenant);
        if (Array.isArray(md.history)) {
          patch.history = await Promise.all(
            md.history.map(async (h: unknown) =>
              isDict(h) && typeof h.text === "string" ? { ...h, text: await cipher.reseal(h.text, tenant) } : h,
            ),
          );
        }
        await index.update({ id: v.id, metadata: patch, metadataUpdateMode: "PATCH" }, { namespace });
        report.factsResealed++;
      }
      rangeCursor = page.vectors.length > 0 ? page.nextCursor : "";
    } while (rangeCursor !== "");
    position = { namespace: "", cursor: "" };
  }
  return { namespace: "", cursor: "" };
}
