import { describe, expect, it } from "vitest";
import { createRedisService } from "../../tools/upstash-local/redis/index.ts";
import { createRespBackend } from "../../tools/upstash-local/redis/resp/backend.ts";
import { ReplyError } from "../../tools/upstash-local/redis/reply.ts";
import { redisVariants } from "../emulator/redis/variants.ts";

const realRedis = (await redisVariants()).filter((v) => v.redisUrl !== undefined);

describe("Redis URL problems", () => {
  it("fails at start, clearly, when nothing answers at the URL", async () => {
    await expect(createRedisService({ token: "t", redisUrl: "redis://127.0.0.1:1" })).rejects.toThrow(
      /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/,
    );
    await expect(createRedisService({ token: "t", redisUrl: "http://127.0.0.1:6379" })).rejects.toThrow(/unsupported Redis URL scheme/);
  });
});

describe.each(realRedis)("connection handling with $name", ({ redisUrl }) => {
  const url = redisUrl ?? "";

  it("reconnects after the server drops the connection", async () => {
    const backend = await createRespBackend({ url, poolSize: 1 });
    const admin = await createRespBackend({ url, poolSize: 1 });
    try {
      const id = await backend.exec(["CLIENT", "ID"]);
      expect(typeof id).toBe("number");
      expect(await admin.exec(["CLIENT", "KILL", "ID", String(id)])).toBe(1);
      // The next commands open a new socket; at most the first may fail, if it raced the close.
      await backend.exec(["PING"]).catch(() => undefined);
      const pong = await backend.exec(["PING"]);
      expect(pong).toBe("PONG");
      expect(await backend.exec(["CLIENT", "ID"])).not.toBe(id);
    } finally {
      await Promise.all([backend.close(), admin.close()]);
    }
  });

  it("selects the database from the URL path", async () => {
    const backend = await createRespBackend({ url: `${url.replace(/\/\d*$/, "")}/7` });
    try {
      const info = await backend.exec(["CLIENT", "INFO"]);
      expect(info instanceof ReplyError ? info.message : String(info)).toMatch(/\bdb=7\b/);
    } finally {
      await backend.close();
    }
  });
});
