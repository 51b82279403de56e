/** @module When a message was written: a client's own `ts` checked against the clock and its batch, the server's time otherwise. */
import { MemoryError } from "../errors.ts";
import type { IncomingMessage } from "../model.ts";

/**
 * How far ahead of the server clock a client's `ts` may be: a client clock running a little fast
 * is not an error. Such a `ts` is stored as the server's time, so no stored message is ever newer
 * than the moment it was stored and a later message without `ts` never goes before it.
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The time each message of a batch is stored with: its own `ts` when it carries one (an import,
 * a client that queued messages offline), else the server's `now`. Checked before anything is
 * stored: a `ts` is a non-negative integer of milliseconds, at most {@link MAX_CLOCK_SKEW_MS}
 * ahead of `now`, and the batch goes oldest first (a message without `ts` counts as `now`, so it
 * can follow dated messages but not precede them). That no dated message goes before the
 * session's newest stored one is checked by the store, in the same atomic step as the append.
 */
export function messageTimes(messages: readonly IncomingMessage[], now: number): number[] {
  let previous = Number.NEGATIVE_INFINITY;
  return messages.map((m, i) => {
    const given = m.ts;
    if (given !== undefined) {
      if (!Number.isSafeInteger(given) || given < 0)
        throw new MemoryError("invalid", `messages.${i}.ts must be a non-negative integer (milliseconds since the epoch)`);
      if (given > now + MAX_CLOCK_SKEW_MS)
        throw new MemoryError(
          "invalid",
          `messages.${i}.ts (${iso(given)}) is in the future: at most ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of the server clock (${iso(now)}) is accepted`,
        );
    }
    const ts = given === undefined ? now : Math.min(given, now);
    if (ts < previous) {
      const before =
        messages[i - 1]?.ts === undefined ? `messages.${i - 1}, which has no ts and takes the server time` : `messages.${i - 1}.ts`;
      throw new MemoryError("invalid", `messages.${i}.ts (${iso(ts)}) is before ${before}: a batch goes oldest first`);
    }
    previous = ts;
    return ts;
  });
}

/** Per message, whether the client gave its time; undefined when none did (nothing for the store to check). */
export function datedMessages(messages: readonly IncomingMessage[]): boolean[] | undefined {
  return messages.some((m) => m.ts !== undefined) ? messages.map((m) => m.ts !== undefined) : undefined;
}

/** Why a dated message cannot be stored: the session already holds a newer one. */
export function tsBeforePrevious(index: number, ts: number | undefined, previous: number): MemoryError {
  const given = ts === undefined ? "" : ` (${iso(ts)})`;
  return new MemoryError("invalid", `messages.${index}.ts${given} is before the session's newest message (${iso(previous)})`);
}
