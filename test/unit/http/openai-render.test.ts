import { describe, expect, it } from "vitest";
import { chunksFromOutcome, completionFromOutcome } from "../../../src/http/openai-render.ts";
import { ChatCompletionSchema } from "../../../src/http/schemas/chat-responses.ts";
import type { TurnOutcome } from "../../../src/memory/model.ts";

const call = { id: "call_1", type: "function" as const, function: { name: "lookup", arguments: '{"q":"x"}' } };
const text: TurnOutcome = { id: "r-1_2", content: "Hello Ada", finishReason: "stop", model: "gpt-x" };
const calling: TurnOutcome = { id: "r2", content: "", tool_calls: [call], finishReason: null, model: "" };

/** The JSON of each `data:` event of a stream, in order. */
const events = (stream: string): Record<string, unknown>[] => {
  expect(stream.endsWith("\n\n")).toBe(true);
  return stream
    .trimEnd()
    .split("\n\n")
    .map((line) => {
      expect(line.startsWith("data: ")).toBe(true);
      return JSON.parse(line.slice("data: ".length)) as Record<string, unknown>;
    });
};

describe("a recorded reply in OpenAI's shape", () => {
  it("a text reply is a valid chat.completion with its content and recorded finish", () => {
    const completion = completionFromOutcome(text, "fallback-model");
    expect(ChatCompletionSchema.safeParse(completion).success).toBe(true);
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: "Hello Ada", refusal: null });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.model).toBe("gpt-x");
    expect(completion).not.toHaveProperty("usage");
  });

  it("an id made of the reply's letters and digits only", () => {
    expect(completionFromOutcome(text, "m").id).toBe("chatcmpl-r12");
    expect(completionFromOutcome({ ...text, id: "x".repeat(60) }, "m").id).toBe(`chatcmpl-${"x".repeat(40)}`);
  });

  it("tool calls: content null beside them, finish tool_calls when none was recorded, the request's model when none was", () => {
    const completion = completionFromOutcome(calling, "asked-model");
    expect(ChatCompletionSchema.safeParse(completion).success).toBe(true);
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: null, tool_calls: [call], refusal: null });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(completion.model).toBe("asked-model");
  });

  it("no finish recorded and no tool calls: stop", () => {
    expect(completionFromOutcome({ ...text, finishReason: null }, "m").choices[0]?.finish_reason).toBe("stop");
  });

  it("a text reply streams as the text, then the finish", () => {
    const [first, last, ...rest] = events(chunksFromOutcome(text, "m"));
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      object: "chat.completion.chunk",
      choices: [{ delta: { role: "assistant", content: "Hello Ada" }, finish_reason: null }],
    });
    expect(last).toMatchObject({ choices: [{ delta: {}, finish_reason: "stop" }] });
    expect(first?.id).toBe(last?.id);
  });

  it("a tool-calling reply streams its calls, each with its index, between the text and the finish", () => {
    const stream = events(chunksFromOutcome({ ...calling, tool_calls: [call, { ...call, id: "call_2" }] }, "m"));
    expect(stream).toHaveLength(3);
    expect(stream[1]).toMatchObject({
      choices: [
        {
          delta: {
            tool_calls: [
              { index: 0, id: "call_1" },
              { index: 1, id: "call_2" },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    expect(stream[2]).toMatchObject({ choices: [{ finish_reason: "tool_calls" }] });
  });
});
