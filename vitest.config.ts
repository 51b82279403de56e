import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One setup for the whole run: it picks the Redis and starts the emulators both projects use.
    globalSetup: ["./test/support/global-setup.ts"],
    // One line per test file; a failing test still prints everything it logged.
    silent: "passed-only",
    // Durations are for benchmarks; the per-file line already shows how long a file took.
    slowTestThreshold: 300_000,
    projects: [
      {
        // Vitest's own default ("node", "development|production") plus the condition under which
        // `@agent-memory/client` resolves to its TypeScript source in the repository (client/package.json).
        ssr: { resolve: { conditions: ["agent-memory-source", "node", "development|production"] } },
        test: {
          name: "node",
          include: [
            "test/unit/**/*.test.ts",
            "test/conformance/**/*.test.ts",
            "test/reliability/**/*.test.ts",
            "test/dev/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // A real headless Chromium against `npm run dev`: slow to start, so one file at a time.
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: "./src/index.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // Rank tables with their hash built in, as a Worker build bundles them (wrangler's default rule).
              modulesRules: [{ type: "Data", include: ["**/*.bin"] }],
              // The fact-snapshot bucket (wrangler.toml), simulated in memory per test file.
              r2Buckets: ["BACKUPS"],
              bindings: {
                UPSTASH_REDIS_REST_URL: inject("redisUrl"),
                UPSTASH_REDIS_REST_TOKEN: inject("upstashToken"),
                UPSTASH_VECTOR_REST_URL: inject("vectorUrl"),
                UPSTASH_VECTOR_REST_TOKEN: inject("upstashToken"),
                CONTROL_REDIS_URL: inject("redisUrl"),
                CONTROL_VECTOR_URL: inject("vectorUrl"),
                // A dense-only index for the files that embed in the Worker (EMBEDDINGS=openai).
                DENSE_VECTOR_URL: inject("denseVectorUrl"),
                OPENAI_BASE_URL: inject("openaiUrl"),
                API_KEYS: "acme:acme-key,globex:globex-key",
              },
            },
          })),
        ],
        test: {
          name: "workers",
          include: ["test/worker/**/*.test.ts"],
          // Files share the emulators and the fake LLM, whose faults and modes are global: one at a time.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
