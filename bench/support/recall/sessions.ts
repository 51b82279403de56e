import type { SessionRef, SessionSnapshot } from "../../../src/memory/model.ts";
import { RedisSessionStore } from "../../../src/stores/session-store.ts";

/**
 * The session store of the recall bench: its sessions are never written, so each (empty) snapshot
 * is read from Redis once and then reused. `getContext` still runs its whole path; only the
 * repeated session round trip, which has nothing to do with recall, leaves the timing.
 */
export class ReadOnceSessionStore extends RedisSessionStore {
  readonly #snapshots = new Map<string, Promise<SessionSnapshot>>();

  override read(ref: SessionRef): Promise<SessionSnapshot> {
    const key = `${ref.tenant}\u0000${ref.sessionId}`;
    let snapshot = this.#snapshots.get(key);
    if (!snapshot) {
      snapshot = super.read(ref);
      this.#snapshots.set(key, snapshot);
    }
    return snapshot;
  }
}
