/** @module The errors the store adapters throw: owner mismatch, invalid id, input a store cannot keep, and a reply it cannot read. */
import { AgentMemoryError, MemoryError } from "../memory/errors.ts";

/** A write named a different user than the one that owns the session. Maps to 409. */
export class SessionOwnerMismatch extends MemoryError {
  constructor() {
    super("conflict", "session belongs to a different user");
    this.name = "SessionOwnerMismatch";
  }
}

/** An identifier that would become part of a key, namespace or filter failed validation. */
export class InvalidIdError extends MemoryError {
  readonly field: string;

  constructor(field: string) {
    super("invalid", `invalid ${field}`);
    this.name = "InvalidIdError";
    this.field = field;
  }
}

/** A value reached a store that it cannot store faithfully (e.g. a fractional token count). */
export class InvalidStoreInput extends MemoryError {
  constructor(message: string) {
    super("invalid", message);
    this.name = "InvalidStoreInput";
  }
}

/**
 * A script replied with something this adapter does not understand. Through a guarded adapter
 * (the Worker's wiring) it becomes the upstream's outage; on its own it is an internal error.
 */
export class UnexpectedReply extends AgentMemoryError {
  override readonly category = "unexpected_reply";

  constructor(what: string) {
    super(`unexpected reply from ${what}`);
    this.name = "UnexpectedReply";
  }
}
