import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisEmulator, type RedisEmulator } from "../../tools/upstash-local/redis/standalone.ts";
import { redisVariants } from "../emulator/redis/variants.ts";
import { prng } from "../support/prng.ts";

const variants = await redisVariants();
const TOKEN = "reliability-token";

interface Answer {
  status: number;
  json: unknown;
}

/** Checks the envelope rules: JSON always; result/error entries on 2xx; an error on non-2xx. */
function expectWellFormed(answer: Answer, path: string, context: string): void {
  expect(answer.status, context).toBeLessThan(500);
  if (answer.status >= 200 && answer.status < 300) {
    const entries = path === "/pipeline" || path === "/multi-exec" ? answer.json : [answer.json];
    expect(Array.isArray(entries), context).toBe(true);
    for (const entry of entries as unknown[]) {
      expect(typeof entry === "object" && entry !== null && ("result" in entry || "error" in entry), context).toBe(true);
    }
  } else {
    expect(answer.json, context).toEqual({ error: expect.any(String) });
  }
}

describe.each(variants)("Redis REST emulator under bad input ($name)", ({ redisUrl }) => {
  let emu: RedisEmulator;
  const prefix = `rel:${randomUUID().slice(0, 8)}:`;

  const post = async (
    path: string,
    body: string | Buffer,
    headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
  ): Promise<Answer> => {
    const res = await fetch(`${emu.url}${path}`, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`non-JSON answer ${res.status} to ${path}: ${text.slice(0, 200)}`);
    }
    return { status: res.status, json };
  };
  const alive = async () => expect((await post("/", '["ping"]')).json).toEqual({ result: "PONG" });

  beforeAll(async () => {
    emu = await startRedisEmulator({ token: TOKEN, redisUrl });
  });
  afterAll(async () => {
    const keys = (await post("/", JSON.stringify(["keys", `${prefix}*`]))).json as { result: string[] };
    for (let i = 0; i < keys.result.length; i += 10_000) await post("/", JSON.stringify(["del", ...keys.result.slice(i, i + 10_000)]));
    await emu.close();
  });

  it("answers malformed JSON and wrong shapes with a 400 error", async () => {
    const bodies: [string, string][] = [
      ["/", "{"],
      ["/", '["get", "a"'],
      ["/", '["get" "a"]'],
      ["/", "[1,]"],
      ["/", "nul"],
      ["/", '"\\x"'],
      ["/", "[] []"],
      ["/", "{}"],
      ["/", "42"],
      ["/", "[]"],
      ["/", '[{"a":1}]'],
      ["/", '["set", ["a"], "b"]'],
      ["/pipeline", '["get", "a"]'],
      ["/pipeline", '[["get", "a"], {"x": 1}]'],
      ["/pipeline", "[[]]"],
      ["/multi-exec", '{"commands": []}'],
      ["/multi-exec", '[["set", "a", {"b": 1}]]'],
      ["/", "[".repeat(100_000) + "]".repeat(100_000)],
    ];
    for (const [path, body] of bodies) {
      const answer = await post(path, body);
      expect(answer.status, body.slice(0, 40)).toBe(400);
      expectWellFormed(answer, path, body.slice(0, 40));
    }
    await alive();
  });

  it("answers bad tokens with 401", async () => {
    for (const authorization of [undefined, "", "Bearer", "Bearer wrong", `Basic ${TOKEN}`, `bearer${TOKEN}`, `Bearer  ${TOKEN}`]) {
      const answer = await post("/", '["ping"]', authorization === undefined ? {} : { authorization });
      expect(answer).toEqual({ status: 401, json: { error: "WRONGPASS invalid or missing auth token" } });
    }
    await alive();
  });

  it("answers unknown commands per command", async () => {
    expect(await post("/", '["no-such-command", "a"]')).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^ERR unknown command/) },
    });
    const pipeline = await post("/pipeline", '[["nope1"], ["ping"], ["nope2", 1, true, null]]');
    expect(pipeline.status).toBe(200);
    expect((pipeline.json as unknown[])[1]).toEqual({ result: "PONG" });
    await alive();
  });

  it("copes with huge argument counts, huge values and invalid UTF-8", async () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `${prefix}${i}`);
    const mset = await post("/", JSON.stringify(["mset", ...keys.flatMap((key) => [key, "v"])]));
    expect(mset).toEqual({ status: 200, json: { result: "OK" } });
    const mget = await post("/", JSON.stringify(["mget", ...keys]));
    expect((mget.json as { result: unknown[] }).result).toHaveLength(100_000);
    expect((await post("/", JSON.stringify(["del", ...keys]))).json).toEqual({ result: 100_000 });
    const many = Array.from({ length: 5_000 }, (_, i) => ["incr", `${prefix}counter`, ...(i % 2 === 0 ? [] : ["extra"])]);
    const pipeline = await post("/pipeline", JSON.stringify(many));
    expect((pipeline.json as unknown[]).length).toBe(5_000);
    expect((await post("/", JSON.stringify(["set", `${prefix}big`, "x".repeat(5_000_000)]))).json).toEqual({
      result: "OK",
    });
    expect((await post("/", JSON.stringify(["strlen", `${prefix}big`]))).json).toEqual({ result: 5_000_000 });
    const invalid = Buffer.concat([Buffer.from(`["set","${prefix}bytes","`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"]')]);
    expectWellFormed(await post("/", invalid), "/", "invalid utf-8");
    await alive();
  });

  it("survives a few hundred generated bodies", async () => {
    const random = prng(20240611);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const names = [
      "get",
      "set",
      "hset",
      "hgetall",
      "lpush",
      "lrange",
      "zadd",
      "zrange",
      "incr",
      "expire",
      "ttl",
      "del",
      "eval",
      "bogus-cmd",
    ];
    const scalar = (): unknown =>
      pick([
        () => `${prefix}${Math.floor(random() * 20)}`,
        () => Math.floor(random() * 2000) - 1000,
        () => random() * 1e6,
        () => pick([true, false, null]),
        () => pick(["", "-1", "inf", "nan", "1e400", "withscores", "ex", "💥", "\u0000", 'a"b\\c']),
        () => "return redis.call('get', KEYS[1])",
      ])();
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.5) return scalar();
      if (r < 0.85) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, i) => [`k${i}`, value(depth + 1)]));
    };
    const command = (): unknown[] => [pick(names), ...Array.from({ length: Math.floor(random() * 6) }, scalar)];
    const generators: (() => [string, string | Buffer])[] = [
      () => ["/", JSON.stringify(command())],
      () => ["/pipeline", JSON.stringify(Array.from({ length: 1 + Math.floor(random() * 5) }, command))],
      () => ["/multi-exec", JSON.stringify(Array.from({ length: 1 + Math.floor(random() * 4) }, command))],
      () => [pick(["/", "/pipeline", "/multi-exec"]), JSON.stringify(value(0))],
      () => {
        const text = JSON.stringify(Array.from({ length: 3 }, command));
        return [pick(["/", "/pipeline"]), text.slice(0, Math.floor(random() * text.length))];
      },
      () => [
        pick(["/", "/pipeline", "/multi-exec"]),
        Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256))),
      ],
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const [path, body] = pick(generators)();
      const context = `#${i} ${path} ${body.toString().slice(0, 120)}`;
      const answer = await post(path, body);
      expectWellFormed(answer, path, context);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    // The generator must reach both the commands and the request validation.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    await alive();
  });
});
