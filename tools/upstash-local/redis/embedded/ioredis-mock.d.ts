// The parts of ioredis-mock 8.x the embedded engine uses; the package ships no types.
declare module "ioredis-mock" {
  /** The key -> value store. `get` returns a copy; write changes back with `set`. */
  export interface MockKeyspace {
    get(key: string): unknown;
    set(key: string, value: unknown): void;
    has(key: string): boolean;
    delete(key: string): void;
    keys(): string[];
    clear(): void;
  }

  /** Absolute expiry times in epoch milliseconds. */
  export interface MockExpiries {
    get(key: string): number | undefined;
    set(key: string, at: number): void;
    has(key: string): boolean;
    delete(key: string): void;
    isExpired(key: string): boolean;
  }

  export interface MockOptions {
    host?: string;
    port?: number;
    db?: number;
    lazyConnect?: boolean;
  }

  export type MockCommand = (...args: string[]) => unknown;

  export class MockPipeline {
    constructor(redis: RedisMock);
    /** Called by the constructor once per built-in command with its raw implementation. */
    _createCommand(name: string, implementation: MockCommand): unknown;
  }

  class RedisMock {
    constructor(options?: MockOptions);
    readonly data: MockKeyspace;
    readonly expires: MockExpiries;
    disconnect(): void;
    static Pipeline: typeof MockPipeline;
  }

  export default RedisMock;
}
