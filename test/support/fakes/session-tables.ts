/**
 * The data of the in-memory session store (see ./sessions.ts): per-session state and the tenant,
 * user and owner indexes, with the lookups both the per-session and the per-user methods need.
 */
import type {
  SessionMeta,
  SessionRef,
  SessionSettings,
  SessionSnapshot,
  StoredMessage,
  Summary,
  TurnOutcome,
} from "../../../src/memory/model.ts";
import { orphanToolMessage } from "../../../src/memory/sessions/message-rules.ts";
import { clone, keyOf, sum, userKey } from "./shared.ts";

export interface SessionState {
  system: StoredMessage[];
  window: StoredMessage[];
  archive: StoredMessage[];
  summary: Summary | null;
  meta: SessionMeta | null;
  settings: SessionSettings;
  ids: Set<string>;
  notes: number;
  /** Turn outcomes by key, oldest first (a Map keeps insertion order). */
  turns: Map<string, TurnOutcome>;
  /** Call ids of the newest assistant tool call still open for results. */
  calls: string[];
  title: string | null;
  /** Retry tag of the last batch that stored something (see `AppendOptions.retryTag`). */
  tail?: string | undefined;
}

/** The tool-call ids a message makes (`a`) or answers (`t`), as the append script reads its kind. */
function callsOf(m: StoredMessage): { tag: "s" | "w" | "a" | "t"; ids: string[] } {
  if (m.role === "system") return { tag: "s", ids: [] };
  if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) return { tag: "a", ids: m.tool_calls.map((c) => c.id) };
  if (m.role === "tool" && m.tool_call_id !== undefined) return { tag: "t", ids: [m.tool_call_id] };
  return { tag: "w", ids: [] };
}

/**
 * The tool calls still open after a batch's new messages, as the append script pairs them;
 * throws on a tool result that answers no open call.
 */
export function openCalls(existing: SessionState | undefined, messages: readonly StoredMessage[]): string[] {
  let open = existing?.calls ?? [];
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (!seen.has(m.id) && !existing?.ids.has(m.id)) {
      const { tag, ids } = callsOf(m);
      if (tag === "a") open = ids;
      else if (tag === "t" && !open.includes(ids[0] ?? "")) throw orphanToolMessage(i, m.tool_call_id ?? "(none)");
      else if (tag === "w") open = [];
    }
    seen.add(m.id);
  });
  return open;
}

export class SessionTables {
  readonly sessions = new Map<string, SessionState>();
  readonly epochs = new Map<string, number>();
  /** Per tenant: session id -> last activity; per (tenant, user): the same; per tenant: session -> owner. */
  readonly tenantIndex = new Map<string, Map<string, number>>();
  readonly userIndex = new Map<string, Map<string, number>>();
  readonly owners = new Map<string, Map<string, string>>();

  map<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
    let map = maps.get(key);
    if (!map) maps.set(key, (map = new Map()));
    return map;
  }

  state(ref: SessionRef, create: boolean): SessionState | undefined {
    const key = keyOf(ref);
    let state = this.sessions.get(key);
    if (!state && create) {
      state = {
        system: [],
        window: [],
        archive: [],
        summary: null,
        meta: null,
        settings: {},
        ids: new Set(),
        notes: 0,
        turns: new Map(),
        calls: [],
        title: null,
      };
      this.sessions.set(key, state);
    }
    return state;
  }

  snapshot(state: SessionState | undefined): SessionSnapshot {
    if (!state) return { exists: false, system: [], window: [], windowTokens: 0, summary: null, meta: null, settings: {} };
    return clone({
      exists: state.meta !== null,
      system: state.system,
      window: state.window,
      windowTokens: sum(state.window),
      summary: state.summary,
      meta: state.meta,
      settings: state.settings,
    });
  }

  touch(ref: SessionRef, state: SessionState, now: number): void {
    state.meta ??= { createdAt: now, updatedAt: now, epoch: this.epochs.get(keyOf(ref)) ?? 0, summaryFailures: 0 };
    state.meta.updatedAt = now;
    this.map(this.tenantIndex, ref.tenant).set(ref.sessionId, now);
    const owner = state.meta.userId;
    if (owner !== undefined) this.map(this.userIndex, userKey(ref.tenant, owner)).set(ref.sessionId, now);
  }

  owned(tenant: string, userId: string, sessionId: string): SessionState | null {
    const state = this.state({ tenant, sessionId }, false);
    return state?.meta?.userId === userId ? state : null;
  }
}
