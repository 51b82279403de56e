/** @module One non-streaming chat completion that must return non-empty text, with every failure turned into an LlmError. */
import type OpenAI from "openai";
import type { ChatUsage } from "../memory/ports/index.ts";
import { toLlmError } from "./errors.ts";
import { LlmError } from "../memory/errors.ts";
import { toUsage } from "./messages.ts";

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

export interface CompletionText {
  content: string;
  model: string;
  usage: ChatUsage | null;
  finishReason: string | null;
}

/**
 * One non-streaming chat completion whose text must not be empty. Every failure, including an
 * empty or missing answer, comes out as an {@link LlmError}.
 */
export async function completeText(client: OpenAI, params: CreateParams, signal?: AbortSignal): Promise<CompletionText> {
  let response: OpenAI.Chat.Completions.ChatCompletion;
  try {
    response = await client.chat.completions.create(params, signal ? { signal } : undefined);
  } catch (err) {
    throw toLlmError(err, signal?.aborted ?? false);
  }
  // Compatible providers sometimes answer 200 with a body that is not a completion at all.
  const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== "string" || content.trim() === "") {
    throw new LlmError("bad_output", "LLM returned an empty answer");
  }
  return {
    content,
    model: typeof response.model === "string" ? response.model : params.model,
    usage: toUsage(response.usage),
    finishReason: choice?.finish_reason ?? null,
  };
}
