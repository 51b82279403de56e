import { describe, expect, it } from "vitest";
import {
  AppendBodySchema,
  ContentSchema,
  MessageInputSchema,
  ProxyMessageSchema,
  toIncoming,
  toIncomingNative,
} from "../../../../src/http/schemas/messages.ts";

const call = { id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } };

/** The messages of a failed parse, by path. */
function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  expect(result.success).toBe(false);
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
}

describe("message schemas", () => {
  it("content: a string, null, or text parts joined by newlines", () => {
    expect(ContentSchema.parse("hi")).toBe("hi");
    expect(ContentSchema.parse(null)).toBeNull();
    expect(
      ContentSchema.parse([
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ]),
    ).toBe("one\ntwo");
  });

  it("content: every part that is not text is refused with its index and kind", () => {
    const result = ContentSchema.safeParse([
      { type: "text", text: "ok" },
      { type: "image_url", image_url: { url: "x" } },
      { type: "file" },
    ]);
    const byPath = issues(result);
    expect(byPath["1"]).toMatch(/got a "image_url" part/);
    expect(byPath["2"]).toMatch(/got a "file" part/);
    expect(Object.keys(byPath)).not.toContain("0");
    // a part without a type is not a content part at all
    expect(ContentSchema.safeParse([{ text: "x" }]).error?.issues[0]?.message).toBe("must be a string, an array of text parts or null");
    expect(ContentSchema.safeParse(5).success).toBe(false);
  });

  it("a message needs non-empty content unless it is an assistant's tool calls", () => {
    expect(issues(MessageInputSchema.safeParse({ role: "user", content: "  " })).content).toBe("must not be empty");
    expect(issues(MessageInputSchema.safeParse({ role: "user" })).content).toBe("is required");
    expect(issues(MessageInputSchema.safeParse({ role: "user", content: null })).content).toBe("may be null only beside tool_calls");
    expect(MessageInputSchema.safeParse({ role: "assistant", content: null, tool_calls: [call] }).success).toBe(true);
    // an assistant's refusal stands in for its content
    expect(MessageInputSchema.safeParse({ role: "assistant", refusal: "I can't" }).success).toBe(true);
  });

  it("tool calls belong to assistants and tool call ids to tool messages", () => {
    expect(issues(MessageInputSchema.safeParse({ role: "user", content: "x", tool_calls: [call] })).tool_calls).toBe(
      "only assistant messages carry tool_calls",
    );
    expect(issues(MessageInputSchema.safeParse({ role: "tool", content: "42" })).tool_call_id).toBe("is required on a tool message");
    expect(issues(MessageInputSchema.safeParse({ role: "user", content: "x", tool_call_id: "call_1" })).tool_call_id).toBe(
      "only tool messages carry tool_call_id",
    );
    expect(MessageInputSchema.safeParse({ role: "tool", content: "42", tool_call_id: "has space" }).success).toBe(false);
  });

  it("a native message is strict; a proxied one lets unknown fields through", () => {
    expect(MessageInputSchema.safeParse({ role: "user", content: "x", extra: 1 }).success).toBe(false);
    expect(ProxyMessageSchema.safeParse({ role: "user", content: "x", extra: 1 }).success).toBe(true);
  });

  it("toIncoming: developer becomes system, a refusal stands in for content, response-only fields are dropped", () => {
    expect(toIncoming(ProxyMessageSchema.parse({ role: "developer", content: "rules" }))).toEqual({ role: "system", content: "rules" });
    expect(toIncoming(ProxyMessageSchema.parse({ role: "assistant", refusal: "no", annotations: [], audio: null }))).toEqual({
      role: "assistant",
      content: "no",
    });
    expect(toIncoming(ProxyMessageSchema.parse({ role: "assistant", content: null, tool_calls: [call] }))).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [call],
    });
  });

  it("toIncomingNative keeps the native fields", () => {
    const parsed = MessageInputSchema.parse({
      id: "m1",
      role: "user",
      content: "x",
      persist: true,
      importance: 0.9,
      metadata: { a: 1 },
      ts: 5,
      name: "ada",
    });
    expect(toIncomingNative(parsed)).toEqual({
      id: "m1",
      role: "user",
      content: "x",
      name: "ada",
      persist: true,
      importance: 0.9,
      metadata: { a: 1 },
      ts: 5,
    });
  });

  it("an append refuses the same message id twice in one request", () => {
    const message = { id: "m1", role: "user", content: "x" };
    expect(issues(AppendBodySchema.safeParse({ messages: [message, message] }))["messages.1.id"]).toBe("duplicate message id in request");
    expect(AppendBodySchema.safeParse({ messages: [message, { ...message, id: "m2" }] }).success).toBe(true);
    expect(AppendBodySchema.safeParse({ messages: [] }).success).toBe(false);
  });
});
