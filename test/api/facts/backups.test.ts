import { Index } from "@upstash/vector/cloudflare";
import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact, factsPath, listAll, runScheduledOnce } from "../support/facts.ts";

const bindings = env as unknown as { BACKUPS: R2Bucket; UPSTASH_VECTOR_REST_URL: string; UPSTASH_VECTOR_REST_TOKEN: string };
const bucket = bindings.BACKUPS;
const rawVector = new Index({ url: bindings.UPSTASH_VECTOR_REST_URL, token: bindings.UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
/** Tenants this file made: their facts are sealed under keys no other file has, and the cron sweeps every namespace. */
const tenants: string[] = [];

afterAll(async () => {
  const namespaces = await rawVector.listNamespaces();
  const ours = namespaces.filter((ns) => tenants.some((t) => ns.startsWith(`am.${t.length}.${t}.`)));
  for (const ns of ours) await rawVector.deleteNamespace(ns);
});
const secret = (): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

/**
 * A tenant of its own per test: the cron backs up the configured tenants' users a bounded number
 * at a time, and other files leave users of the shared tenants in the Vector emulator.
 */
function tenant(extra: Record<string, string> = {}) {
  const id = uniqueId("bk");
  tenants.push(id);
  const key = `${id}-key`;
  const vars = { API_KEYS: `${id}:${key}`, BACKUP_INTERVAL_SECONDS: "60", ...extra };
  return {
    id,
    as: { key, env: vars },
    /** One cron run at `at`; expects its backup part to have run without errors. */
    async cron(at: number) {
      const { logs, failure } = await runScheduledOnce(at, vars);
      expect(failure).toBeNull();
      const run = logs.find((l) => l.msg === "backup run");
      expect(run, JSON.stringify(logs)).toBeDefined();
      expect(run?.errors).toEqual([]);
      return run as { usersVisited: number; written: number };
    },
    async snapshots(userId: string): Promise<string[]> {
      const listed = await bucket.list({ prefix: `facts/${id}/${userId}/` });
      return listed.objects.map((o) => o.key).sort();
    },
  };
}

async function objectText(key: string): Promise<string> {
  const object = await bucket.get(key);
  expect(object).not.toBeNull();
  return object!.text();
}

const restore = (userId: string, as: { key: string; env: Record<string, string | undefined> }) =>
  call<{ userId: string; snapshotAt: number; restored: number; present: number; error?: { code: string } }>(
    "POST",
    `/v1/users/${userId}/restore`,
    as,
  );

describe("backups of facts", () => {
  it("are off without the BACKUPS binding, and /healthz says so", async () => {
    const on = await call<{ backups: string }>("GET", "/healthz", { key: null });
    expect(on.json.backups).toBe("configured");
    const off = await call<{ backups: string }>("GET", "/healthz", { key: null, env: { BACKUPS: undefined } });
    expect(off.json.backups).toBe("off");
    const t = tenant();
    const res = await restore("someone", { ...t.as, env: { ...t.as.env, BACKUPS: undefined } });
    expect(res.status).toBe(503);
    expect(res.json.error?.code).toBe("upstream_unavailable");
  });

  it("the cron writes a snapshot per user, sealed when a key is set, and keeps BACKUP_RETENTION of them", async () => {
    const t = tenant({ MEMORY_ENCRYPTION_KEYS: `k1:${secret()}`, BACKUP_RETENTION: "3" });
    const user = uniqueId("u");
    const marker = `Okapi${crypto.randomUUID().slice(0, 8)}`;
    await addFact(user, { text: `${marker} lives in the forest` }, t.as);
    const start = Date.now();
    // The first run may start behind a cursor another tenant left; it then wraps around.
    let written = 0;
    for (let run = 0; run < 3 && written === 0; run++) written = (await t.cron(start)).written;
    expect(await t.snapshots(user)).toHaveLength(1);
    const body = await objectText((await t.snapshots(user))[0]!);
    expect(body.startsWith("enc:v1:k1:")).toBe(true);
    expect(body).not.toContain(marker);

    // A run within the interval writes nothing new; later runs do, and only the newest three stay.
    expect((await t.cron(start + 30_000)).written).toBe(0);
    const times = [1, 2, 3, 4, 5].map((i) => start + i * 61_000);
    for (const at of times) expect((await t.cron(at)).written).toBe(1);
    const kept = await t.snapshots(user);
    expect(kept).toHaveLength(3);
    expect(kept.map((k) => Number(k.slice(k.lastIndexOf("/") + 1, -5)))).toEqual(times.slice(-3));
  });

  it("restore brings back a user's missing facts from the newest snapshot, idempotently", async () => {
    const t = tenant();
    const user = uniqueId("u");
    const texts = ["I keep bees on the roof", "My sister lives in Porto", "I am allergic to peanuts"];
    const ids: string[] = [];
    for (const text of texts) ids.push((await addFact(user, { text }, t.as)).id);
    let written = 0;
    for (let run = 0; run < 3 && written === 0; run++) written = (await t.cron(Date.now())).written;
    expect(written).toBe(1);

    for (const id of ids.slice(0, 2)) expect((await call("DELETE", `${factsPath(user)}/${id}`, t.as)).status).toBe(200);
    expect(await listAll(user, t.as)).toHaveLength(1);

    const first = await restore(user, t.as);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ userId: user, restored: 2, present: 1 });
    const restored = await listAll(user, t.as);
    expect(restored.map((f) => f.text).sort()).toEqual([...texts].sort());
    expect(restored.map((f) => f.id).sort()).toEqual([...ids].sort());

    const again = await restore(user, t.as);
    expect(again.json).toMatchObject({ restored: 0, present: 3 });
    expect(await listAll(user, t.as)).toHaveLength(3);

    const nobody = await restore(uniqueId("u"), t.as);
    expect(nobody.status).toBe(404);
  });

  it("restores from a sealed snapshot (any script, any length)", async () => {
    const t = tenant({ MEMORY_ENCRYPTION_KEYS: `k1:${secret()}` });
    const user = uniqueId("u");
    const texts = ["我叫小明，喜欢蓝色", `Grüße aus Köln${" und so weiter".repeat(250)}`];
    const ids: string[] = [];
    for (const text of texts) ids.push((await addFact(user, { text }, t.as)).id);
    for (let run = 0; run < 3 && (await t.snapshots(user)).length === 0; run++) await t.cron(Date.now());
    // One is gone, one is still there (read back through Vector, sealed).
    expect((await call("DELETE", `${factsPath(user)}/${ids[1]}`, t.as)).status).toBe(200);
    const res = await restore(user, t.as);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ restored: 1, present: 1 });
    expect((await listAll(user, t.as)).map((f) => f.text).sort()).toEqual([...texts].sort());
  });

  it("an erased user's snapshots are removed, are never written again and never restored", async () => {
    const t = tenant();
    const [gone, kept] = [uniqueId("gone"), uniqueId("kept")];
    const marker = `Tapir${crypto.randomUUID().slice(0, 8)}`;
    await addFact(gone, { text: `${marker} is my secret` }, t.as);
    await addFact(kept, { text: "I like long walks" }, t.as);
    const start = Date.now();
    for (let run = 0; run < 3 && (await t.snapshots(gone)).length === 0; run++) await t.cron(start);
    expect(await t.snapshots(gone)).toHaveLength(1);
    expect(await t.snapshots(kept)).toHaveLength(1);

    const erased = await call<{ done: boolean; removed: { backups?: number } }>("DELETE", `/v1/users/${gone}`, t.as);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json.removed.backups).toBe(1);
    expect(await t.snapshots(gone)).toEqual([]);

    await t.cron(start + 61_000);
    await t.cron(start + 122_000);
    expect(await t.snapshots(gone)).toEqual([]);
    const newest = (await t.snapshots(kept)).at(-1)!;
    expect(newest).not.toBe((await t.snapshots(kept))[0]);
    expect(await objectText(newest)).not.toContain(marker);
    const all = await bucket.list({ prefix: `facts/${t.id}/` });
    for (const o of all.objects) expect(await objectText(o.key)).not.toContain(marker);

    const res = await restore(gone, t.as);
    expect(res.status).toBe(409);
    expect(await listAll(gone, t.as)).toEqual([]);
  });
});
