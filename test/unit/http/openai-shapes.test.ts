import { describe, expect, it } from "vitest";
import { CompletionBody, proxiedRequest } from "../../../src/http/openai-shapes.ts";

const request = {
  model: "gpt-x",
  messages: [
    { role: "developer", content: "Be brief" },
    { role: "user", content: "I sail", persist: true },
  ],
  temperature: 0.2,
  tools: [{ type: "function", function: { name: "f" } }],
};

describe("the OpenAI request the proxy accepts", () => {
  it("checks the fields memory reads and passes every other one through as sent", () => {
    const body = CompletionBody.parse(request);
    expect(body).toMatchObject({ temperature: 0.2, tools: request.tools });
  });

  it.each([
    ["no model", { ...request, model: "" }],
    ["no messages", { ...request, messages: [] }],
    ["a stream flag that is not a boolean", { ...request, stream: "yes" }],
    ["a user name over 256 characters", { ...request, user: "u".repeat(257) }],
    ["a message the shape rules refuse", { ...request, messages: [{ role: "tool", content: "42" }] }],
  ])("refuses %s", (_label, body) => {
    expect(CompletionBody.safeParse(body).success).toBe(false);
  });

  it("becomes the domain's request: the body as sent, messages converted, persist per message and per header", () => {
    const body = CompletionBody.parse(request);
    const proxied = proxiedRequest(body, true);
    expect(proxied.body).toBe(body);
    expect(proxied.persist).toBe(true);
    expect(proxied.messages).toEqual([
      { role: "system", content: "Be brief" },
      { role: "user", content: "I sail", persist: true },
    ]);
    expect(proxiedRequest(body).persist).toBeUndefined();
  });
});
