import { MemoryApiError, createMemoryClient } from "@agent-memory/client";

/**
 * The typed client in a Node script: append a conversation, read the context an LLM would get,
 * store and recall long-term facts. Needs no LLM.
 *
 *   npm run dev                  # in another terminal
 *   npm run example:client       # AGENT_MEMORY_URL and AGENT_MEMORY_KEY move it
 */
const memory = createMemoryClient({
  baseUrl: process.env.AGENT_MEMORY_URL ?? "http://127.0.0.1:8787",
  apiKey: process.env.AGENT_MEMORY_KEY ?? "dev-key",
});
const sessionId = `quickstart-${Date.now().toString(36)}`;
const userId = "quickstart-user";

try {
  const appended = await memory.append(
    sessionId,
    [
      { id: "sys", role: "system", content: "You are a concise travel assistant." },
      { id: "m1", role: "user", content: "I'm planning a trip to Lisbon in May." },
      { id: "m2", role: "assistant", content: "Lovely! Lisbon is mild in May." },
    ],
    { userId },
  );
  console.log("appended:", JSON.stringify(appended));

  const tea = await memory.facts(userId).add({ text: "Prefers green tea over coffee", type: "preference", importance: 0.8 });
  await memory.facts(userId).add({ text: "Is allergic to peanuts", type: "fact", importance: 0.9 });
  console.log("fact added:", JSON.stringify(tea));

  const recalled = await memory.facts(userId).recall("does the user prefer tea or coffee?", { k: 3 });
  console.log("recalled:", JSON.stringify(recalled));

  const context = await memory.context(sessionId, { query: "should I order tea or coffee in Lisbon?", userId, k: 3 });
  console.log("context:", JSON.stringify(context));

  const listed = await memory.facts(userId).list({ limit: 10 });
  console.log("facts:", JSON.stringify(listed));
} catch (err) {
  if (!(err instanceof MemoryApiError)) throw err;
  console.error(`the service answered ${err.status} ${err.code}: ${err.message}`);
  process.exitCode = 1;
}
