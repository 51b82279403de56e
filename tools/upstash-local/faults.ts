/** How an injected fault shows to the client. */
export type FaultMode = "error" | "drop" | "hang";

export interface FaultSpec {
  mode: FaultMode;
  /** The fault lasts this long, then the emulator recovers. Default: until cleared or `count` runs out. */
  durationMs?: number | undefined;
  /** Fail only this many requests, then recover. Default: unlimited within `durationMs`. */
  count?: number | undefined;
}

/** Decides, request by request, whether an injected fault applies. */
export class FaultInjector {
  #spec: FaultSpec | null = null;
  #until = Infinity;
  #left = Infinity;

  set(spec: FaultSpec): void {
    this.#spec = spec;
    this.#until = spec.durationMs === undefined ? Infinity : Date.now() + spec.durationMs;
    this.#left = spec.count ?? Infinity;
  }

  clear(): void {
    this.#spec = null;
  }

  /** The fault to apply to the current request, if any (consumes one from `count`). */
  take(): FaultMode | null {
    if (!this.#spec) return null;
    if (Date.now() > this.#until || this.#left <= 0) {
      this.#spec = null;
      return null;
    }
    this.#left -= 1;
    return this.#spec.mode;
  }
}
