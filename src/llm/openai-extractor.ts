/** @module The FactExtractor adapter that asks an OpenAI-compatible model for fact operations and validates its JSON answer. */
import OpenAI from "openai";
import { z } from "zod";
import type { FactExtractor, FactOperation } from "../memory/ports/index.ts";
import { FACT_TYPES, type Fact, type FactType, type StoredMessage } from "../memory/model.ts";
import { toLlmError } from "./errors.ts";
import { LlmError } from "../memory/errors.ts";
import {
  EXTRACTION_PROMPT_VERSION,
  EXTRACTION_SCHEMA,
  PLAIN_JSON_HINT,
  buildExtractionMessages,
  memoryAlias,
} from "./extraction-prompt.ts";
import { toOpenAIMessages } from "./messages.ts";

export interface OpenAIFactExtractorOptions {
  /** Chat model that extracts the facts. */
  model: string;
  /** Sampling temperature. Default 0: extraction should be repeatable. */
  temperature?: number | undefined;
  /** `max_tokens` of the JSON answer. Default 1000. */
  maxTokens?: number | undefined;
  /** More operations than this in one answer is treated as bad output. Default 50. */
  maxOperations?: number | undefined;
  /** Longest accepted fact text, in characters. Default 1000. */
  maxTextChars?: number | undefined;
}

/**
 * How the answer is asked to be JSON, best first: a JSON schema (structured output), JSON mode, or
 * the instructions alone, for OpenAI-compatible servers that refuse `response_format`.
 */
export type JsonMode = "json_schema" | "json_object" | "plain";

const factType: z.ZodType<FactType> = z.enum(FACT_TYPES as readonly FactType[] as [FactType, ...FactType[]]);

function operationsSchema(maxOperations: number, maxTextChars: number) {
  const text = z.string().trim().min(1).max(maxTextChars);
  const importance = z.number().min(0).max(1);
  // `memory` names a stored memory by alias; `id` is accepted as its older name.
  const ref = { memory: z.string().max(64).optional(), id: z.string().max(64).optional() };
  const op = z.discriminatedUnion("op", [
    z.object({ op: z.literal("add"), text, type: factType, importance, ...ref }),
    z.object({ op: z.literal("update"), text, type: factType, importance, ...ref }),
    z.object({ op: z.literal("supersede"), text, type: factType, importance, ...ref }),
    // Nothing changes, so the other fields may be anything (a strict schema makes the model fill them).
    z.object({ op: z.literal("none"), text: z.string().max(maxTextChars).optional() }),
    z.object({ op: z.literal("skip"), text: z.string().max(maxTextChars).optional() }),
  ]);
  return z.object({ operations: z.array(op).max(maxOperations) });
}

/** Providers that ignore `response_format` tend to wrap JSON in a Markdown fence. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return m?.[1] ?? text;
}

/** A 400 that names `response_format` (or `json_schema`): the server does not support that form. */
function refusesFormat(err: unknown): boolean {
  if (!(err instanceof OpenAI.APIError) || err.status !== 400) return false;
  return /response_format|json_schema|json_object|structured/i.test(`${err.message} ${err.param ?? ""} ${err.code ?? ""}`);
}

const NEXT_MODE: Record<JsonMode, JsonMode | null> = { json_schema: "json_object", json_object: "plain", plain: null };

/**
 * Learns facts with an LLM: one call per turn (see `extraction-prompt.ts` for why one) that
 * returns validated operations. Structured output first; a server that refuses `response_format`
 * is asked again in JSON mode, then with instructions alone, and the form that worked is kept for
 * later calls. An answer that is not valid is asked for once more; a second bad answer throws
 * `LlmError("bad_output")` and nothing of it is applied - an answer is taken whole or not at all.
 */
export class OpenAIFactExtractor implements FactExtractor {
  readonly version = EXTRACTION_PROMPT_VERSION;
  readonly #client: OpenAI;
  readonly #options: OpenAIFactExtractorOptions;
  #mode: JsonMode = "json_schema";

