/** @module Creates a private ioredis-mock store with synchronous access to its raw command implementations. */
import { randomUUID } from "node:crypto";
import RedisMock, { type MockCommand, type MockExpiries, type MockKeyspace } from "ioredis-mock";
import type { EngineContext } from "./types.ts";

/** An ioredis-mock instance and synchronous access to its command implementations. */
export interface MockStore {
  readonly ctx: EngineContext;
  /**
   * Runs `work` with reads that share the stored values instead of copying them: for commands
   * that change nothing (ioredis-mock copies a whole list on every read, even `LLEN`).
   */
  sharingReads<T>(work: () => T): T;
  /** Runs ioredis-mock's own implementation of `name` with `this` bound to the instance. */
  call(name: string, args: string[]): unknown;
  has(name: string): boolean;
  dispose(): void;
}

/**
 * Creates a private ioredis-mock store.
 *
 * ioredis-mock keeps data per `host:port/db` in a module-wide map, so a random host keeps each
 * service's data apart. Its public methods return promises and apply ioredis' reply reshaping;
 * the engine needs synchronous, unshaped calls (scripts call commands from inside Lua), so the
 * raw implementations are captured from the Pipeline constructor, which hands each one to
 * `_createCommand`.
 */
export function createMockStore(): MockStore {
  const instance = new RedisMock({ host: `embedded-${randomUUID()}`, port: 6379, lazyConnect: true });
  const keyspace = new Keyspace(instance.expires);
  // its commands read `this.data`; ours replaces its keyspace, which copies on every read
  (instance as unknown as { data: MockKeyspace }).data = keyspace;
  const raw = new Map<string, MockCommand>();
  class Capture extends RedisMock.Pipeline {
    override _createCommand(name: string, implementation: MockCommand): unknown {
      raw.set(name, implementation);
      return () => this;
    }
  }
  new Capture(instance);

  return {
    ctx: { data: instance.data, expires: instance.expires },
    has: (name) => raw.has(name),
    sharingReads(work) {
      const before = keyspace.shareReads;
      keyspace.shareReads = true;
      try {
        return work();
      } finally {
        keyspace.shareReads = before;
      }
    },
    call(name, args) {
      const implementation = raw.get(name);
      if (implementation === undefined) throw new Error(`no mock implementation for ${name}`);
      return implementation.apply(instance, args);
    },
    dispose() {
      instance.data.clear();
      instance.disconnect();
    },
  };
}

/** A copy of a stored value, as ioredis-mock hands them out (its commands change what they get). */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice();
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof Set) return new Set(value);
  if (value instanceof Map) return new Map(value);
  if (typeof value === "object" && value !== null) return { ...value };
  return value;
}

/** ioredis-mock's keyspace (expired keys vanish when touched), whose reads may share values. */
class Keyspace implements MockKeyspace {
  readonly #raw = new Map<string, unknown>();
  readonly #expires: MockExpiries;
  /** Set around commands that change nothing: `get` then returns the stored value itself. */
  shareReads = false;

  constructor(expires: MockExpiries) {
    this.#expires = expires;
  }

  #expired(key: string): boolean {
    if (!this.#expires.has(key) || !this.#expires.isExpired(key)) return false;
    this.delete(key);
    return true;
  }

  get(key: string): unknown {
    if (this.#expired(key)) return undefined;
    const value = this.#raw.get(key);
    return this.shareReads ? value : copyOf(value);
  }

  /** Keeps `value` itself: a command writes back what its `get` handed it (a copy already). */
  set(key: string, value: unknown): void {
    this.#raw.set(key, value);
  }

  has(key: string): boolean {
    return !this.#expired(key) && this.#raw.has(key);
  }

  delete(key: string): void {
    if (this.#expires.has(key)) this.#expires.delete(key);
    this.#raw.delete(key);
  }

  keys(): string[] {
    return [...this.#raw.keys()].filter((key) => !(this.#expires.has(key) && this.#expires.isExpired(key)));
  }

  clear(): void {
    this.#raw.clear();
  }
}
