/** @module Embeds texts through an OpenAI-compatible embeddings endpoint in batches, checking the vectors that come back. */
import type OpenAI from "openai";
import { toLlmError } from "./errors.ts";
import { LlmError } from "../memory/errors.ts";

/** OpenAI accepts at most this many inputs per embeddings request. */
export const MAX_EMBEDDING_BATCH = 2048;

/**
 * Embeds texts with an OpenAI-compatible embeddings endpoint, one vector per text, in input order.
 * Batches of at most {@link MAX_EMBEDDING_BATCH} run one after another (parallel batches would
 * multiply the rate-limit pressure for no gain inside one Worker request).
 *
 * @param dimensions Shortens the vectors (text-embedding-3 models only). Default: the model's size.
 * @throws LlmError `bad_output` when the answer has the wrong number or shape of vectors.
 */
export async function embedTexts(client: OpenAI, model: string, texts: readonly string[], dimensions?: number): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += MAX_EMBEDDING_BATCH) {
    const batch = texts.slice(start, start + MAX_EMBEDDING_BATCH);
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create({
        model,
        input: batch,
        // Explicit floats: the SDK's default (base64) is not understood by every compatible server.
        encoding_format: "float",
        ...(dimensions !== undefined ? { dimensions } : {}),
      });
    } catch (err) {
      throw toLlmError(err);
    }
    const data = Array.isArray(response?.data) ? response.data : [];
    if (data.length !== batch.length) throw new LlmError("bad_output", "embeddings answer has the wrong number of vectors");
    const ordered = new Array<number[] | undefined>(batch.length);
    for (const item of data) {
      const ok = Number.isInteger(item.index) && item.index >= 0 && item.index < batch.length && Array.isArray(item.embedding);
      if (!ok || ordered[item.index]) throw new LlmError("bad_output", "embeddings answer is malformed");
      ordered[item.index] = item.embedding;
    }
    const size = ordered[0]?.length ?? 0;
    for (const vector of ordered) {
      if (!vector || vector.length === 0 || vector.length !== size || (dimensions !== undefined && size !== dimensions)) {
        throw new LlmError("bad_output", "embeddings answer has vectors of the wrong size");
      }
      vectors.push(vector);
    }
  }
  return vectors;
}
