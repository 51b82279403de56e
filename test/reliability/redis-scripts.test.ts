import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedisBackend } from "../../tools/upstash-local/redis/backend.ts";
import { createEmbeddedBackend } from "../../tools/upstash-local/redis/embedded/backend.ts";
import { ReplyError } from "../../tools/upstash-local/redis/reply.ts";

const message = (reply: unknown): string => (reply instanceof ReplyError ? reply.message : `not an error: ${String(reply)}`);

describe("embedded engine scripts that misbehave", () => {
  let backend: RedisBackend;
  beforeAll(async () => {
    backend = await createEmbeddedBackend({ scriptTimeoutMs: 200 });
  });
  afterAll(async () => {
    await backend.close();
  });

  it("stops a script that never ends, and keeps serving", async () => {
    const started = Date.now();
    expect(message(await backend.exec(["eval", "while true do end", "0"]))).toMatch(
      /^ERR Error running script: .*script killed after running longer than 200 ms/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await backend.exec(["ping"])).toBe("PONG");
  });

  it("reports compile errors, runtime errors and error replies", async () => {
    expect(message(await backend.exec(["eval", "return +", "0"]))).toMatch(/^ERR Error compiling script/);
    expect(message(await backend.exec(["eval", "return nosuch.field", "0"]))).toMatch(/^ERR Error running script/);
    expect(message(await backend.exec(["eval", "return redis.error_reply('MYERR custom')", "0"]))).toBe("MYERR custom");
    expect(message(await backend.exec(["eval", "error({err = 'OTHER raised'})", "0"]))).toBe("OTHER raised");
    expect(message(await backend.exec(["eval", "return redis.call('nosuch')", "0"]))).toMatch(/^ERR unknown command 'nosuch'/);
    expect(message(await backend.exec(["eval", "return redis.call('eval', 'return 1', 0)", "0"]))).toMatch(/not allowed from script/);
    expect(message(await backend.exec(["eval", "return redis.call({})", "0"]))).toMatch(/must be strings or integers/);
  });

  it("keeps read-only scripts from writing, and sandboxes the environment", async () => {
    expect(message(await backend.exec(["eval_ro", "return redis.call('set', 'k', 'v')", "0"]))).toMatch(/Write commands are not allowed/);
    expect(await backend.exec(["eval_ro", "return redis.call('get', 'k')", "0"])).toBeNull();
    expect(await backend.exec(["eval", "return {type(io), type(os.execute), type(require), type(cjson)}", "0"])).toEqual(
      ["nil", "nil", "nil", "table"].map((s) => Buffer.from(s)),
    );
  });

  it("converts values both ways like Redis", async () => {
    const script = "return {KEYS[1], ARGV[1], 3.9, true, false, nil, 'after nil'}";
    expect(await backend.exec(["eval", script, "1", "key", "arg"])).toEqual([Buffer.from("key"), Buffer.from("arg"), 3, 1, null]);
    expect(await backend.exec(["eval", "return cjson.decode(ARGV[1]).list[2]", "0", '{"list":[1,"two"]}'])).toEqual(Buffer.from("two"));
    expect(await backend.exec(["eval", "return redis.sha1hex('')", "0"])).toEqual(Buffer.from("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    expect(message(await backend.exec(["eval", "return 1", "2", "onlyone"]))).toBe(
      "ERR Number of keys can't be greater than number of args",
    );
    expect(message(await backend.exec(["evalsha", "ffffffffffffffffffffffffffffffffffffffff", "0"]))).toBe(
      "NOSCRIPT No matching script. Please use EVAL.",
    );
  });
});
