/** @module The Worker's entry point: the HTTP app on the per-request runtime, and the cron. */
import { buildApp } from "./http/app.ts";
import { runScheduled } from "./worker/cron.ts";
import type { Bindings } from "./worker/env.ts";
import { jsonLogger } from "./worker/log.ts";
import { createRuntime } from "./worker/request-runtime.ts";

// The one place where the HTTP layer meets the composition root.
const app = buildApp(createRuntime, jsonLogger);

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Bindings>;
