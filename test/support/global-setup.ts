import type { TestProject } from "vitest/node";
import { copyDocsAssets } from "../../scripts/docs-assets.ts";
import { writeRankBinaries } from "../../scripts/rank-binaries.ts";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import { startVectorEmulator } from "../../tools/upstash-local/vector/standalone.ts";
import { startFakeOpenAI } from "./fake-openai.ts";
import { acquireTestRedis } from "./test-redis.ts";
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

/**
 * Runs once for the whole run (root config; both projects inherit what it provides). Picks the real
 * Redis and says which in one line, then starts upstash-local (forwarding to that Redis, or on its
 * embedded engine when there is none) and a local OpenAI-compatible server for the worker tests.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  dropWorkerdNoise();
  // The workers pool serves public/ as wrangler does; wrangler's build step, which fills it, does not run here.
  copyDocsAssets();
  // The rank tables' binaries a Worker build bundles (wrangler's build step writes them too).
  await writeRankBinaries();
  const redis = await acquireTestRedis();
  console.log(`Redis for tests: ${redis.summary}`);
  const upstash = await startUpstashLocal({
    redisPort: 0,
    vectorPort: 0,
    redisUrl: redis.url,
    // The dev stack's index: hybrid (dense + BM25), which the Worker queries with VECTOR_INDEX=hybrid.
    vector: { kind: "hybrid" },
  });
  const dense = await startVectorEmulator({ token: upstash.token, index: { kind: "dense" } });
  // Loaded on its first query (about 1-2 s, ~260 MB), so runs that do not use it do not pay for it.
  const sentence = await startVectorEmulator({ token: upstash.token, index: { kind: "hybrid", denseModel: "USE_LITE" }, preloadModel: false });
  const openai = await startFakeOpenAI({ port: 0 });
  project.provide("testRedisUrl", redis.url ?? "");
  project.provide("redisUrl", upstash.redis.url);
  project.provide("vectorUrl", upstash.vector.url);
  project.provide("denseVectorUrl", dense.url);
  project.provide("sentenceVectorUrl", sentence.url);
  project.provide("upstashToken", upstash.token);
  project.provide("openaiUrl", `${openai.url}/v1`);
  return async () => {
    await Promise.all([upstash.close(), dense.close(), sentence.close(), openai.close()]);
    await redis.close();
  };
}
