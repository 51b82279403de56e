/** @module The client package's public entry point: re-exports the client classes, errors, stream reader and types. */
export { MemoryClient, createMemoryClient, type CallOptions, type MemoryClientOptions } from "./client.ts";
export type { ChatStreamEvent } from "./chat-stream.ts";
export { MemoryApiError } from "./errors.ts";
export { FactsClient } from "./facts.ts";
export { readServerSentEvents, type ServerSentEvent } from "./sse.ts";
export type { components, operations, paths } from "./schema.ts";
export type * from "./types.ts";
