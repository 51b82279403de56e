import type { TestProject } from "vitest/node";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import { startVectorEmulator } from "../../tools/upstash-local/vector/standalone.ts";
import { startFakeOpenAI } from "./fake-openai.ts";
import setupBuild from "./setup-build.ts";
import { sharedTestRedis } from "./setup-redis.ts";
import { acquireShared } from "./shared.ts";
import { dropWorkerdNoise } from "./workerd-noise.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real Redis of this run (see test-redis.ts); "" when there is none. */
    testRedisUrl: string;
    redisUrl: string;
    vectorUrl: string;
    /** A dense-only Vector index (384 dimensions), for the paths that embed in the Worker (EMBEDDINGS=openai). */
    denseVectorUrl: string;
    /**
     * A hybrid index whose dense part is the dev stack's sentence model (USE_LITE), for the tests of
     * recall by meaning. The main index keeps the deterministic hashing model the other tests assert on.
     */
    sentenceVectorUrl: string;
    upstashToken: string;
    openaiUrl: string;
  }
}

interface ApiStack {
  testRedisUrl: string;
  redisUrl: string;
  vectorUrl: string;
  denseVectorUrl: string;
  sentenceVectorUrl: string;
  upstashToken: string;
  openaiUrl: string;
}

/**
 * Global setup of the workerd projects (test/worker): upstash-local (forwarding to the run's real
 * Redis, or on its embedded engine when there is none) and a local OpenAI-compatible server. The
 * projects that use it never run at the same time (vitest.config.ts), so they share one stack,
 * started by whichever comes first; the ones that set faults or modes run one file at a time.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  dropWorkerdNoise();
  await setupBuild();
  const stack = await acquireShared("api-stack", startApiStack);
  for (const [key, value] of Object.entries(stack.value) as [keyof ApiStack, string][]) project.provide(key, value);
  return stack.release;
}

async function startApiStack(): Promise<{ value: ApiStack; close: () => Promise<void> }> {
  const redis = await sharedTestRedis();
  const upstash = await startUpstashLocal({
    redisPort: 0,
    vectorPort: 0,
    redisUrl: redis.value.url,
    // The dev stack's index: hybrid (dense + BM25), which the Worker queries with VECTOR_INDEX=hybrid.
    vector: { kind: "hybrid" },
  });
  const dense = await startVectorEmulator({ token: upstash.token, index: { kind: "dense" } });
  // Loaded on its first query (about 1-2 s, ~260 MB), so runs that do not use it do not pay for it.
  const sentence = await startVectorEmulator({
    token: upstash.token,
    index: { kind: "hybrid", denseModel: "USE_LITE" },
    preloadModel: false,
  });
  const openai = await startFakeOpenAI({ port: 0 });
  return {
    value: {
      testRedisUrl: redis.value.url ?? "",
      redisUrl: upstash.redis.url,
      vectorUrl: upstash.vector.url,
      denseVectorUrl: dense.url,
      sentenceVectorUrl: sentence.url,
      upstashToken: upstash.token,
      openaiUrl: `${openai.url}/v1`,
    },
    close: async () => {
      await Promise.all([upstash.close(), dense.close(), sentence.close(), openai.close()]);
      await redis.release();
    },
  };
}
