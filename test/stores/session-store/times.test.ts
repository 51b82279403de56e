/** @module Session store tests of message times: a dated message never goes before the session's newest, checked in the append script. */
import { describe, expect, it } from "vitest";
import { MemoryError } from "../../../src/memory/errors.ts";
import type { StoredMessage } from "../../../src/memory/model.ts";
import { InvalidStoreInput } from "../../../src/stores/errors.ts";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { BACKENDS, sessionStoresOn, TTL } from "./fixture.ts";

const T = 1_683_553_000_000;

describe.each(BACKENDS)("message times on upstash-local (%s)", (_name, redisUrl) => {
  const s = sessionStoresOn(redisUrl);
  const { nextRef } = s;
  const at = (id: string, ts: number): StoredMessage => ({ ...s.msg(id, "user", `said at ${ts}`), ts });
  const ids = async (ref: ReturnType<typeof nextRef>) => (await s.store.read(ref)).window.map((m) => m.id);

  it("writes the time right after the header, where the script reads it", async () => {
    const ref = nextRef();
    await s.store.append(ref, [{ ...at("m1", T), metadata: { ts: 1 } }], { ttlSeconds: TTL });
    const raw = await s.redis.lindex(sessionKeys(ref).win, 0);
    expect(JSON.stringify(raw)).toMatch(/^\{"id":"m1","role":"user","tokens":10,"importance":0\.5,"ts":1683553000000,/);
  });

  it("refuses a dated message older than the newest stored one, storing nothing of the batch", async () => {
    const ref = nextRef();
    await s.store.append(ref, [at("m1", T)], { ttlSeconds: TTL, dated: [true] });
    const refused = s.store.append(ref, [at("m2", T + 5), at("m3", T - 1)], { ttlSeconds: TTL, dated: [false, true] });
    await expect(refused).rejects.toThrow(MemoryError);
    await expect(refused).rejects.toThrow(/^messages\.1\.ts .* is before the session's newest message \(2023-05-08T13:36:40\.000Z\)$/);
    expect(await ids(ref)).toEqual(["m1"]);
    // equal times are in order; the refused ids were not reserved
    await s.store.append(ref, [at("m3", T), at("m2", T + 5)], { ttlSeconds: TTL, dated: [true, true] });
    expect(await ids(ref)).toEqual(["m1", "m3", "m2"]);
  });

  it("checks only the messages the client dated, and skips duplicates", async () => {
    const ref = nextRef();
    await s.store.append(ref, [at("m1", T), at("m2", T + 10)], { ttlSeconds: TTL, dated: [true, true] });
    // an undated message is the server's business: never refused for its time
    await s.store.append(ref, [at("m3", T + 5)], { ttlSeconds: TTL });
    // a retried batch: its messages are duplicates, not messages going back in time
    const again = await s.store.append(ref, [at("m1", T), at("m2", T + 10)], { ttlSeconds: TTL, dated: [true, true] });
    expect(again.added.map((a) => a.duplicate)).toEqual([true, true]);
    await expect(s.store.append(ref, [at("m4", T + 9)], { ttlSeconds: TTL, dated: [true] })).rejects.toThrow(/^messages\.0\.ts/);
  });

  it("counts undated messages as the newest too", async () => {
    const ref = nextRef();
    await s.store.append(ref, [at("m1", T + 100)], { ttlSeconds: TTL });
    await expect(s.store.append(ref, [at("m2", T)], { ttlSeconds: TTL, dated: [true] })).rejects.toThrow(/^messages\.0\.ts/);
  });

  it("falls back to the newest window message in a session written before the newest time was kept", async () => {
    const ref = nextRef();
    const k = sessionKeys(ref);
    await s.store.append(ref, [at("m1", T)], { ttlSeconds: TTL });
    // the entry as it was written then: the time after the content, no meta.lastts
    await s.redis.rpush(k.win, JSON.stringify({ id: "old", role: "user", tokens: 1, importance: 0.5, content: "x", ts: T + 50 }));
    await s.redis.sadd(k.ids, "old");
    await s.redis.hdel(k.meta, "lastts");
    await expect(s.store.append(ref, [at("m2", T + 49)], { ttlSeconds: TTL, dated: [true] })).rejects.toThrow(/^messages\.0\.ts/);
    await s.store.append(ref, [at("m2", T + 50)], { ttlSeconds: TTL, dated: [true] });
    expect(await ids(ref)).toEqual(["m1", "old", "m2"]);
  });

  it("forgets the newest time on a reset", async () => {
    const ref = nextRef();
    await s.store.append(ref, [at("m1", T)], { ttlSeconds: TTL, dated: [true] });
    await s.store.reset(ref, { keepSystem: false });
    await s.store.append(ref, [at("m0", T - 1000)], { ttlSeconds: TTL, dated: [true] });
    expect(await ids(ref)).toEqual(["m0"]);
  });

  it("refuses a time that is not a non-negative integer before the script runs", async () => {
    const ref = nextRef();
    await expect(s.store.append(ref, [at("m1", 1.5)], { ttlSeconds: TTL })).rejects.toThrow(InvalidStoreInput);
    await expect(s.store.append(ref, [at("m1", T)], { ttlSeconds: TTL, dated: [true, true] })).rejects.toThrow(InvalidStoreInput);
    expect((await s.store.read(ref)).exists).toBe(false);
  });
});
