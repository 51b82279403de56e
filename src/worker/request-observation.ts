/** @module One request's observation: its id, trace, metrics and log context, written behind the response. */
import { RequestMetrics, isEmptyBatch, TurnTrace, type Trace, type TraceKind } from "../memory/observe/index.ts";
import type { MemoryLogger, MetricsStore, TraceStore } from "../memory/ports/index.ts";

/** How a finished request is described in its log line and its metrics. */
export interface RequestOutcome {
  route: string;
  method: string;
  status: number;
  durationMs: number;
}

export interface ObservationDeps {
  requestId: string;
  traceTtlSeconds: number;
  traces: TraceStore | null;
  metrics: MetricsStore | null;
  logger: MemoryLogger;
  now(): number;
  newId(): string;
  /** Hands the writes to `ctx.waitUntil` (never awaited on the response path). */
  background(work: Promise<unknown>): void;
}

/**
 * One request's trace, metrics and log context. Everything it writes goes out after the response
 * in `waitUntil`: the metrics as one pipeline, the trace as another, in parallel.
 */
export class RequestObservation {
  readonly requestId: string;
  readonly trace = new TurnTrace();
  readonly metrics = new RequestMetrics();
  readonly #d: ObservationDeps;
  #tenant: string | undefined;
  #inline = false;
  #finished = false;
  /** What every log line of the request carries besides its id. */
  readonly logContext: { tenant?: string; session?: string } = {};

  constructor(deps: ObservationDeps) {
    this.#d = deps;
    this.requestId = deps.requestId;
  }

  /** The tenant the request acts for (set once authenticated); its metrics go there. */
  set tenant(tenant: string) {
    this.#tenant = tenant;
    this.logContext.tenant = tenant;
  }

  /**
   * Starts the turn's trace: stored when `TRACE_TTL_SECONDS` > 0, returned inline when asked for.
   * Returns the trace id, or null when tracing is off and nobody asked.
   */
  beginTrace(kind: TraceKind, session: { sessionId: string; userId?: string | undefined }, inline: boolean): string | null {
    if (this.#d.traceTtlSeconds === 0 && !inline) return null;
    this.#inline = inline;
    const traceId = this.#d.newId();
    this.trace.begin({ traceId, kind, sessionId: session.sessionId, userId: session.userId, requestId: this.requestId, at: this.#d.now() });
    return traceId;
  }

  /** The trace to put in the response body, when the client asked for it. */
  inlineTrace(): Trace | null {
    return this.#inline ? this.trace.snapshot() : null;
  }

  /**
   * Logs the request's one line and writes what it observed. Both wait a timer turn: by then the
   * runtime has sent the response, so building and sending them does not hold it up.
   */
  finish(outcome: RequestOutcome): void {
    this.#d.background(afterResponse().then(() => this.#finish(outcome)));
  }

  #finish(outcome: RequestOutcome): void {
    this.#finished = true;
    const traceId = this.trace.traceId;
    this.#d.logger.info("request", {
      method: outcome.method,
      route: outcome.route,
      status: outcome.status,
      durationMs: outcome.durationMs,
      ...(traceId ? { traceId } : {}),
    });
    const tenant = this.#tenant;
    // A refused request (bad input, unknown id) did no memory work: nothing is written for it.
    const refused = outcome.status >= 400 && outcome.status < 500 && outcome.status !== 429;
    if (tenant && !refused) this.#write(tenant, outcome);
  }

  #write(tenant: string, outcome: RequestOutcome): void {
    this.metrics.count("requests");
    if (outcome.status === 429) this.metrics.count("rateLimited");
    this.metrics.latency(`${outcome.method} ${outcome.route}`, outcome.durationMs);
    this.#flush();
    const trace = this.trace.snapshot();
    if (trace && this.#d.traces && this.#d.traceTtlSeconds > 0)
      this.#d.background(this.#d.traces.put(tenant, trace, this.#d.traceTtlSeconds));
  }

  /**
   * Called when a background job ends: what it counted after the response is written then. Until
   * the request finished its counts wait for the request's own batch (one write per request).
   */
  flushMetrics(): void {
    if (this.#finished) this.#flush();
  }

  #flush(): void {
    const tenant = this.#tenant;
    const store = this.#d.metrics;
    if (!tenant || !store) return;
    const batch = this.metrics.take();
    if (!isEmptyBatch(batch)) this.#d.background(store.record(tenant, batch, this.#d.now()));
  }
}

/** Resolves on the next timer turn, after the response the request returned has gone out. */
const afterResponse = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A logger whose every line carries the request's id, tenant and session where known. */
export function requestLogger(base: MemoryLogger, context: () => Record<string, unknown>): MemoryLogger {
  return {
    debug: (message, data) => base.debug(message, { ...context(), ...data }),
    info: (message, data) => base.info(message, { ...context(), ...data }),
    warn: (message, data) => base.warn(message, { ...context(), ...data }),
    error: (message, data) => base.error(message, { ...context(), ...data }),
  };
}
