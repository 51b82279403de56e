import { describe, expect, it } from "vitest";
import type { IncomingMessage, JsonObject, ToolCall } from "../../../../src/memory/model.ts";
import { proxiedTurn } from "../../../../src/memory/sessions/chat-turn.ts";

describe("proxiedTurn", () => {
  const body = (messages: IncomingMessage[], extra: JsonObject = {}): JsonObject => ({ model: "m-1", messages, ...extra });
  const proxied = async (messages: IncomingMessage[], extra: { persist?: boolean; fields?: JsonObject } = {}) =>
    proxiedTurn({ body: body(messages, extra.fields), messages, persist: extra.persist });

  it("refuses a conversation that ends with neither a user message nor a tool result", async () => {
    expect(await proxied([])).toEqual({ refused: "messages must end with a user message or a tool result" });
    expect(
      await proxied([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    ).toEqual({
      refused: "messages must end with a user message or a tool result",
    });
    expect(await proxied([{ role: "system", content: "Be brief." }])).toHaveProperty("refused");
  });

  it("stores the pinned system prompt by content and only the last user message of the conversation", async () => {
    const turn = await proxied([
      { role: "system", content: "  Be brief.  " },
      { role: "user", content: "My name is Ada" },
      { role: "assistant", content: "Hello Ada" },
      { role: "user", content: "What is the weather like in Oslo today?" },
    ]);
    if ("refused" in turn) throw new Error(turn.refused);
    expect(turn.messages).toEqual([
      { role: "system", content: "Be brief.", id: expect.stringMatching(/^sys-[0-9a-f]+$/) },
      { role: "user", content: "What is the weather like in Oslo today?" },
    ]);
    expect(turn.query).toBe("What is the weather like in Oslo today?");
    // the same prompt, however padded, is the same pinned message
    const again = await proxied([
      { role: "system", content: "Be brief." },
      { role: "user", content: "x" },
    ]);
    if ("refused" in again) throw new Error(again.refused);
    expect(again.messages[0]!.id).toBe(turn.messages[0]!.id);
  });

  it("ends with the tool results and the tool-call exchanges right before them", async () => {
    const call: ToolCall = { id: "call_9", type: "function", function: { name: "weather", arguments: "{}" } };
    const turn = await proxied([
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", content: "", tool_calls: [call] },
      { role: "tool", content: "12C and rain", tool_call_id: "call_9" },
    ]);
    if ("refused" in turn) throw new Error(turn.refused);
    expect(turn.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);
    expect(turn.query).toBe("Weather in Oslo?");
    // ids come later (assignTurnIds), from the call ids
    expect(turn.messages[1]!.id).toBeUndefined();
  });

  it("keeps the last user message as a fact when the request or the message asks, and ignores marks elsewhere", async () => {
    const plain = await proxied([{ role: "user", content: "I like tea" }]);
    const asked = await proxied([{ role: "user", content: "I like tea" }], { persist: true });
    const marked = await proxied([{ role: "user", content: "I like tea", persist: true }]);
    const earlier = await proxied([
      { role: "user", content: "I like tea", persist: true },
      { role: "user", content: "and coffee" },
    ]);
    const last = (t: Awaited<ReturnType<typeof proxied>>) => ("refused" in t ? null : t.messages.at(-1));
    expect(last(plain)!.persist).toBeUndefined();
    expect(last(asked)!.persist).toBe(true);
    expect(last(marked)!.persist).toBe(true);
    expect(last(earlier)).toEqual({ role: "user", content: "and coffee" });
  });

  it("passes every field but messages and stream to the model, and names the request for retries", async () => {
    const messages: IncomingMessage[] = [{ role: "user", content: "hi" }];
    const turn = await proxied(messages, { fields: { stream: true, temperature: 0.3, tools: [] } });
    if ("refused" in turn) throw new Error(turn.refused);
    expect(turn.fields).toEqual({ model: "m-1", temperature: 0.3, tools: [] });
    const same = await proxied(messages, { fields: { stream: true, temperature: 0.3, tools: [] } });
    const persisted = await proxied(messages, { fields: { stream: true, temperature: 0.3, tools: [] }, persist: true });
    const other = await proxied(messages, { fields: { stream: true, temperature: 0.4, tools: [] } });
    const tag = (t: Awaited<ReturnType<typeof proxied>>) => ("refused" in t ? null : t.retryTag);
    expect(tag(same)).toBe(turn.retryTag);
    expect(tag(persisted)).not.toBe(turn.retryTag);
    expect(tag(other)).not.toBe(turn.retryTag);
  });

  it("searches a short follow-up together with the turns before it", async () => {
    const turn = await proxied([
      { role: "user", content: "Tell me about my sister Maria" },
      { role: "assistant", content: "Maria lives in Lisbon." },
      { role: "user", content: "and her birthday?" },
    ]);
    if ("refused" in turn) throw new Error(turn.refused);
    expect(turn.query).toContain("and her birthday?");
    expect(turn.query).toContain("Maria");
  });
});
