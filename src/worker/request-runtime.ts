/** @module The runtime of one request: its configuration, its tenant's use cases, its observation and background work. */
import type { AuditActor } from "../memory/observe/index.ts";
import type { MemoryLogger, RateLimiter } from "../memory/ports/index.ts";
import { TenantMemory } from "../memory/tenant-memory.ts";
import { loadConfig, type Config } from "./config/parse.ts";
import { probeHealth, type Health } from "./health-probe.ts";
import { jsonLogger } from "./log.ts";
import { RequestObservation, requestLogger } from "./request-observation.ts";
import { adaptersFor, backupsFor } from "./wiring.ts";

/** What one request may use: the configuration, the use cases of a tenant, the health probes. */
export interface Runtime {
  config: Config;
  /** The use cases of one tenant for this request, on behalf of `actor` (the audit log names it). */
  memory(tenant: string, actor: AuditActor): TenantMemory;
  /** Null when `RATE_LIMIT` is unset or Redis is not configured. */
  rateLimiter: RateLimiter | null;
  health(): Promise<Health>;
  /** Hands work to `ctx.waitUntil`; failures are logged, never thrown. */
  background(work: Promise<unknown>): void;
  /** This request's id, trace, metrics and log context. */
  observe: RequestObservation;
  /** Logs with the request's id, tenant and session. */
  logger: MemoryLogger;
}

/** The part of the Workers execution context the runtime uses. */
export interface BackgroundContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** Background work for `ctx.waitUntil`: failures are logged, never thrown. */
export function backgroundFor(ctx: BackgroundContext | undefined, logger: MemoryLogger = jsonLogger): (work: Promise<unknown>) => void {
  return (work) => {
    const guarded = work.catch((err: unknown) => logger.error("background work failed", { error: String(err) }));
    if (ctx) ctx.waitUntil(guarded);
  };
}

/** Builds the runtime of one request from the Worker's bindings. Throws `ConfigError` on bad config. */
export function createRuntime(
  env: object,
  ctx: BackgroundContext | undefined,
  request: { requestId?: string; session?: string | undefined } = {},
): Runtime {
  const config = loadConfig(env);
  const adapters = adaptersFor(config);
  const requestId = request.requestId ?? crypto.randomUUID();
  let observe: RequestObservation | null = null;
  const logger = requestLogger(jsonLogger, () => ({ requestId, ...observe?.logContext }));
  const writeBehind = backgroundFor(ctx, logger);
  observe = new RequestObservation({
    requestId,
    traceTtlSeconds: config.traceTtlSeconds,
    traces: adapters.traces,
    metrics: adapters.metrics,
    logger,
    now: Date.now,
    newId: () => crypto.randomUUID(),
    background: writeBehind,
  });
  const observation = observe;
  if (request.session) observation.logContext.session = request.session;
  // What background work counts (a compression after the response) is written when it ends.
  const background = (work: Promise<unknown>): void => writeBehind(work.finally(() => observation.flushMetrics()));
  const backups = backupsFor(env, config, adapters);
  return {
    config,
    rateLimiter: adapters.rateLimiter,
    memory: (tenant, actor) =>
      new TenantMemory({
        tenant,
        actor,
        sessions: adapters.sessions,
        users: adapters.users,
        audit: adapters.audit,
        eraseJournal: adapters.eraseJournal,
        working: adapters.working,
        facts: adapters.facts,
        backups,
        summarizer: adapters.summarizer,
        fallbackSummarizer: adapters.fallbackSummarizer,
        ...adapters.deps,
        counter: adapters.counter,
        options: config.memory,
        workingTtlSeconds: config.notesTtlSeconds,
        limits: config.limits,
        now: Date.now,
        newId: () => crypto.randomUUID(),
        logger,
        background,
        trace: observation.trace,
        metrics: observation.metrics,
        traces: adapters.traces,
        metricsStore: adapters.metrics,
      }),
    health: () => probeHealth(config, adapters, backups !== null),
    background,
    observe: observation,
    logger,
  };
}
