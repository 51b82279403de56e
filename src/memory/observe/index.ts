/**
 * @module What memory did and how much: per-turn traces, tenant metrics and the audit log.
 */
export {
  AUDIT_FAILURES_PER_MINUTE,
  MAX_AUDIT_PAGE,
  auditActor,
  auditStream,
  throttleSubject,
  type AuditActor,
  type AuditEntry,
} from "./audit.ts";
export { COUNTERS, HOUR_MS, RequestMetrics, isEmptyBatch, type CounterName, type MetricsBatch, type StoredMetrics } from "./metrics.ts";
export { RECENT_TRACES_KEPT } from "./queries.ts";
export { TurnTrace, type Trace, type TraceKind } from "./trace.ts";
