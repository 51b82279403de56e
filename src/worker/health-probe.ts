/** @module The health probe: Redis and Vector reachable, the index fitting the configuration. */
import type { Config } from "./config/parse.ts";
import type { Adapters } from "./wiring.ts";

export type UpstreamStatus = "ok" | "down" | "not_configured" | "misconfigured";

export interface Health {
  ok: boolean;
  redis: UpstreamStatus;
  vector: UpstreamStatus;
  llm: "configured" | "not_configured";
  /** `off` without a `BACKUPS` bucket binding. */
  backups: "configured" | "off";
  errors?: { redis?: string; vector?: string };
}

async function probe<T>(check: (() => Promise<T>) | null): Promise<{ status: UpstreamStatus; error?: string; value?: T }> {
  if (!check) return { status: "not_configured" };
  try {
    return { status: "ok", value: await check() };
  } catch (err) {
    return { status: "down", error: err instanceof Error ? err.message.slice(0, 200) : "unknown error" };
  }
}

/**
 * Checks Redis and Vector in parallel through the official clients; Vector's `info` is also held
 * against the configuration (`misconfigured`, with what to set, when the index does not fit).
 */
export async function probeHealth(config: Config, adapters: Adapters, backups: boolean): Promise<Health> {
  const { redis, vector, vectorCheck } = adapters;
  const [r, probed] = await Promise.all([
    probe(redis ? () => redis.ping() : null),
    probe(vector ? () => vector.info().then((info) => vectorCheck?.record(info) ?? null) : null),
  ]);
  const mismatch = probed.status === "ok" ? probed.value : null;
  const v = mismatch ? { status: "misconfigured" as const, error: mismatch } : probed;
  const errors = { ...(r.error ? { redis: r.error } : {}), ...(v.error ? { vector: v.error } : {}) };
  return {
    ok: r.status === "ok" && v.status === "ok",
    redis: r.status,
    vector: v.status,
    llm: config.llm ? "configured" : "not_configured",
    backups: backups ? "configured" : "off",
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}
