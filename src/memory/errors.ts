/**
 * Base class of errors the domain raises on purpose (as opposed to upstream failures). The HTTP
 * layer maps `kind` to a status; everything else thrown by a store counts as an upstream failure.
 */
export class MemoryError extends Error {
  readonly kind: "conflict" | "not_found" | "invalid";

  constructor(kind: MemoryError["kind"], message: string) {
    super(message);
    this.name = "MemoryError";
    this.kind = kind;
  }
}
