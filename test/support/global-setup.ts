import type { TestProject } from "vitest/node";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import { startFakeOpenAI } from "./fake-openai.ts";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
    vectorUrl: string;
    upstashToken: string;
    openaiUrl: string;
  }
}

/**
 * Starts upstash-local (forwarding to the real Redis in REDIS_URL when set, the embedded engine
 * otherwise) and a local OpenAI-compatible server; the worker tests reach both over 127.0.0.1.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const upstash = await startUpstashLocal({
    redisPort: 0,
    vectorPort: 0,
    redisUrl: process.env.REDIS_URL || undefined,
    // The Worker's facts store queries a dense index (scores in 0..1 against minScore); the
    // emulator's default is hybrid, whose fused scores are ranks, so the index kind is set here.
    vector: { kind: "dense" },
  });
  const openai = await startFakeOpenAI({ port: 0 });
  project.provide("redisUrl", upstash.redis.url);
  project.provide("vectorUrl", upstash.vector.url);
  project.provide("upstashToken", upstash.token);
  project.provide("openaiUrl", `${openai.url}/v1`);
  return async () => {
    await Promise.all([upstash.close(), openai.close()]);
  };
}
