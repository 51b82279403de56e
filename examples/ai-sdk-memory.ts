import { createMemoryClient } from "@agent-memory/client";
import { memoryMiddleware } from "@agent-memory/client/ai-sdk";
import { generateText, simulateReadableStream, streamText, wrapLanguageModel, type LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";

/**
 * Memory for a Vercel AI SDK app: `wrapLanguageModel` with the memory middleware recalls the
 * user's facts into the prompt and stores every turn, for `generateText` and `streamText`. The
 * model here is a local fake (the AI SDK's `MockLanguageModelV3`) that answers with what memory put
 * into its prompt, so the example needs no LLM; swap in `openai("gpt-4o-mini")` for a real one.
 *
 *   npm run dev                  # in another terminal
 *   npm run example:ai-sdk       # AGENT_MEMORY_URL and AGENT_MEMORY_KEY move it
 */
const client = createMemoryClient({
  baseUrl: process.env.AGENT_MEMORY_URL ?? "http://127.0.0.1:8787",
  apiKey: process.env.AGENT_MEMORY_KEY ?? "dev-key",
});
const run = Date.now().toString(36);
const userId = `ai-sdk-user-${run}`;

type Prompt = Parameters<MockLanguageModelV3["doGenerate"]>[0]["prompt"];

/** What the fake model says: the memories it was given, or that it has none. */
function answer(prompt: Prompt): string {
  const memories = prompt
    .filter((m) => m.role === "system" && m.content.startsWith("Relevant memories"))
    .map((m) => (m.role === "system" ? m.content : ""));
  return memories.length > 0 ? `From memory: ${memories.join(" ").replace(/\s+/g, " ")}` : "Nice to meet you! I'll remember that.";
}

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } };
const fake = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => ({
    content: [{ type: "text", text: answer(prompt) }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  }),
  doStream: async ({ prompt }) => ({
    stream: simulateReadableStream({
      chunks: [
        { type: "text-start", id: "t1" },
        ...answer(prompt)
          .split(/(?<= )/)
          .map((delta) => ({ type: "text-delta" as const, id: "t1", delta })),
        { type: "text-end", id: "t1" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ],
    }),
  }),
});

/** The model an app uses: one per conversation (or pass `providerOptions.agentMemory` per call). */
const withMemory = (sessionId: string): LanguageModel =>
  wrapLanguageModel({ model: fake, middleware: memoryMiddleware({ client, sessionId, userId }) });

// First conversation: the user tells something worth remembering; the turn is stored.
const first = await generateText({
  model: withMemory(`ai-sdk-a-${run}`),
  prompt: "I love drawing horses with my daughter Lily, she is 7.",
});
console.log("first conversation:", first.text);

// The service learns facts from stored turns in the background: wait until it has.
for (let i = 0; i < 50; i++) {
  if ((await client.facts(userId).recall("Lily drawing")).facts.length > 0) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}

// A new conversation, streamed: memory recalls Lily before the model is called.
const second = streamText({
  model: withMemory(`ai-sdk-b-${run}`),
  prompt: "What could I give my daughter Lily for her birthday? Something about drawing horses?",
});
let streamed = "";
for await (const delta of second.textStream) streamed += delta;
console.log("second conversation:", streamed);

const stored = await client.context(`ai-sdk-b-${run}`);
console.log(`stored turns of the second conversation: ${stored.messages.length} messages`);
