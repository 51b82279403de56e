/** Helpers shared by the in-memory fakes of the domain ports. */
import type { SessionRef, StoredMessage } from "../../../src/memory/model.ts";

/** Copies in and out, so a test cannot change stored data through a reference. */
export const clone = <T>(value: T): T => structuredClone(value);
export const keyOf = (ref: SessionRef) => `${ref.tenant}\u0000${ref.sessionId}`;
export const userKey = (tenant: string, userId: string) => `${tenant}\u0000${userId}`;
export const sum = (messages: readonly StoredMessage[]) => messages.reduce((n, m) => n + m.tokens, 0);

/** The error each method throws on its next call (see the fakes' `failNext`). */
export type Failures<M extends string> = Partial<Record<M, unknown>>;

/** Ids of a sorted-by-activity index, newest first. */
export const newestFirst = (index: Map<string, number>): string[] => [...index.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
