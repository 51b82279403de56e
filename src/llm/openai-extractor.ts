import type OpenAI from "openai";
import { z } from "zod";
import type { FactExtractor, FactOperation } from "../memory/ports.ts";
import { FACT_TYPES, type Fact, type FactType, type StoredMessage } from "../memory/types.ts";
import { completeText } from "./complete.ts";
import { LlmError } from "./errors.ts";
import { buildExtractionMessages } from "./extraction-prompt.ts";
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

const factType: z.ZodType<FactType> = z.enum(FACT_TYPES as readonly FactType[] as [FactType, ...FactType[]]);

function operationsSchema(maxOperations: number, maxTextChars: number) {
  const text = z.string().trim().min(1).max(maxTextChars);
  const importance = z.number().min(0).max(1);
  const op = z.discriminatedUnion("op", [
    z.object({ op: z.literal("add"), text, type: factType, importance }),
    z.object({ op: z.literal("update"), id: z.string().min(1), text, type: factType, importance }),
    // A skip changes nothing, so its text is optional rather than a reason to reject the answer.
    z.object({ op: z.literal("skip"), text: z.string().max(maxTextChars).optional() }),
  ]);
  return z.object({ operations: z.array(op).max(maxOperations) });
}

/** Providers that ignore `response_format` tend to wrap JSON in a Markdown fence. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return m?.[1] ?? text;
}

/**
 * Extracts fact operations with an LLM in JSON mode. The answer is validated strictly. Any
 * malformed operation, or an update of an id that was not offered, rejects the whole answer
 * with `LlmError("bad_output")`, so a confused model never writes half a result.
 */
export class OpenAIFactExtractor implements FactExtractor {
  readonly #client: OpenAI;
  readonly #options: OpenAIFactExtractorOptions;

  constructor(client: OpenAI, options: OpenAIFactExtractorOptions) {
    this.#client = client;
    this.#options = options;
  }

  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    const { content } = await completeText(this.#client, {
      model: this.#options.model,
      messages: toOpenAIMessages(buildExtractionMessages(request.messages, request.existing)),
      response_format: { type: "json_object" },
      temperature: this.#options.temperature ?? 0,
      max_tokens: this.#options.maxTokens ?? 1000,
    });
    return parseOperations(content, request.existing, this.#options);
  }
}

/** Validates an extraction answer; exported for tests and for other JSON-capable callers. */
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
  const known = new Set(existing.map((f) => f.id));
  const result: FactOperation[] = [];
  const updateAt = new Map<string, number>();
  for (const op of parsed.data.operations) {
    if (op.op === "skip") {
      result.push({ op: "skip", text: op.text ?? "" });
    } else if (op.op === "add") {
      result.push({ op: "add", text: op.text, type: op.type, importance: op.importance });
    } else {
      if (!known.has(op.id)) throw new LlmError("bad_output", "LLM extraction answer updates an unknown fact id");
      const update: FactOperation = { op: "update", id: op.id, text: op.text, type: op.type, importance: op.importance };
      // Two updates of one fact: the later one wins, in the earlier one's place.
      const at = updateAt.get(op.id);
      if (at === undefined) {
        updateAt.set(op.id, result.length);
        result.push(update);
      } else {
        result[at] = update;
      }
    }
  }
  return result;
}
