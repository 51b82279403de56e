import { describe, expect, it } from "vitest";
import { chunksFromOutcome, completionFromOutcome } from "../../../src/http/openai-render.ts";
import { CompletionBody, proxiedRequest } from "../../../src/http/openai-shapes.ts";
import { proxiedTurn } from "../../../src/memory/sessions/chat-turn.ts";
import { issueProblem } from "../../../src/http/router.ts";

const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
const proxied = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  proxiedTurn(proxiedRequest(CompletionBody.parse({ model: "m", messages, ...extra })));
const turn = async (messages: unknown[], extra: Record<string, unknown> = {}) => {
  const t = await proxied(messages, extra);
  if ("refused" in t) throw new Error(t.refused);
  return t;
};
const roles = (t: Awaited<ReturnType<typeof turn>>) => t.messages.map((m) => `${m.role}:${m.content}`);

describe("what a proxied request adds to memory", () => {
  it("the system prompt, pinned by content, and the last user message; earlier messages are memory's already", async () => {
    const t = await turn([
      { role: "system", content: "be brief" },
      { role: "user", content: "first" },
      { role: "assistant", content: "ok" },
      { role: "user", content: [{ type: "text", text: "second" }] },
    ]);
    expect(roles(t)).toEqual(["system:be brief", "user:second"]);
    expect(t.messages[0]?.id).toMatch(/^sys-[0-9a-f]{24}$/);
    expect(t.messages[1]?.id).toBeUndefined(); // the turn names it: by the idempotency key, or fresh
    expect(t.query).toBe("second");
  });

  it("a request ending in tool results adds the tool-call exchanges since the last user message", async () => {
    const t = await turn([
      { role: "developer", content: "agent" },
      { role: "user", content: "plan" },
      { role: "assistant", content: null, tool_calls: [call("c1")] },
      { role: "tool", tool_call_id: "c1", content: "r1" },
      { role: "assistant", content: null, tool_calls: [call("c2")] },
      { role: "tool", tool_call_id: "c2", content: "r2" },
    ]);
    expect(roles(t)).toEqual(["system:agent", "assistant:", "tool:r1", "assistant:", "tool:r2"]);
    expect(t.query).toBe("plan");
  });

  it("a user message after tool results keeps the exchange before it (so no call is left without its result)", async () => {
    const t = await turn([
      { role: "user", content: "weather?" },
      { role: "assistant", content: null, tool_calls: [call("c1")] },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "user", content: "thanks" },
    ]);
    expect(roles(t)).toEqual(["assistant:", "tool:sunny", "user:thanks"]);
  });

  it("passes every field but messages and stream on", async () => {
    const t = await turn([{ role: "user", content: "hi" }], {
      stream: true,
      tools: [{ type: "function", function: { name: "f" } }],
      seed: 3,
      stream_options: { include_usage: true },
    });
    expect(t.fields).toEqual({
      model: "m",
      tools: [{ type: "function", function: { name: "f" } }],
      seed: 3,
      stream_options: { include_usage: true },
    });
  });

  it("refuses a conversation ending with an assistant or system message", async () => {
    const refused = { refused: "messages must end with a user message or a tool result" };
    expect(
      await proxied([
        { role: "user", content: "hi" },
        { role: "assistant", content: "yo" },
      ]),
    ).toEqual(refused);
    expect(await proxied([{ role: "system", content: "sys" }])).toEqual(refused);
  });
});

describe("answers from storage in OpenAI's shape", () => {
  const reply = {
    id: "k-1.reply",
    content: "",
    tool_calls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }],
    finishReason: "tool_calls",
    model: "m",
  };

  it("a completion with content null beside the recorded tool calls", () => {
    expect(completionFromOutcome(reply, "m")).toMatchObject({
      object: "chat.completion",
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: reply.tool_calls }, finish_reason: "tool_calls" }],
    });
  });

  it("chunks: role and text, the tool calls by index, the finish", () => {
    const events = chunksFromOutcome(reply, "m")
      .split("\n\n")
      .filter(Boolean)
      .map((e) => JSON.parse(e.replace(/^data: /, "")) as { choices: { delta: unknown; finish_reason: string | null }[] });
    expect(events.map((e) => [e.choices[0]?.delta, e.choices[0]?.finish_reason])).toEqual([
      [{ role: "assistant", content: "" }, null],
      [{ tool_calls: [{ index: 0, ...reply.tool_calls[0] }] }, null],
      [{}, "tool_calls"],
    ]);
  });
});

describe("schema error texts", () => {
  it("names the bound", () => {
    const base = { path: [] as PropertyKey[], message: "Too small" };
    expect(issueProblem({ ...base, code: "too_small", origin: "number", minimum: 50, inclusive: true })).toBe("must be >= 50");
    expect(issueProblem({ ...base, code: "too_small", origin: "number", minimum: 0, inclusive: false })).toBe("must be > 0");
    expect(issueProblem({ ...base, code: "too_big", origin: "string", maximum: 64, inclusive: true, message: "Too big" })).toBe(
      "must be at most 64 characters",
    );
    expect(issueProblem({ ...base, code: "too_small", origin: "array", minimum: 1, inclusive: true })).toBe("must have at least 1 item");
    expect(issueProblem({ ...base, code: "custom", message: "only assistant messages carry tool_calls" })).toBe(
      "only assistant messages carry tool_calls",
    );
  });
});
