/** @module Window selection: which recent messages the context shows, dropping old, orphaned and unimportant units first. */
import type { StoredMessage } from "../model.ts";
import { groupUnits, type MessageUnit } from "./message-units.ts";

export interface WindowSelection {
  /** Limit on the number of recent messages; 0 = unlimited. */
  limit: number;
  /** Tokens the window may use in the context. */
  allowance: number;
  /** Units whose most important message is below this go first. */
  importanceThreshold: number;
}

export interface SelectedWindow {
  /** Kept messages in chronological order. */
  messages: StoredMessage[];
  tokens: number;
  /** Messages of the window left out (count limit, orphaned tool results or budget). */
  omitted: number;
}

/**
 * Chooses which window messages a context shows. Out first: anything older than the `limit`
 * newest messages, then tool results whose call is not shown, then, while over the allowance,
 * units below the importance threshold (oldest first), then the oldest other units. The newest
 * unit goes last, only when it cannot fit on its own. Tool calls and their results move as one.
 */
export function selectWindow(window: readonly StoredMessage[], selection: WindowSelection): SelectedWindow {
  const recent = selection.limit > 0 && window.length > selection.limit ? window.slice(-selection.limit) : window;
  const units = groupUnits(recent).filter((u) => !u.orphan);
  let tokens = units.reduce((sum, u) => sum + u.tokens, 0);

  const dropped = new Set<MessageUnit>();
  if (tokens > selection.allowance && units.length > 0) {
    const newest = units[units.length - 1]!;
    const older = units.slice(0, -1);
    const order = [
      ...older.filter((u) => u.importance < selection.importanceThreshold),
      ...older.filter((u) => u.importance >= selection.importanceThreshold),
      newest,
    ];
    for (const unit of order) {
      if (tokens <= selection.allowance) break;
      dropped.add(unit);
      tokens -= unit.tokens;
    }
  }

  const messages: StoredMessage[] = [];
  for (const unit of units) {
    if (!dropped.has(unit)) messages.push(...recent.slice(unit.start, unit.end));
  }
  return { messages, tokens, omitted: window.length - messages.length };
}
