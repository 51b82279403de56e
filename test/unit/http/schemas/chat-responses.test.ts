import { describe, expect, it } from "vitest";
import { ChatCompletionSchema } from "../../../../src/http/schemas/chat-responses.ts";

// The proxy answers the upstream's completion as it sent it once it parses as a chat.completion:
// the schema must keep every field an upstream adds, at every level, or pass-through would lose them.

describe("the chat.completion schema of the proxy", () => {
  it("keeps every field an upstream adds, at every level", () => {
    const body = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1764590400,
      model: "deepseek-chat",
      system_fingerprint: "fp_1",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            reasoning_content: "thinking...",
            tool_calls: [{ id: "call_1", type: "function", index: 0, function: { name: "lookup", arguments: "{}", strict: true } }],
          },
          finish_reason: "tool_calls",
          logprobs: null,
          stop_reason: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } },
    };
    expect(ChatCompletionSchema.parse(body)).toEqual(body);
  });

  it("refuses what is not a chat.completion", () => {
    expect(ChatCompletionSchema.safeParse({ object: "list", data: [] }).success).toBe(false);
    expect(
      ChatCompletionSchema.safeParse({ id: "x", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0 }] }).success,
    ).toBe(false);
  });
});
