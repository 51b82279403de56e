export { InvalidIdError, InvalidStoreInput, SessionOwnerMismatch, UnexpectedReply } from "./errors.ts";
export { typeFilter, filterLiteral } from "./fact-filter.ts";
export { namespaceToScope, scopeToNamespace } from "./fact-namespace.ts";
export { VectorFactStore, type EmbedFunction, type VectorFactStoreOptions, type VectorIndex } from "./facts-vector.ts";
export { ID_PATTERN, assertId, isValidId, sessionKeys, tenantSessionsKey, userSessionsKey } from "./keys.ts";
export { RedisSessionStore, type RedisSessionStoreOptions } from "./session-store.ts";
export { sweepSessionIndex, type SweepOptions, type SweepResult } from "./session-index.ts";
export type { RedisClient } from "./scripts.ts";
export { RedisWorkingMemoryStore } from "./working-memory-store.ts";
