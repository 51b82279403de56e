/** @module The operation classes routes and MCP tools declare (session/user read or write, chat, tenant-only) for access checks. */
import type { OperationClass } from "../memory/access/index.ts";

/** Reads and writes of the session the request names (path or `X-Memory-Session`). */
export const sessionRead: OperationClass = { need: "read", target: "session" };
export const sessionWrite: OperationClass = { need: "write", target: "session" };
/** Reads and writes of the user the request names. */
export const userRead: OperationClass = { need: "read", target: "user" };
export const userWrite: OperationClass = { need: "write", target: "user" };
/** A chat turn in the named session. */
export const chatTurn: OperationClass = { need: "chat", target: "session" };
/** Tenant keys only (read keys too); a token never. */
export const tenantRead: OperationClass = { need: "tenant", write: false };
/** Full tenant keys only. */
export const tenantWrite: OperationClass = { need: "tenant", write: true };
