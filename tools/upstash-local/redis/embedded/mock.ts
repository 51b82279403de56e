import { randomUUID } from "node:crypto";
import RedisMock, { type MockCommand } from "ioredis-mock";
import type { EngineContext } from "./types.ts";

/** An ioredis-mock instance and synchronous access to its command implementations. */
export interface MockStore {
  readonly ctx: EngineContext;
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