  constructor(client: OpenAI, options: OpenAIFactExtractorOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** The JSON form the next call uses (the best one the server accepted so far). */
  get jsonMode(): JsonMode {
    return this.#mode;
  }

  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    try {
      return parseOperations(await this.#ask(request), request.existing, this.#options);
    } catch (err) {
      if (!(err instanceof LlmError) || err.kind !== "bad_output") throw err;
      // One more try: a sampled answer that missed the schema often fits the second time.
      return parseOperations(await this.#ask(request), request.existing, this.#options);
    }
  }

  async #ask(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<string> {
    const base = buildExtractionMessages(request.messages, request.existing);
    for (;;) {
      const mode = this.#mode;
      const messages = mode === "plain" ? [...base, { role: "system" as const, content: PLAIN_JSON_HINT }] : base;
      const format =
        mode === "json_schema"
          ? {
              response_format: {
                type: "json_schema" as const,
                json_schema: EXTRACTION_SCHEMA as unknown as OpenAI.ResponseFormatJSONSchema["json_schema"],
              },
            }
          : mode === "json_object"
            ? { response_format: { type: "json_object" as const } }
            : {};
      let response: OpenAI.Chat.Completions.ChatCompletion;
      try {
        response = await this.#client.chat.completions.create({
          model: this.#options.model,
          messages: toOpenAIMessages(messages),
          ...format,
          temperature: this.#options.temperature ?? 0,
          max_tokens: this.#options.maxTokens ?? 1000,
        });
      } catch (err) {
        // Read before mapping: only the SDK's error still carries the server's message.
        const next = NEXT_MODE[mode];
        if (next === null || !refusesFormat(err)) throw toLlmError(err);
        this.#mode = next;
        continue;
      }
      const content = Array.isArray(response?.choices) ? response.choices[0]?.message?.content : undefined;
      if (typeof content !== "string" || content.trim() === "") throw new LlmError("bad_output", "LLM returned an empty answer");
      return content;
    }
  }
}

/**
 * Validates an extraction answer against the memories that were offered (shown as `m1`, `m2`, ...
 * in `existing`'s order; their real ids are accepted too). Throws `LlmError("bad_output")` for
 * anything malformed: not JSON, an operation that does not fit, an update or supersede of a
 * memory that was not offered - the whole answer is refused, never half of it. Two changes of one
 * memory: the later one wins, in the earlier one's place.
 */
export function parseOperations(
  content: string,
  existing: readonly Fact[],
  limits: { maxOperations?: number | undefined; maxTextChars?: number | undefined } = {},
): FactOperation[] {
  let json: unknown;
  try {
    json = JSON.parse(stripFence(content));
  } catch {
    throw new LlmError("bad_output", "LLM extraction answer is not JSON");
  }
  const parsed = operationsSchema(limits.maxOperations ?? 50, limits.maxTextChars ?? 1000).safeParse(json);
  if (!parsed.success) throw new LlmError("bad_output", "LLM extraction answer does not match the operation schema");
  const byRef = new Map<string, string>();
  existing.forEach((f, i) => {
    byRef.set(memoryAlias(i), f.id);
    byRef.set(f.id, f.id);
  });
  const result: FactOperation[] = [];
  const changeAt = new Map<string, number>();
  for (const op of parsed.data.operations) {
    if (op.op === "none" || op.op === "skip") {
      result.push({ op: "skip", text: op.text ?? "" });
      continue;
    }
    const ref = (op.memory || op.id || "").trim();
    if (op.op === "add") {
      result.push({ op: "add", text: op.text, type: op.type, importance: op.importance });
      continue;
    }
    const id = byRef.get(ref);
    if (id === undefined) throw new LlmError("bad_output", `LLM extraction answer ${op.op}s a memory that was not offered`);
    const change: FactOperation = { op: op.op, id, text: op.text, type: op.type, importance: op.importance };
    const at = changeAt.get(id);
    if (at === undefined) {
      changeAt.set(id, result.length);
      result.push(change);
    } else {
      result[at] = change;
    }
  }
  return result;
}
