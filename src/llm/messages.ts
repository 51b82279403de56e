/** @module Converts the domain chat messages to the OpenAI SDK message params, and the SDK usage block to the domain usage. */
import type OpenAI from "openai";
import type { ChatMessage, ChatUsage } from "../memory/ports/index.ts";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** OpenAI rejects names outside this pattern with a 400; an invalid name is dropped instead. */
const NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Converts domain chat messages to the SDK's message params. */
export function toOpenAIMessages(messages: readonly ChatMessage[]): MessageParam[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every role and returns from each
  return messages.map((m): MessageParam => {
    const name = m.name && NAME_RE.test(m.name) ? { name: m.name } : {};
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content, ...name };
      case "user":
        return { role: "user", content: m.content, ...name };
      case "assistant":
        return m.tool_calls && m.tool_calls.length > 0
          ? { role: "assistant", content: m.content || null, tool_calls: m.tool_calls, ...name }
          : { role: "assistant", content: m.content, ...name };
      case "tool":
        // A tool result without its call id would be a 400; keep its text as a plain note instead.
        return m.tool_call_id
          ? { role: "tool", content: m.content, tool_call_id: m.tool_call_id }
          : { role: "user", content: `[tool result] ${m.content}` };
    }
  });
}

/** Maps the SDK's usage block (absent on some compatible providers). */
export function toUsage(usage: OpenAI.Completions.CompletionUsage | null | undefined): ChatUsage | null {
  if (!usage) return null;
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
  };
}
