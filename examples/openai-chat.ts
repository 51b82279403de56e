import { createInterface } from "node:readline/promises";
import OpenAI from "openai";

/**
 * A terminal chat through the OpenAI-compatible proxy, with the official `openai` SDK: only the new
 * message is sent each turn, the service keeps the conversation (window, summary, recalled facts).
 *
 *   npm run dev                  # in another terminal (with OPENAI_API_KEY or OPENAI_BASE_URL set)
 *   npm run example:chat         # AGENT_MEMORY_URL, AGENT_MEMORY_KEY, SESSION, USER_ID, MODEL move it
 *
 * Lines are read from stdin until EOF or `/exit`, so `echo "hello" | npm run example:chat` works too.
 */
const env = process.env;
const baseURL = `${(env.AGENT_MEMORY_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "")}/v1`;
const session = env.SESSION ?? "terminal-chat";
const user = env.USER_ID ?? "terminal-user";

const openai = new OpenAI({
  baseURL,
  apiKey: env.AGENT_MEMORY_KEY ?? "dev-key",
  // The memory session and user travel as headers, so any OpenAI client can use the proxy unchanged.
  defaultHeaders: { "X-Memory-Session": session, "X-Memory-User": user },
  maxRetries: 0,
});

const system = { role: "system" as const, content: "You are a helpful assistant. Use what you remember about the user." };
// In a terminal the prompt comes before the typed line; piped lines are echoed after it instead.
const interactive = process.stdin.isTTY === true;
const lines = createInterface({ input: process.stdin, output: process.stdout, terminal: interactive, prompt: "you> " });
console.log(`chat with memory at ${baseURL} (session ${session}, user ${user}); /exit or Ctrl-D ends it`);
if (interactive) lines.prompt();

for await (const line of lines) {
  const text = line.trim();
  if (text === "/exit") break;
  if (text === "") {
    if (interactive) lines.prompt();
    continue;
  }
  if (!interactive) console.log(`you> ${text}`);
  try {
    const stream = await openai.chat.completions.create({
      model: env.MODEL ?? "gpt-4o-mini",
      messages: [system, { role: "user", content: text }],
      stream: true,
    });
    process.stdout.write("assistant> ");
    for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");
    process.stdout.write("\n");
  } catch (err) {
    // A refused turn (bad key, no LLM configured, service down) is reported and the chat goes on.
    console.error(`error: ${err instanceof OpenAI.APIError && err.status ? `${err.status} ` : ""}${(err as Error).message}`);
    process.exitCode = 1;
  }
  if (interactive) lines.prompt();
}
lines.close();
