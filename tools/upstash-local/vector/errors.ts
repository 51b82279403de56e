/**
 * An error that becomes an Upstash-style response: `{"error": message, "status": status}` with the
 * same HTTP status. Anything else thrown by an endpoint is a bug and is answered with 500.
 */
export class VectorApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "VectorApiError";
    this.status = status;
  }
}

/** 400: the request is malformed or breaks a limit. */
export const badRequest = (message: string): VectorApiError => new VectorApiError(400, message);

/** 422: well-formed, but this index cannot do it (dimension mismatch, no embedding model, a part the index kind lacks). */
export const unprocessable = (message: string): VectorApiError => new VectorApiError(422, message);

/** 404: an unknown namespace, resumable query or endpoint. */
export const notFound = (message: string): VectorApiError => new VectorApiError(404, message);

/** The exact text Upstash returns when `data` is sent to an index without an embedding model. */
export const EMBEDDING_NOT_ALLOWED =
  "Embedding data for this index is not allowed. The index must be created with an embedding model to use it.";

/** A dense index has no sparse part. */
export const SPARSE_NOT_SUPPORTED = "This index does not support sparse vectors. The index type is DENSE; sparseVector cannot be used.";

/** A sparse index has no dense part. */
export const DENSE_NOT_SUPPORTED = "This index does not support dense vectors. The index type is SPARSE; vector cannot be used.";
