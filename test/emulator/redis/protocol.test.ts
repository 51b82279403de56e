import { createHash } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRedisEmulator, type RedisEmulator } from "../../../tools/upstash-local/redis/standalone.ts";
import { rawRequest, redisVariants, uniquePrefix, type RawResponse } from "./variants.ts";

const variants = await redisVariants();
const TOKEN = "protocol-token";
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

describe.each(variants)("Redis REST protocol details ($name)", ({ redisUrl }) => {
  let emu: RedisEmulator;
  const prefix = uniquePrefix("protocol");
  let n = 0;
  let k = "";
  const send = (body: unknown, options: { path?: string; base64?: boolean } = {}): Promise<RawResponse> =>
    rawRequest(emu.url, {
      path: options.path,
      token: TOKEN,
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: options.base64 === true ? { "upstash-encoding": "base64" } : {},
    });

  beforeAll(async () => {
    emu = await startRedisEmulator({ token: TOKEN, redisUrl });
  });
  afterAll(async () => {
    const keys = await send(["keys", `${prefix}*`]);
    const list = (keys.json as { result: string[] }).result;
    if (list.length > 0) await send(["del", ...list]);
    await emu.close();
  });
  beforeEach(() => {
    k = `${prefix}${++n}`;
  });

  it("answers single commands, with and without base64", async () => {
    expect(await send(["set", k, "v"])).toMatchObject({ status: 200, json: { result: "OK" } });
    expect((await send(["get", k])).json).toEqual({ result: "v" });
    expect((await send(["get", k], { base64: true })).json).toEqual({ result: b64("v") });
    expect((await send(["get", `${k}:missing`], { base64: true })).json).toEqual({ result: null });
    expect((await send(["SeT", k, "w"])).json).toEqual({ result: "OK" }); // names are case-insensitive
  });

  it("encodes every string at any depth and keeps RESP2 shapes", async () => {
    await send(["hset", k, "f1", "v1", "f2", "值"]);
    expect((await send(["hgetall", k], { base64: true })).json).toEqual({
      result: [b64("f1"), b64("v1"), b64("f2"), b64("值")],
    });
    await send(["zadd", `${k}:z`, "1.5", "a"]);
    expect((await send(["zscore", `${k}:z`, "a"], { base64: true })).json).toEqual({ result: b64("1.5") });
    expect((await send(["incr", `${k}:n`], { base64: true })).json).toEqual({ result: 1 });
    const nested = await send(["eval", "return {1, 'a', {2, 'b', false}}", 0], { base64: true });
    expect(nested.json).toEqual({ result: [1, b64("a"), [2, b64("b"), null]] });
  });

  it("converts JSON scalars to arguments from their source text", async () => {
    await send(`["set","${k}",1e+21]`);
    expect((await send(["get", k])).json).toEqual({ result: "1e+21" });
    await send(`["set","${k}",0.10]`);
    expect((await send(["get", k])).json).toEqual({ result: "0.10" });
    await send(`["set","${k}",12345678901234567890]`);
    expect((await send(["get", k])).json).toEqual({ result: "12345678901234567890" });
    await send(["set", k, true]);
    expect((await send(["get", k])).json).toEqual({ result: "true" });
    await send(["set", k, null]);
    expect((await send(["get", k])).json).toEqual({ result: "" });
  });

  it("returns per-item results and errors from /pipeline", async () => {
    const res = await send(
      [
        ["set", k, "x"],
        ["lpush", k, "y"],
        ["nosuchcommand", "a"],
        ["subscribe", "ch"],
        ["get", k],
      ],
      {
        path: "/pipeline",
      },
    );
    expect(res.status).toBe(200);
    const items = res.json as { result?: unknown; error?: string }[];
    expect(items).toHaveLength(5);
    expect(items[0]).toEqual({ result: "OK" });
    expect(items[1]?.error).toMatch(/^WRONGTYPE/);
    expect(items[2]?.error).toMatch(/^ERR unknown command/);
    expect(items[3]?.error).toMatch(/not supported/);
    expect(items[4]).toEqual({ result: "x" });
  });

  it("runs /multi-exec with per-item runtime errors, and discards it whole on queueing errors", async () => {
    const ok = await send(
      [
        ["set", k, "1"],
        ["lpush", k, "x"],
        ["incr", k],
      ],
      { path: "/multi-exec" },
    );
    expect(ok.status).toBe(200);
    const items = ok.json as { result?: unknown; error?: string }[];
    expect(items[0]).toEqual({ result: "OK" });
    expect(items[1]?.error).toMatch(/^WRONGTYPE/);
    expect(items[2]).toEqual({ result: 2 });
    const aborted = await send([["set", `${k}:b`, "1"], ["nosuchcommand"]], { path: "/multi-exec" });
    expect(aborted.status).toBe(400);
    expect((aborted.json as { error: string }).error).toMatch(/^EXECABORT/);
    expect((await send(["exists", `${k}:b`])).json).toEqual({ result: 0 });
    const rejected = await send(
      [
        ["set", `${k}:b`, "1"],
        ["watch", k],
      ],
      { path: "/multi-exec" },
    );
    expect(rejected.status).toBe(400);
    expect((await send(["exists", `${k}:b`])).json).toEqual({ result: 0 });
  });

  it("keeps /multi-exec blocks atomic under concurrent requests", async () => {
    const blocks = await Promise.all(
      Array.from({ length: 40 }, () =>
        send(
          [
            ["incr", k],
            ["incr", k],
            ["incr", k],
          ],
          { path: "/multi-exec" },
        ),
      ),
    );
    const values = blocks.map((res) => (res.json as { result: number }[]).map((item) => item.result));
    // Each block saw three consecutive values: nothing ran between its commands.
    for (const [a = 0, b, c] of values) expect([b, c]).toEqual([a + 1, a + 2]);
    expect(values.map(([a = 0]) => a).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => 1 + 3 * i));
    const singles = await Promise.all(Array.from({ length: 60 }, () => send(["incr", k])));
    expect(singles.every((res) => res.status === 200)).toBe(true);
    expect((await send(["get", k])).json).toEqual({ result: String(120 + 60) });
  });

  it("caches EVAL scripts for EVALSHA and reports NOSCRIPT", async () => {
    const script = `return '${k}'`;
    const sha = createHash("sha1").update(script).digest("hex");
    expect(await send(["evalsha", sha, 0])).toEqual(
      expect.objectContaining({ status: 400, json: { error: "NOSCRIPT No matching script. Please use EVAL." } }),
    );
    expect((await send(["eval", script, 0])).json).toEqual({ result: k });
    expect((await send(["evalsha", sha, 0])).json).toEqual({ result: k });
  });

  it("rejects whole requests that are not commands", async () => {
    const cases: [string, string | undefined][] = [
      ['["set", "a"', "/"],
      ['{"cmd":"get"}', "/"],
      ["[]", "/"],
      ['["set", ["nested"], "x"]', "/"],
      ['[["get","a"], "get"]', "/pipeline"],
      ['[["get","a"], []]', "/multi-exec"],
      ['"text"', "/pipeline"],
      ["", "/"],
    ];
    for (const [body, path] of cases) {
      const res = await send(body, { path });
      expect(res.status, body).toBe(400);
      expect((res.json as { error: string }).error, body).toMatch(/^ERR /);
    }
  });

  it("rejects blocking and connection-state commands clearly", async () => {
    for (const command of [["blpop", k, 0], ["subscribe", "ch"], ["multi"], ["select", 1], ["monitor"]]) {
      const res = await send(command);
      expect(res.status).toBe(400);
      expect((res.json as { error: string }).error).toMatch(/^ERR '.+' is not supported by the REST API/);
    }
  });

  it("supports the path form, query arguments and ?_token", async () => {
    const path = (p: string, method = "GET", body?: string) =>
      rawRequest(emu.url, {
        method,
        path: p,
        token: TOKEN,
        body: method === "GET" || method === "HEAD" ? undefined : body,
      });
    expect((await path(`/set/${encodeURIComponent(k)}/hello%20world`)).json).toEqual({ result: "OK" });
    expect((await path(`/get/${encodeURIComponent(k)}`)).json).toEqual({ result: "hello world" });
    expect((await path(`/set/${encodeURIComponent(k)}?EX=100`, "POST", "raw body, 原文")).json).toEqual({
      result: "OK",
    });
    expect((await path(`/get/${encodeURIComponent(k)}`)).json).toEqual({ result: "raw body, 原文" });
    expect((await path(`/ttl/${encodeURIComponent(k)}`)).json).toEqual({ result: 100 });
    expect((await path(`/set/${encodeURIComponent(k)}`, "PUT", "put")).json).toEqual({ result: "OK" });
    expect((await path(`/get/${encodeURIComponent(k)}`, "HEAD")).status).toBe(200);
    expect((await path(`/get/${encodeURIComponent(k)}`, "DELETE")).status).toBe(405);
    const viaQuery = await rawRequest(emu.url, {
      method: "GET",
      path: `/get/${encodeURIComponent(k)}?_token=${TOKEN}`,
    });
    expect(viaQuery.json).toEqual({ result: "put" });
  });

  it("parses JSON whatever the Content-Type, and checks the token", async () => {
    const plain = await rawRequest(emu.url, {
      token: TOKEN,
      body: JSON.stringify(["echo", "hi"]),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.json).toEqual({ result: "hi" });
    const missing = await rawRequest(emu.url, { body: JSON.stringify(["ping"]) });
    const wrong = await rawRequest(emu.url, { token: "nope", body: JSON.stringify(["ping"]) });
    for (const res of [missing, wrong]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: "WRONGPASS invalid or missing auth token" });
    }
    expect(missing.headers.get("upstash-sync-token")).not.toBe(wrong.headers.get("upstash-sync-token"));
  });

  it("decodes a body whose multi-byte characters are split across TCP chunks", async () => {
    const value = "分块传输🙂".repeat(3);
    const bytes = Buffer.from(JSON.stringify(["set", k, value]), "utf8");
    const cut = bytes.indexOf(Buffer.from("块", "utf8")) + 1; // inside a 3-byte character
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${emu.url}/`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.flushHeaders();
      req.write(bytes.subarray(0, cut));
      setTimeout(() => req.end(bytes.subarray(cut)), 30);
    });
    expect(status).toBe(200);
    expect((await send(["get", k])).json).toEqual({ result: value });
  });
});
