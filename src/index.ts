import { buildApp } from "./app.ts";
import type { Bindings } from "./env.ts";
import { runScheduled } from "./jobs/scheduled.ts";

const app = buildApp();

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Bindings>;
