/**
 * @module A Worker that only relays LangChain's Redis commands (and, for a chat turn, its LLM call):
 * the least a Worker can cost on this machine for the same work, served exactly as Agent Memory is
 * (the deploy bundle on its own socket in local workerd). The peers bench prints it beside the
 * others, so the figures separate what the local hop into workerd costs from what the service adds.
 *
 * - `GET /read?key=K`: `LRANGE K 0 -1`, one pipeline request.
 * - `POST /append?key=K` with a JSON array of strings: `LPUSH K ...`, one pipeline request.
 * - `POST /chat?key=K` with the user's text: the read, then the chat completion with the history.
 */
interface RelayEnv {
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
  OPENAI_BASE_URL: string;
  OPENAI_API_KEY: string;
}

type Command = (string | number)[];

/** How LangChain's Upstash history stores a message (a JSON string per list entry). */
interface StoredMessage {
  type: string;
  data: { content: string };
}

async function pipeline(env: RelayEnv, commands: Command[]): Promise<{ result?: unknown; error?: string }[]> {
  const res = await fetch(`${env.UPSTASH_REDIS_REST_URL}/pipeline`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.UPSTASH_REDIS_REST_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(commands),
  });
  return (await res.json()) as { result?: unknown; error?: string }[];
}

export default {
  async fetch(request: Request, env: RelayEnv): Promise<Response> {
    const url = new URL(request.url);
    const key = url.searchParams.get("key") ?? "";
    if (url.pathname === "/read") return Response.json(await pipeline(env, [["LRANGE", key, 0, -1]]));
    if (url.pathname === "/append") {
      const values = (await request.json()) as string[];
      return Response.json(await pipeline(env, [["LPUSH", key, ...values]]));
    }
    if (url.pathname === "/chat") {
      const question = await request.text();
      const [read] = await pipeline(env, [["LRANGE", key, 0, -1]]);
      const stored = ((read?.result as string[] | undefined) ?? []).map((raw) => JSON.parse(raw) as StoredMessage).reverse();
      const messages = [
        ...stored.map((m) => ({ role: m.type === "human" ? "user" : "assistant", content: m.data.content })),
        { role: "user", content: question },
      ];
      const res = await fetch(`${env.OPENAI_BASE_URL}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.OPENAI_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "bench-model", messages }),
      });
      return new Response(await res.text(), { headers: { "content-type": "application/json" } });
    }
    return new Response("not found", { status: 404 });
  },
};
