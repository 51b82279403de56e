import { availableParallelism } from "node:os";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Which test files each project runs: the one place to update when test files move.
 *
 * | project    | script             | global setup                          | files                              |
 * | ---------- | ------------------ | ------------------------------------- | ---------------------------------- |
 * | unit       | test:unit          | setup-build (writes files only)       | SUITES.unit minus unitMocked, sharing modules |
 * | unit-isolated | test:unit       | setup-build                           | SUITES.unitMocked, each file isolated |
 * | emulator   | test:emulator      | setup-redis                           | SUITES.emulator                    |
 * | stack      | test:stack         | setup-redis                           | SUITES.stack                       |
 * | browser    | test:stack         | none                                  | SUITES.browser, one at a time      |
 * | api        | test:api           | global-setup (emulators, fake OpenAI) | SUITES.apiParallel, in parallel    |
 * | api-serial | test:api           | global-setup (the same stack)         | SUITES.api minus apiParallel, one at a time |
 *
 * `npm test` is the typecheck, then every project. A project's global setup runs only when one of
 * its files is selected, so `npm run test:unit` starts no emulator and no Redis.
 */
const SUITES = {
  /** Domain and adapter tests: in-process fakes only (a fake OpenAI server a file starts itself is fine). */
  unit: ["test/unit/**/*.test.ts"],
  /**
   * The unit files that replace modules with `vi.mock`: they run isolated (unit-isolated), since the
   * other unit files share one module cache per worker, where a mock could leak or come too late.
   */
  unitMocked: ["test/unit/memory/tenant-memory.test.ts"],
  /** The emulators against the real Redis and the Upstash contracts, and the stores against them. */
  emulator: ["test/emulator/**/*.test.ts", "test/stores/**/*.test.ts"],
  /** Real processes: `npm run dev`, restarts, reconnects, bad input to the real Redis. */
  stack: ["test/stack/dev/**/*.test.ts", "test/reliability/**/*.test.ts"],
  /** Headless Chromium against `npm run dev`. */
  browser: ["test/stack/browser/**/*.test.ts"],
  /** The Worker in workerd over HTTP. */
  api: ["test/api/**/*.test.ts"],
  /**
   * The API files that may run next to each other: they never change the fake LLM's mode or script,
   * never read its request log or an emulator's, never set an emulator fault or delay, never run the
   * cron (it acts on every user, and a run started while another holds the run lock skips), and use
   * their own users and sessions. Every other API file runs alone (api-serial); a new file goes there until
   * it is known to be safe here.
   */
  apiParallel: [
    "test/api/service/config-errors.test.ts",
    "test/api/conventions/api.test.ts",
    "test/api/conventions/docs-page.test.ts",
    "test/api/conventions/docs-try-it.test.ts",
    "test/api/facts/api.test.ts",
    "test/api/facts/erase.test.ts",
    "test/api/facts/meaning.test.ts",
    "test/api/sessions/notes-bounds.test.ts",
    "test/api/chat/openai-shapes.test.ts",
    "test/api/service/rank-binary.test.ts",
    "test/api/rate-limit/users.test.ts",
    "test/api/sessions/bad-input.test.ts",
    "test/api/sessions/concurrency.test.ts",
    "test/api/sessions/paging.test.ts",
    "test/api/sessions/seed.test.ts",
    "test/api/sessions/settings-reset-stats.test.ts",
    "test/api/sessions/working-memory.test.ts",
    "test/api/sessions/tenancy.test.ts",
    "test/api/sessions/ttl.test.ts",
    "test/api/access/token-session-owner.test.ts",
    "test/api/users/user-sessions.test.ts",
    "test/api/access/user-token-sessions.test.ts",
    "test/api/facts/founding-scenario.test.ts",
    "test/api/facts/superseded.test.ts",
    "test/api/sessions/message-time.test.ts",
  ],
};

/**
 * Files of the parallel projects run this many at a time (vitest's default, CPUs - 1, is 1 on a
 * 2-core machine). Most of their time is spent waiting on child processes and sockets. Every project
 * without `fileParallelism: false` must use the same number: vitest runs them as one group.
 */
const PARALLEL_FILES = Math.max(2, availableParallelism() - 1);

// Vitest's own default ("node", "development|production") plus the condition under which
// `@agent-memory/client` resolves to its TypeScript source in the repository (client/package.json).
const nodeResolve = () => ({ ssr: { resolve: { conditions: ["agent-memory-source", "node", "development|production"] } } });
const nodeTest = { environment: "node", maxWorkers: PARALLEL_FILES, testTimeout: 30_000, hookTimeout: 30_000 } as const;

/**
 * Drops Vite's "Sourcemap for ... points to missing source files" warning for files in node_modules:
 * packages that ship maps without their sources (the MCP SDK) get one such line per module each time
 * a Worker project loads them, and the maps are of no use to the tests either way. Vitest installs
 * its own logger, so the filter wraps the resolved one.
 */
const quietSourcemaps = (): Plugin => ({
  name: "quiet-missing-sourcemap-sources",
  configResolved(config) {
    const missingSources = /^Sourcemap for "[^"]*\/node_modules\/[^"]*" points to missing source files$/;
    const { logger } = config;
    const warnOnce = logger.warnOnce.bind(logger);
    logger.warnOnce = (msg, options) => {
      if (!missingSources.test(msg)) warnOnce(msg, options);
    };
  },
});

// One plugin instance per project: the pool keeps per-project state on it.
const workerd = () =>
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
  }));

export default defineConfig({
  test: {
    // One line per test file; a failing test still prints everything it logged.
    silent: "passed-only",
    // Durations are for benchmarks; the per-file line already shows how long a file took.
    slowTestThreshold: 300_000,
    projects: [
      {
        ...nodeResolve(),
        test: {
          ...nodeTest,
          name: "unit",
          include: SUITES.unit,
          exclude: SUITES.unitMocked,
          // Unit files share each worker's module cache: the source, zod and the rank tables load once
          // per worker, not once per file. A file's setup must therefore not run on import (see
          // test/support/session-memory-fixture.ts).
          isolate: false,
          globalSetup: ["./test/support/setup-build.ts"],
        },
      },
      {
        ...nodeResolve(),
        test: { ...nodeTest, name: "unit-isolated", include: SUITES.unitMocked, globalSetup: ["./test/support/setup-build.ts"] },
      },
      {
        ...nodeResolve(),
        test: { ...nodeTest, name: "emulator", include: SUITES.emulator, globalSetup: ["./test/support/setup-redis.ts"] },
      },
      { ...nodeResolve(), test: { ...nodeTest, name: "stack", include: SUITES.stack, globalSetup: ["./test/support/setup-redis.ts"] } },
      {
        test: {
          // A real headless Chromium against `npm run dev`: slow to start, so one file at a time.
          name: "browser",
          include: SUITES.browser,
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        plugins: [workerd(), quietSourcemaps()],
        test: {
          name: "api",
          isolate: false,
          include: SUITES.apiParallel,
          globalSetup: ["./test/support/global-setup.ts"],
          maxWorkers: PARALLEL_FILES,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [workerd(), quietSourcemaps()],
        test: {
          name: "api-serial",
          isolate: false,
          sequence: { groupOrder: 1 },
          include: SUITES.api,
          exclude: SUITES.apiParallel,
          globalSetup: ["./test/support/global-setup.ts"],
          // These share the emulators and the fake LLM, whose faults and modes are global: one at a time,
          // after the parallel projects (vitest runs the projects without file parallelism last).
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
